import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an external program with given stdin and collects its exit status, stdout and stderr.
///
/// Stdin is written and stdout and stderr are read concurrently, so any amount of data in either
/// direction works without deadlock. The waiting happens on a Dispatch thread, never on the Swift
/// concurrency pool: a test suite runs its tests in parallel on that pool (one thread per core),
/// and tests that each block a pool thread for a program (Chromium, Python peers, the CLI) held
/// other tests' awaits for over a minute on a 2-core machine.
public enum ExternalProcess {
    /// What a finished program produced.
    public struct Result: Sendable {
        /// The exit status, or the signal number when the program was killed by a signal.
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// `stdout` decoded as UTF-8 (invalid sequences replaced).
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// `stderr` decoded as UTF-8 (invalid sequences replaced).
        public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Why a program could not be run.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The full path of the executable `name` found in `PATH`, or `name` itself when it contains
    /// a `/` and is executable; nil when there is none.
    public static func which(_ name: String) -> String? {
        if name.contains("/") {
            return isExecutableFile(name) ? name : nil
        }
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(directory)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` (a path, or a name looked up in `PATH`) with `arguments`, feeding it
    /// `stdin`, and waits for it to exit.
    ///
    /// - Parameter environment: the program's whole environment; nil inherits this process's.
    /// - Throws: `Failure` when the executable is not found or cannot be started. A non-zero exit
    ///   status is not an error; check `Result.status`.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: [UInt8] = [],
        environment: [String: String]? = nil
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Swift.Result { try runBlocking(executable, arguments, stdin: stdin, environment: environment) })
            }
        }
    }

    /// ``run(_:_:stdin:environment:)`` on the calling thread, which it blocks until the program exits.
    private static func runBlocking(
        _ executable: String,
        _ arguments: [String],
        stdin: [UInt8] = [],
        environment: [String: String]? = nil
    ) throws -> Result {
        guard let path = which(executable) else {
            throw Failure(description: "ExternalProcess: no executable '\(executable)' (looked in PATH if it has no '/')")
        }
        // A program that exits without reading all of stdin must not kill us with SIGPIPE;
        // the write then fails with EPIPE, which is ignored.
        signal(SIGPIPE, SIG_IGN)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "ExternalProcess: cannot start \(path): \(error)")
        }

        let collectedErrors = Collected()
        let group = DispatchGroup()
        let writer = input.fileHandleForWriting
        DispatchQueue.global().async(group: group) {
            try? writer.write(contentsOf: Data(stdin))
            try? writer.close()
        }
        let errorReader = errors.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            collectedErrors.store(readAll(errorReader))
        }
        let stdout = readAll(output.fileHandleForReading)
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: stdout, stderr: collectedErrors.take())
    }

    private static func readAll(_ handle: FileHandle) -> [UInt8] {
        let data = (try? handle.readToEnd()) ?? Data()
        try? handle.close()
        return [UInt8](data)
    }

    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && !isDirectory.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }

    /// Bytes handed from a reader thread to the caller.
    private final class Collected: Sendable {
        private let bytes = Mutex<[UInt8]>([])
        func store(_ value: [UInt8]) { bytes.withLock { $0 = value } }
        func take() -> [UInt8] { bytes.withLock { $0 } }
    }
}

/// Finds executables that SwiftPM built into the same directory as the running tests.
public enum BuiltProducts {
    /// The path of the product `executableName` (e.g. `lowband`), found by walking up from the
    /// test binary's location (`.build/<triple>/debug/lowband`).
    ///
    /// `swift test` builds every product first. When none is found, the result is the path where
    /// it was expected, so ``ExternalProcess/run(_:_:stdin:environment:)`` fails with a message
    /// naming it.
    public static func path(of executableName: String) -> String {
        let starts = startDirectories()
        for start in starts {
            var directory = start
            while true {
                let candidate = directory.appendingPathComponent(executableName).path
                if ExternalProcess.which(candidate) != nil { return candidate }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        let expected = (starts.first ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .appendingPathComponent(executableName).path
        return expected
    }

    private static func startDirectories() -> [URL] {
        var urls: [URL] = []
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if let argument = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: argument, relativeTo: current).standardizedFileURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            urls.append(executable.deletingLastPathComponent())
        }
        urls.append(Bundle.main.bundleURL)
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return urls
    }
}
