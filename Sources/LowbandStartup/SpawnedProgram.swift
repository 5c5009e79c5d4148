import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A program started with `posix_spawn` in a process group of its own, stdin from /dev/null,
/// stdout and stderr into pipes this process reads. Stopped and reaped at the latest when the
/// handle goes away, so no launch outlives `lowband startup`.
///
/// Every other program Lowband starts goes through LowbandProcess (swift-subprocess). A timed
/// launch does not: its clock starts at the spawn call, and swift-subprocess's launch and
/// asynchronous reads added 0.27 ms (38 %) to the median time from launch to a child's first
/// line (300 launches of `/bin/echo`: 0.70 ms here, 0.97 ms there), time no program spends.
final class SpawnedProgram {
    struct SpawnError: Error {
        var description: String
    }

    let pid: pid_t
    /// Taken just before `posix_spawn`.
    let started: ContinuousClock.Instant
    /// The read ends: stdout, stderr.
    private var outputs: [Int32]
    private var status: Int32?
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts `executable` with `arguments`; `environment` (`NAME=value` entries) replaces this
    /// process's environment when given.
    init(executable: String, arguments: [String], environment: [String]? = nil) throws(SpawnError) {
        var out: [Int32] = [0, 0]
        var err: [Int32] = [0, 0]
        guard pipe(&out) == 0 else { throw SpawnError(description: Self.errnoText("cannot make a pipe")) }
        guard pipe(&err) == 0 else {
            close(out[0]); close(out[1])
            throw SpawnError(description: Self.errnoText("cannot make a pipe"))
        }
        // Not inherited by other children; dup2 onto 1 and 2 in the child clears the flag there.
        for descriptor in out + err { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, out[1], 1)
        posix_spawn_file_actions_adddup2(&actions, err[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group, and the default signal handling whatever ours is.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        var child: pid_t = 0
        let clock = ContinuousClock()
        let started = clock.now
        let result = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(out[1])
        close(err[1])
        guard result == 0 else {
            close(out[0]); close(err[0])
            throw SpawnError(description: String(cString: strerror(result)))
        }
        self.pid = child
        self.started = started
        self.outputs = [out[0], err[0]]
    }

    deinit {
        stop()
        closeOutputs()
    }

    /// The indices (0 stdout, 1 stderr) of the open outputs that have bytes or ended, waiting
    /// at most `timeout`.
    func poll(open: [Bool], timeout: Duration) -> [Int] {
        poll(open: open, timeout: timeout, also: nil).outputs
    }

    /// The same, watching descriptor `also` as well: whether it has something to read.
    func poll(open: [Bool], timeout: Duration, also extra: Int32?) -> (outputs: [Int], also: Bool) {
        var descriptors = outputs.enumerated().filter { open[$0.offset] }.map { pollfd(fd: $0.element, events: Int16(POLLIN), revents: 0) }
        if let extra { descriptors.append(pollfd(fd: extra, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = Int32(clamping: max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let count = Glibc.poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard count > 0 else { return ([], false) }
        let ready = descriptors.filter { $0.revents != 0 }
        return (ready.compactMap { ready in ready.fd == extra ? nil : outputs.firstIndex(of: ready.fd) }, ready.contains { $0.fd == extra })
    }

    /// The program's exit status if it has ended (reaped now if need be), else nil.
    func exitStatus() -> Int32? {
        if status == nil { reap(blocking: false) }
        return status
    }

    /// Bytes from output `index`, or nil at its end (or on a read error, which ends it too).
    func read(_ index: Int) -> ArraySlice<UInt8>? {
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(outputs[index], $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            return count > 0 ? buffer[..<count] : nil
        }
    }

    /// The program's `VmHWM` from /proc, in bytes.
    func peakResidentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }

    /// The exit status once the program has ended, checking until `deadline`.
    func waitForExit(until deadline: ContinuousClock.Instant) -> Int32? {
        let clock = ContinuousClock()
        while status == nil {
            reap(blocking: false)
            if status != nil || clock.now >= deadline { break }
            // Nothing to poll on once both outputs have ended: look again in 10 ms.
            var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            nanosleep(&pause, nil)
        }
        return status
    }

    /// SIGTERM to the process group; SIGKILL if the program is still there after the grace
    /// period; then reaped. Output arriving meanwhile is read and dropped so a program that
    /// logs on its way out never blocks on a full pipe.
    func stop(grace: Duration = ProgramLaunch.stopGrace) {
        guard status == nil else { return }
        kill(-pid, SIGTERM)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: grace)
        var open = outputs.map { $0 >= 0 }
        while status == nil, clock.now < deadline {
            reap(blocking: false)
            guard status == nil else { break }
            if open.contains(true) {
                for index in poll(open: open, timeout: .milliseconds(10)) where read(index) == nil {
                    open[index] = false
                }
            } else {
                var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
                nanosleep(&pause, nil)
            }
        }
        if status == nil {
            kill(-pid, SIGKILL)
            reap(blocking: true)
        }
        // Whatever the program left behind in its group goes too.
        kill(-pid, SIGKILL)
    }

    func closeOutputs() {
        for index in outputs.indices where outputs[index] >= 0 {
            close(outputs[index])
            outputs[index] = -1
        }
    }

    private func reap(blocking: Bool) {
        var raw: Int32 = 0
        while true {
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            if result == pid { status = raw }
            if result < 0, errno == EINTR { continue }
            // ECHILD: somebody else reaped it; count it as gone.
            if result < 0 { status = status ?? 0 }
            return
        }
    }

    private static func errnoText(_ what: String) -> String {
        "\(what): \(String(cString: strerror(errno)))"
    }
}
