import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What `ChildProcess` and ``ExternalProcess`` hand swift-subprocess, and how they read what it
/// hands back.
enum Launch {
    /// A whole environment, as `environment` gives it.
    ///
    /// Through `Environment.Key`, not `.custom([[UInt8]])`: swift-subprocess 1.0.2 passes those
    /// byte arrays to `strdup` as they are, so an entry without a trailing NUL reads past its end
    /// (a child saw `x1.crt` for `x1`).
    static func environment(_ environment: [String: String]) -> Environment {
        .custom(Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) }))
    }

    /// The exit code, or 128 + the signal's number when a signal ended the process.
    static func status(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// A descriptor that appends to `path`, creating the file when missing.
    static func appending(to path: String) throws -> FileDescriptor {
        try FileDescriptor.open(FilePath(path), .writeOnly, options: [.append, .create, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
    }
}
