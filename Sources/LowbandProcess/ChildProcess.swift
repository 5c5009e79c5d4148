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
        if shared.state.withLock({ $0.status == nil }) { kill(processIdentifier, SIGKILL) }
    }

    /// Runs the program to its end: hands its pid to `launched`, reads its pipes, and reports
    /// its exit once it has been reaped and its output has ended.
    private static func supervise(
        _ configuration: Configuration, output: Output, shared: Shared, launched: AsyncThrowingStream<Int32, any Error>.Continuation
    ) async {
        let status: Int32
        do {
            switch output {
            case .pipes:
                let result = try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence) { execution in
                    launched.yield(execution.processIdentifier.value)
                    launched.finish()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { await Self.readLines(execution.standardOutput, into: shared) }
                        group.addTask { await Self.readErrors(execution.standardError, into: shared) }
                    }
                }
                status = Launch.status(result.terminationStatus)
            case .appending(let file):
                let out = try Launch.appending(to: file)
                let errors = try Launch.appending(to: file)
                let result = try await Subprocess.run(
                    configuration, input: .none,
                    output: .fileDescriptor(out, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
                ) { execution in
                    launched.yield(execution.processIdentifier.value)
                    launched.finish()
                }
                status = Launch.status(result.terminationStatus)
            }
        } catch {
            // Before the body ran, this is the launch failing; after, the process is gone.
            launched.finish(throwing: error)
            status = -1
        }
        shared.report { state in
            state.ended = true
            state.status = status
        }
    }

    private static func readLines(_ output: SubprocessOutputSequence, into shared: Shared) async {
        do {
            for try await chunk in output {
                let bytes = chunk.withUnsafeBytes { Array($0) }
                shared.report { state in
                    state.buffer.append(contentsOf: bytes)
                    while let newline = state.buffer.firstIndex(of: 0x0A) {
                        state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
                        state.buffer.removeSubrange(...newline)
                    }
                }
            }
        } catch {
            // A read error ends stdout like its end does.
        }
        shared.report { state in
            if !state.buffer.isEmpty {
                state.lines.append(String(decoding: state.buffer, as: UTF8.self))
                state.buffer = []
            }
            state.ended = true
        }
    }

    private static func readErrors(_ output: SubprocessOutputSequence, into shared: Shared) async {
        do {
            for try await chunk in output {
                let bytes = chunk.withUnsafeBytes { Array($0) }
                shared.state.withLock { state in
                    state.errors.append(contentsOf: bytes)
                    if state.errors.count > Self.stderrLimit { state.errors.removeFirst(state.errors.count - Self.stderrLimit) }
                }
            }
        } catch {
            // What was read stays.
        }
    }

    /// The next line of stdout without its newline; nil once stdout has ended.
    ///
    /// - Throws: ``Failure`` when no line arrives within `timeout`.
    package func nextLine(timeout: Duration = .seconds(30)) async throws -> String? {
        try await shared.wait(timeout: timeout, failure: "no line on stdout within \(timeout)") { state in
            if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
            return state.ended ? .some(nil) : nil
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
        if shared.state.withLock({ $0.status == nil }) { kill(processIdentifier, signal) }
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
        String(decoding: shared.state.withLock { $0.errors }, as: UTF8.self)
    }
}

extension ChildProcess {
    /// What the supervising task and the waiters share.
    private final class Shared: Sendable {
        let state = Mutex(State())

        /// Applies `change`, then resumes every waiter whose condition now holds.
        func report(_ change: (inout State) -> Void) {
            let ready = state.withLock { state -> [() -> Void] in
                change(&state)
                return state.resumeReady()
            }
            for resume in ready { resume() }
        }

        /// The value `condition` gives once it gives one (it may change the state, e.g. take a
        /// line), or ``Failure`` with `failure` after `timeout`.
        func wait<Value: Sendable>(
            timeout: Duration, failure: String, _ condition: @escaping @Sendable (inout State) -> Value?
        ) async throws -> Value {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let id = state.withLock { state -> UInt64? in
                    if let value = condition(&state) {
                        continuation.resume(returning: value)
                        return nil
                    }
                    state.nextWaiterID += 1
                    state.waiters.append(Waiter(id: state.nextWaiterID) { state in
                        guard let value = condition(&state) else { return nil }
                        return { continuation.resume(returning: value) }
                    } expire: {
                        continuation.resume(throwing: Failure(description: "ChildProcess: \(failure)"))
                    })
                    return state.nextWaiterID
                }
                guard let id else { return }
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                    let expired = state.withLock { state -> Waiter? in
                        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.waiters.remove(at: index)
                    }
                    expired?.expire()
                }
            }
        }
    }

    /// One pending wait: `check` returns how to resume it once its condition holds.
    fileprivate struct Waiter: Sendable {
        var id: UInt64
        var check: @Sendable (inout State) -> (() -> Void)?
        var expire: @Sendable () -> Void
    }

    fileprivate struct State: Sendable {
        var buffer: [UInt8] = []
        var lines: [String] = []
        var errors: [UInt8] = []
        /// stdout has ended (or the process is gone).
        var ended = false
        /// Set once the process has been reaped and its output has ended.
        var status: Int32?
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0

        /// Removes the waiters whose condition holds, in the order they came, and returns their
        /// resumptions (run outside the lock).
        mutating func resumeReady() -> [() -> Void] {
            var ready: [() -> Void] = []
            var index = 0
            while index < waiters.count {
                let check = waiters[index].check
                if let resume = check(&self) {
                    ready.append(resume)
                    waiters.remove(at: index)
                } else {
                    index += 1
                }
            }
            return ready
        }
    }
}
