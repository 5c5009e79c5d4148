import LowbandServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on `<directory>/server.lock`, held while the value lives, so two
/// servers never write one data directory. The kernel lets go when the process dies, `kill -9`
/// included, so a restart never finds a stale lock.
///
/// A lock found held is tried again for up to ``settle`` before it is refused. A `flock` belongs
/// to the open file, and a child that this process forks holds a copy of every descriptor until
/// it execs: swift-subprocess forks (clone3) rather than vfork-spawns on Linux, so a server
/// reopened in a process that is starting programs found its own just-closed lock still held by
/// a child that had not yet exec'd (seen in the parallel test suite). Another server's lock is
/// held for its whole life and still refused, ``settle`` later.
final class DirectoryLock: Sendable {
    /// How long a held lock is tried again before it counts as another server's.
    static let settle: Duration = .seconds(2)

    private let descriptor: Int32

    init(directory: String) throws(ServerStoreError) {
        let path = directory + "/server.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerStoreError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now + Self.settle
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(descriptor)
                throw ServerStoreError(.io, "another lowband server is using the data directory \(directory) (\(path) is locked): stop it first")
            }
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
