// `lowband shell`'s namespace: see include/lowband_namespace.h.
//
// The process tree is the caller (the Lowband process, multi-threaded) → init (PID 1 of a new
// PID namespace, in new user, network and mount namespaces) → the command. Init is made with a
// raw clone(2) and forks the command with another: both behave like fork() but skip glibc's
// fork handlers, which take malloc's locks — locks another thread of the caller may have held
// at the instant of the clone, and which would never be released in the copy. After the clone
// the child only makes system calls on memory the caller prepared.
//
// Why a PID namespace: when its init exits the kernel kills every process left in it, so a
// daemon the command forked cannot outlive the shell (a process group can be left with
// setsid(); PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process). Init
// also watches a pipe from the caller (the lifeline): if the Lowband process dies, init exits
// and the namespace goes with it.
#define _GNU_SOURCE
#include "lowband_namespace.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <net/route.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/// One message from the child to the caller over the SOCK_SEQPACKET pair.
struct message {
    int32_t kind; // 0 ready (carries the TAP fd), 1 setup failed, 2 exec failed
    int32_t error;
    char step[96];
};

static pid_t raw_clone(unsigned long flags) {
    // Arguments after the flags (stack, parent tid, child tid / tls) are all 0: fork's semantics.
    return (pid_t)syscall(SYS_clone, flags | SIGCHLD, 0, 0, 0, 0);
}

static void copy_text(char *destination, size_t capacity, const char *text) {
    size_t length = strlen(text);
    if (length >= capacity) length = capacity - 1;
    memcpy(destination, text, length);
    destination[length] = 0;
}

static void send_message(int socket_fd, int kind, const char *step, int error, int passed_fd) {
    struct message message;
    memset(&message, 0, sizeof message);
    message.kind = kind;
    message.error = error;
    copy_text(message.step, sizeof message.step, step);
    struct iovec vector = {.iov_base = &message, .iov_len = sizeof message};
    union {
        char buffer[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr header = {.msg_iov = &vector, .msg_iovlen = 1};
    if (passed_fd >= 0) {
        header.msg_control = control.buffer;
        header.msg_controllen = sizeof control.buffer;
        struct cmsghdr *cmsg = CMSG_FIRSTHDR(&header);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cmsg), &passed_fd, sizeof(int));
    }
    while (sendmsg(socket_fd, &header, MSG_NOSIGNAL) < 0 && errno == EINTR) {}
}

/// Reports a failed setup step to the caller and ends the child.
static void fail(int socket_fd, const char *step) {
    send_message(socket_fd, 1, step, errno, -1);
    _exit(125);
}

static int write_text(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t length = (ssize_t)strlen(text);
    ssize_t written = write(fd, text, (size_t)length);
    int saved = errno;
    close(fd);
    errno = saved;
    return written == length ? 0 : -1;
}

/// "0 ID 1\n": root inside is `id` outside, and nothing else is mapped.
static void map_line(char *buffer, unsigned id) {
    char digits[16];
    int count = 0;
    do {
        digits[count++] = (char)('0' + id % 10);
        id /= 10;
    } while (id > 0);
    char *cursor = buffer;
    *cursor++ = '0';
    *cursor++ = ' ';
    while (count > 0) *cursor++ = digits[--count];
    memcpy(cursor, " 1\n", 4);
}

static void set_address(struct ifreq *request, uint32_t address) {
    struct sockaddr_in *inet = (struct sockaddr_in *)&request->ifr_addr;
    memset(inet, 0, sizeof *inet);
    inet->sin_family = AF_INET;
    inet->sin_addr.s_addr = address;
}

/// Brings `name` up on the control socket `control`.
static int bring_up(int control, const char *name) {
    struct ifreq request;
    memset(&request, 0, sizeof request);
    copy_text(request.ifr_name, IFNAMSIZ, name);
    if (ioctl(control, SIOCGIFFLAGS, &request) < 0) return -1;
    request.ifr_flags |= IFF_UP | IFF_RUNNING;
    return ioctl(control, SIOCSIFFLAGS, &request);
}

/// Inside the namespaces: identity, mounts, lo and the TAP; returns the TAP's fd.
static int set_up(const struct lowband_ns_config *config, int socket_fd, unsigned uid, unsigned gid) {
    char line[40];
    // An unprivileged process may map only its own ids, and its gid only once setgroups(2)
    // is denied in the namespace (user_namespaces(7)).
    if (write_text("/proc/self/setgroups", "deny") < 0) fail(socket_fd, "writing /proc/self/setgroups");
    map_line(line, uid);
    if (write_text("/proc/self/uid_map", line) < 0) fail(socket_fd, "writing /proc/self/uid_map");
    map_line(line, gid);
    if (write_text("/proc/self/gid_map", line) < 0) fail(socket_fd, "writing /proc/self/gid_map");

    // Mounts stay inside: nothing propagates back to the host.
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) fail(socket_fd, "making / private in the mount namespace");
    if (config->resolv_conf != NULL && mount(config->resolv_conf, "/etc/resolv.conf", NULL, MS_BIND, NULL) < 0) {
        fail(socket_fd, "binding the shell's resolv.conf over /etc/resolv.conf");
    }
    // The namespace's own /proc, so `ps` inside lists its processes. A container that masks
    // parts of /proc makes the kernel refuse a fresh one; the host's then stays, which only
    // changes what `ps` shows inside, so this step (and the next) may fail.
    (void)mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL);
    // The same for /sys: a fresh sysfs shows the new network namespace's interfaces (lo and the
    // TAP) in /sys/class/net instead of the host's.
    (void)mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL);

    int control = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (control < 0) fail(socket_fd, "socket(AF_INET) for interface ioctls");
    if (bring_up(control, "lo") < 0) fail(socket_fd, "bringing lo up");

    int tap = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
    if (tap < 0) fail(socket_fd, "opening /dev/net/tun");
    struct ifreq request;
    memset(&request, 0, sizeof request);
    request.ifr_flags = IFF_TAP | IFF_NO_PI;
    copy_text(request.ifr_name, IFNAMSIZ, config->tap_name);
    if (ioctl(tap, TUNSETIFF, &request) < 0) fail(socket_fd, "TUNSETIFF on /dev/net/tun");

    memset(&request, 0, sizeof request);
    copy_text(request.ifr_name, IFNAMSIZ, config->tap_name);
    request.ifr_mtu = config->mtu;
    if (ioctl(control, SIOCSIFMTU, &request) < 0) fail(socket_fd, "setting the TAP's MTU");
    set_address(&request, config->address);
    if (ioctl(control, SIOCSIFADDR, &request) < 0) fail(socket_fd, "setting the TAP's address");
    set_address(&request, config->netmask);
    if (ioctl(control, SIOCSIFNETMASK, &request) < 0) fail(socket_fd, "setting the TAP's netmask");
    if (bring_up(control, config->tap_name) < 0) fail(socket_fd, "bringing the TAP up");

    struct rtentry route;
    memset(&route, 0, sizeof route);
    char device[IFNAMSIZ];
    copy_text(device, sizeof device, config->tap_name);
    ((struct sockaddr_in *)&route.rt_dst)->sin_family = AF_INET;
    ((struct sockaddr_in *)&route.rt_genmask)->sin_family = AF_INET;
    struct sockaddr_in *gateway = (struct sockaddr_in *)&route.rt_gateway;
    gateway->sin_family = AF_INET;
    gateway->sin_addr.s_addr = config->gateway;
    route.rt_flags = RTF_UP | RTF_GATEWAY;
    route.rt_dev = device;
    if (ioctl(control, SIOCADDRT, &route) < 0) fail(socket_fd, "adding the default route");
    close(control);
    return tap;
}

/// PID 1 of the namespace: starts the command, passes signals on, reaps orphans, and exits with
/// the command's status (128 + N when signal N ended it) — at which the kernel kills the rest.
static void run_init(const struct lowband_ns_config *config, int socket_fd, int lifeline) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    // The caller ignores SIGPIPE (libslirp writes to sockets whose peer may have gone); an
    // ignored signal stays ignored across execve, and the command must get the default.
    signal(SIGPIPE, SIG_DFL);
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGCHLD);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    sigaddset(&handled, SIGHUP);
    sigaddset(&handled, SIGQUIT);
    sigprocmask(SIG_BLOCK, &handled, NULL);
    int signals = signalfd(-1, &handled, SFD_CLOEXEC);
    if (signals < 0) fail(socket_fd, "signalfd in the namespace's init");

    pid_t command = raw_clone(0);
    if (command < 0) fail(socket_fd, "forking the command");
    if (command == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        close(lifeline);
        execve(config->path, config->argv, config->envp);
        int error = errno;
        send_message(socket_fd, 2, "execve", error, -1);
        _exit(error == ENOENT ? 127 : 126);
    }
    close(socket_fd);
    for (;;) {
        struct pollfd watched[2] = {{.fd = signals, .events = POLLIN}, {.fd = lifeline, .events = POLLIN}};
        if (poll(watched, 2, -1) < 0) {
            if (errno == EINTR) continue;
            _exit(125);
        }
        // The caller is gone (the lifeline's write end closed): the namespace goes with init.
        if (watched[1].revents != 0) _exit(137);
        if ((watched[0].revents & POLLIN) == 0) continue;
        struct signalfd_siginfo info;
        if (read(signals, &info, sizeof info) != (ssize_t)sizeof info) continue;
        if (info.ssi_signo != SIGCHLD) {
            kill(command, (int)info.ssi_signo);
            continue;
        }
        int status;
        pid_t reaped;
        while ((reaped = waitpid(-1, &status, WNOHANG)) > 0) {
            if (reaped == command) _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        }
    }
}

static int system_failure(struct lowband_ns_error *error, const char *step) {
    error->error = errno;
    copy_text(error->step, sizeof error->step, step);
    return LOWBAND_NS_SYSTEM;
}

int lowband_ns_spawn(const struct lowband_ns_config *config, struct lowband_ns_child *child,
                     struct lowband_ns_error *error) {
    memset(error, 0, sizeof *error);
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) return system_failure(error, "socketpair");
    int lifeline[2];
    if (pipe2(lifeline, O_CLOEXEC) < 0) {
        int saved = errno;
        close(pair[0]);
        close(pair[1]);
        errno = saved;
        return system_failure(error, "pipe2");
    }
    unsigned uid = (unsigned)getuid();
    unsigned gid = (unsigned)getgid();
    pid_t pid = raw_clone(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS | CLONE_NEWPID);
    if (pid == 0) {
        close(pair[0]);
        close(lifeline[1]);
        int tap = set_up(config, pair[1], uid, gid);
        send_message(pair[1], 0, "ready", 0, tap);
        close(tap);
        run_init(config, pair[1], lifeline[0]);
        _exit(125);
    }
    int saved = errno;
    close(pair[1]);
    close(lifeline[0]);
    if (pid < 0) {
        close(pair[0]);
        close(lifeline[1]);
        error->error = saved;
        if (saved == EPERM || saved == ENOSPC || saved == EINVAL || saved == EUSERS) {
            copy_text(error->step, sizeof error->step, "clone(CLONE_NEWUSER)");
            return LOWBAND_NS_NO_USER_NAMESPACE;
        }
        copy_text(error->step, sizeof error->step, "clone");
        return LOWBAND_NS_SYSTEM;
    }

    // First the setup's outcome (with the TAP), then execve's: end of file means it succeeded
    // (the command's copy of the socket is close-on-exec), a message that it did not.
    int tap = -1;
    int outcome = LOWBAND_NS_OK;
    for (int round = 0; round < 2 && outcome == LOWBAND_NS_OK; round++) {
        struct message message;
        memset(&message, 0, sizeof message);
        struct iovec vector = {.iov_base = &message, .iov_len = sizeof message};
        union {
            char buffer[CMSG_SPACE(sizeof(int))];
            struct cmsghdr align;
        } control;
        struct msghdr header = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer};
        ssize_t received;
        do {
            received = recvmsg(pair[0], &header, MSG_CMSG_CLOEXEC);
        } while (received < 0 && errno == EINTR);
        if (received == 0 && round == 1) break;
        if (received != (ssize_t)sizeof message) {
            error->error = received < 0 ? errno : EPROTO;
            copy_text(error->step, sizeof error->step, "the namespace's init ended before it was set up");
            outcome = LOWBAND_NS_SYSTEM;
            break;
        }
        message.step[sizeof message.step - 1] = 0;
        if (message.kind == 0) {
            struct cmsghdr *cmsg = CMSG_FIRSTHDR(&header);
            if (cmsg != NULL && cmsg->cmsg_type == SCM_RIGHTS) memcpy(&tap, CMSG_DATA(cmsg), sizeof(int));
            if (tap < 0) {
                error->error = EPROTO;
                copy_text(error->step, sizeof error->step, "receiving the TAP's descriptor");
                outcome = LOWBAND_NS_SYSTEM;
            }
            continue;
        }
        error->error = message.error;
        copy_text(error->step, sizeof error->step, message.step);
        outcome = message.kind == 2 ? LOWBAND_NS_EXEC_FAILED : LOWBAND_NS_SETUP_FAILED;
    }
    close(pair[0]);
    if (outcome != LOWBAND_NS_OK) {
        if (tap >= 0) close(tap);
        close(lifeline[1]);
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        return outcome;
    }
    fcntl(tap, F_SETFL, fcntl(tap, F_GETFL) | O_NONBLOCK);
    child->pid = pid;
    child->tap_fd = tap;
    child->lifeline_fd = lifeline[1];
    return LOWBAND_NS_OK;
}

static int signal_pipe = -1;

static void forward_signal(int number) {
    int saved = errno;
    unsigned char byte = (unsigned char)number;
    ssize_t ignored = write(signal_pipe, &byte, 1);
    (void)ignored;
    errno = saved;
}

int lowband_ns_catch_signals(int fd) {
    signal_pipe = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGINT, &action, NULL) < 0) return -1;
    if (sigaction(SIGTERM, &action, NULL) < 0) return -1;
    return sigaction(SIGHUP, &action, NULL);
}

void lowband_ns_release_signals(void) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal_pipe = -1;
}

int lowband_ns_pidfd(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int lowband_ns_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
}

int lowband_ns_poll(struct pollfd *fds, unsigned long count, int64_t timeout_ns) {
    if (timeout_ns < 0) return ppoll(fds, (nfds_t)count, NULL, NULL);
    struct timespec timeout = {.tv_sec = timeout_ns / 1000000000, .tv_nsec = timeout_ns % 1000000000};
    return ppoll(fds, (nfds_t)count, &timeout, NULL);
}
