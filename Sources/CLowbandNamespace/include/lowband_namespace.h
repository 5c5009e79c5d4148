#ifndef LOWBAND_NAMESPACE_H
#define LOWBAND_NAMESPACE_H
// `lowband shell`'s process side: a command started in a new user, network, mount and PID
// namespace, without root or a setuid helper, whose only interface besides `lo` is a TAP
// device handed back to the caller. Everything that cannot be done in Swift after fork() in a
// multi-threaded process lives here; the Swift wrapper is LowbandShell's NamespaceChild.

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <poll.h>

/// What to start and how the namespace's network looks. Every pointer is prepared by the caller
/// before the call: the child only makes system calls (no malloc) after the clone.
struct lowband_ns_config {
    /// The program's full path (already searched on PATH) and its argv and envp, NULL-ended.
    const char *path;
    char *const *argv;
    char *const *envp;
    /// A host file bound over /etc/resolv.conf inside (NULL: none).
    const char *resolv_conf;
    /// The TAP device's name, MTU, address, netmask and default gateway (network byte order).
    const char *tap_name;
    int mtu;
    uint32_t address;
    uint32_t netmask;
    uint32_t gateway;
};

/// The started namespace, as the caller sees it.
struct lowband_ns_child {
    /// The host PID of the namespace's init (PID 1 inside); its exit status is the command's.
    pid_t pid;
    /// The TAP device's file descriptor (non-blocking, close-on-exec): one Ethernet frame per read/write.
    int tap_fd;
    /// Closing it (or the caller dying) makes init end, and the kernel kill the namespace.
    int lifeline_fd;
};

/// Why a start failed.
enum lowband_ns_failure {
    LOWBAND_NS_OK = 0,
    /// The kernel refused a user namespace (sysctl off, container without them).
    LOWBAND_NS_NO_USER_NAMESPACE = 1,
    /// A step inside the namespace failed (`step` and `error` say which and why).
    LOWBAND_NS_SETUP_FAILED = 2,
    /// The program could not be executed (`error` is execve's errno).
    LOWBAND_NS_EXEC_FAILED = 3,
    /// A system call of the caller's own failed (`step`, `error`).
    LOWBAND_NS_SYSTEM = 4,
};

struct lowband_ns_error {
    /// The step that failed, e.g. "TUNSETIFF on /dev/net/tun".
    char step[96];
    /// Its errno.
    int error;
};

/// Starts `config`'s program in new namespaces. On success fills `child` and returns
/// LOWBAND_NS_OK; otherwise returns the failure and fills `error` (nothing is left running).
int lowband_ns_spawn(const struct lowband_ns_config *config, struct lowband_ns_child *child,
                     struct lowband_ns_error *error);

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that write the signal's number (one byte)
/// to `fd`, so the caller's poll loop forwards them to the namespace; returns 0 or -1.
int lowband_ns_catch_signals(int fd);

/// Puts SIGINT, SIGTERM and SIGHUP back to their default actions and forgets the descriptor,
/// before the caller closes it (a stray signal must not write into a reused descriptor).
void lowband_ns_release_signals(void);

/// A pipe whose both ends are close-on-exec and non-blocking (pipe2), or -1.
int lowband_ns_pipe(int fds[2]);

/// poll(2) with a timeout in nanoseconds (ppoll), so the link's decisions are not rounded to
/// milliseconds; a negative timeout waits for ever.
int lowband_ns_poll(struct pollfd *fds, unsigned long count, int64_t timeout_ns);

/// A pollable descriptor that becomes readable when `pid` exits (pidfd_open), or -1.
int lowband_ns_pidfd(pid_t pid);

#endif
