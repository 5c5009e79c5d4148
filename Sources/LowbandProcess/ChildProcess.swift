import Foundation
import Subprocess
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A long-running program: its stdout read line by line as it comes and its stderr collected
/// (or both appended to a log file), signals sent to it, and its exit awaited, every wait with a
/// deadline. Launched and reaped by swift-subprocess.
///
/// The process is killed when the handle goes away, so a failing test or an interrupted soak
/// never leaves it running.
package final class ChildProcess: Sendable {
    /// Why a launch or a wait ended without what it was for.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
        /// A failure that says `description`.
        package init(description: String) { self.description = description }
    }

    /// Where the program's stdout and stderr go.
    package enum Output: Sendable {
        /// Pipes this process reads: stdout by ``nextLine(timeout:)``, stderr into ``stderrText``.
        case pipes
        /// Appended to the file at the path (created if missing): a program never blocks on a
        /// full pipe, and what it wrote before a `kill -9` stays readable.
        case appending(toFile: String)
    }

    private let shared: Shared
    /// The process id.
    package let processIdentifier: Int32

    /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`; stdin is
    /// /dev/null. `environment` nil inherits this process's.
    ///
    /// - Throws: ``Failure`` when the program is not found or cannot be started.
    /// With `ownGroup` the child leads a process group of its own, so ``sendToGroup(_:)``
    /// reaches everything it started (a shell's children too).
    package init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, output: Output = .pipes, ownGroup: Bool = false) async throws {
        let path: String
        do {
            path = try ExecutableSearch.resolve(executable)
        } catch {
            throw Failure(description: "ChildProcess: \(error)")
        }
        let shared = Shared()
        let (launches, launched) = AsyncThrowingStream<Int32, any Error>.makeStream()
        let unlaunched = Configuration(
            executable: .path(FilePath(path)), arguments: Arguments(arguments),
            environment: environment.map(Launch.environment) ?? .inherit
        )
        var platform = PlatformOptions()
        if ownGroup { platform.processGroupID = 0 }
        let configuration = Configuration(
            executable: unlaunched.executable, arguments: unlaunched.arguments, environment: unlaunched.environment, platformOptions: platform)
        Task.detached {
            await Self.supervise(configuration, output: output, shared: shared, launched: launched)
        }
        var pids = launches.makeAsyncIterator()
        do {
            guard let pid = try await pids.next() else { throw Failure(description: "ChildProcess: \(path) did not start") }
            processIdentifier = pid
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "ChildProcess: cannot start \(path): \(error)")
        }
        self.shared = shared
    }

    deinit {
        if shared.state.withLock({ $0.exit == nil }) { kill(processIdentifier, SIGKILL) }
    }

    /// Runs the program to its end: hands its pid to `launched` and hands its pipes to a
    /// ``PipeReader`` thread, which also learns its exit.
    ///
    /// Nothing between the program's output and its exit status waits for a thread of the Swift
    /// concurrency pool. A test suite runs its tests in parallel on that pool, one thread per core;
    /// when its tests keep those threads busy, a reader on the pool got no turn, the program
    /// blocked on a full pipe, and a 5 MB stderr flood that takes 0.05 s alone missed a 30 s
    /// deadline under load (issue 39). swift-subprocess still starts and reaps the program; its
    /// report of the exit is the fallback when the reader finds the program already reaped.
    private static func supervise(
        _ configuration: Configuration, output: Output, shared: Shared, launched: AsyncThrowingStream<Int32, any Error>.Continuation
    ) async {
        let exit: Int32
        do {
            switch output {
            case .pipes:
                let stdout = try PipeReader.Pipe()
                let stderr = try PipeReader.Pipe()
                do {
                    let result = try await Subprocess.run(
                        configuration, input: .none,
                        output: .fileDescriptor(stdout.writeEnd, closeAfterSpawningProcess: true),
                        error: .fileDescriptor(stderr.writeEnd, closeAfterSpawningProcess: true)
                    ) { execution in
                        let pid = execution.processIdentifier.value
                        PipeReader.start(pid: pid, stdout: stdout.readEnd, stderr: stderr.readEnd, shared: shared)
                        launched.yield(pid)
                        launched.finish()
                    }
                    exit = Launch.status(result.terminationStatus)
                } catch {
                    // Not started: the reader never took the read ends.
                    if shared.state.withLock({ !$0.readerStarted }) {
                        try? stdout.readEnd.close()
                        try? stderr.readEnd.close()
                    }
                    throw error
                }
            case .appending(let file):
                let out = try Launch.appending(to: file)
                let errors = try Launch.appending(to: file)
                shared.report { $0.outputEnded = true }
                let result = try await Subprocess.run(
                    configuration, input: .none,
                    output: .fileDescriptor(out, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
                ) { execution in
                    let pid = execution.processIdentifier.value
                    PipeReader.start(pid: pid, stdout: nil, stderr: nil, shared: shared)
                    launched.yield(pid)
                    launched.finish()
                }
                exit = Launch.status(result.terminationStatus)
            }
        } catch {
            // Before the body ran, this is the launch failing; after, the process is gone.
            launched.finish(throwing: error)
            shared.report { state in
                if !state.readerStarted {
                    state.outputEnded = true
                    state.stdoutEnded = true
                }
                if state.exit == nil { state.exit = -1 }
            }
            return
        }
        shared.report { state in
            if state.exit == nil { state.exit = exit }
        }
    }

    /// The next line of stdout without its newline; nil once stdout has ended.
    ///
    /// - Throws: ``Failure`` when no line arrives within `timeout`.
    package func nextLine(timeout: Duration = .seconds(30)) async throws -> String? {
        try await shared.wait(timeout: timeout, failure: "no line on stdout within \(timeout)") { state in
            if let line = state.takeLine() { return .some(line) }
            return state.stdoutEnded ? .some(nil) : nil
        }
    }

    /// Lines of stdout until one satisfies `match`, which is returned (with those before it).
    package func lines(until match: (String) -> Bool, timeout: Duration = .seconds(30)) async throws -> (match: String, before: [String]) {
        var before: [String] = []
        while let line = try await nextLine(timeout: timeout) {
            if match(line) { return (line, before) }
            before.append(line)
        }
        throw Failure(description: "ChildProcess: stdout ended without the expected line; it printed \(before) and on stderr: \(stderrText)")
    }

    /// Sends `signal` to the child's whole process group (it must have been started with
    /// `ownGroup`); members that outlived the child are reached too.
    package func sendToGroup(_ signal: Int32) {
        kill(-processIdentifier, signal)
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL…) to the process, unless it has been reaped.
    package func send(_ signal: Int32) {
        // Until its exit is known the process cannot have been reaped, so its pid is still its own.
        if shared.state.withLock({ $0.exit == nil }) { kill(processIdentifier, signal) }
    }

    /// The exit status once the process has been reaped, nil while it runs: the exit code, or
    /// 128 + the signal's number when a signal ended it (as a shell reports it).
    package var status: Int32? {
        shared.state.withLock { $0.status }
    }

    /// Waits for the process to exit and returns its status: the exit code, or 128 + the
    /// signal's number.
    ///
    /// - Throws: ``Failure`` after `timeout`; the process is then killed.
    package func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        do {
            return try await shared.wait(timeout: timeout, failure: "the process did not exit within \(timeout); killed it") { state in
                state.status
            }
        } catch {
            send(SIGKILL)
            throw error
        }
    }

    /// Whether the process exited within `limit`; never throws.
    package func waitForExit(within limit: Duration) async -> Bool {
        (try? await shared.wait(timeout: limit, failure: "") { $0.status }) != nil
    }

    /// How much of stderr is kept: the newest bytes, where a failing program says why.
    package static let stderrLimit = 4 * 1024 * 1024

    /// What the process wrote to stderr (complete once it has exited, up to its last
    /// ``stderrLimit`` bytes); empty when its output goes to a file.
    package var stderrText: String {
        String(decoding: shared.state.withLock { $0.errors.suffix(Self.stderrLimit) }, as: UTF8.self)
    }
}
