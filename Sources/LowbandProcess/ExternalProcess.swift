import Subprocess
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs a program to its end with given stdin and collects its exit status, stdout and stderr,
/// through swift-subprocess.
///
/// Stdin is written while stdout and stderr are read, so any amount of data in either direction
/// works without deadlock, and nothing blocks a thread of the Swift concurrency pool while the
/// program runs (a test suite runs its tests in parallel on that pool, one thread per core).
public enum ExternalProcess {
    /// The most either output may hold: a program that writes more is an error, not an
    /// unbounded buffer.
    public static let outputLimit = 256 * 1024 * 1024

    /// What a finished program produced.
    public struct Result: Sendable {
        /// The exit code, or 128 + the signal's number when a signal ended the program.
        public var status: Int32
        /// Everything the program wrote to stdout.
        public var stdout: [UInt8]
        /// Everything the program wrote to stderr.
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
        ExecutableSearch.which(name)
    }

    /// Runs a program to its end and collects what it wrote.
    ///
    /// - Parameters:
    ///   - executable: a path, or a name looked up on `PATH`.
    ///   - arguments: the program's arguments, without its name.
    ///   - stdin: the bytes the program reads; its stdin ends after them.
    ///   - environment: the program's whole environment; nil inherits this process's.
    /// - Throws: `Failure` when the executable is not found or cannot be started, or an output
    ///   is over ``outputLimit``. A non-zero exit status is not an error; check `Result.status`.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        stdin: [UInt8] = [],
        environment: [String: String]? = nil
    ) async throws -> Result {
        let path: String
        do {
            path = try ExecutableSearch.resolve(executable)
        } catch {
            throw Failure(description: "ExternalProcess: \(error)")
        }
        // A program that exits without reading all of stdin must not kill us with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            // Stdin is written here rather than by `input: .array(stdin)`: in swift-subprocess
            // 1.0.2 a write of `.array` that fails (the program exited without reading it all)
            // leaves the pipe open, and the writer's deinit then stops the process with "was not
            // closed". Here a failed write ends the input and the run goes on.
            let result = try await Subprocess.run(
                .path(FilePath(path)), arguments: Arguments(arguments), environment: environment.map(Launch.environment) ?? .inherit,
                input: .inputWriter, output: .bytes(limit: outputLimit), error: .bytes(limit: outputLimit)
            ) { execution in
                let writer = execution.standardInputWriter
                if !stdin.isEmpty { _ = try? await writer.write(stdin) }
                try? await writer.finish()
            }
            return Result(status: Launch.status(result.terminationStatus), stdout: result.standardOutput, stderr: result.standardError)
        } catch {
            throw Failure(description: "ExternalProcess: running \(path): \(error)")
        }
    }
}
