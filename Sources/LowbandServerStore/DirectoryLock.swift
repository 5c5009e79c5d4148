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
final class DirectoryLock: Sendable {
    private let descriptor: Int32

    init(directory: String) throws(ServerStoreError) {
        let path = directory + "/server.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ServerStoreError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ServerStoreError(.io, "another lowband server is using the data directory \(directory) (\(path) is locked): stop it first")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
