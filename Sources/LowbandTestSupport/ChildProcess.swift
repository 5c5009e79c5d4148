import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A long-running program started by a test: its stdout read line by line as it comes, its
/// stderr collected, signals sent to it, and its exit awaited — every wait with a deadline.
///
/// The process is killed when the handle goes away, so a failing test never leaves it running.
public final class ChildProcess: Sendable {
    /// Why a wait ended without what it waited for.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    private let process: Process
    private let shared = Shared()
    private let identifier: Int32

    /// What the reader threads, the termination handler and the waiters share.
    private final class Shared: Sendable {
        let state = Mutex(State())
        let errors = Mutex<[UInt8]>([])
    }

    private struct State {
        var buffer: [UInt8] = []
        var lines: [String] = []
        var ended = false
        var lineWaiter: (id: UInt64, continuation: CheckedContinuation<String?, any Error>)?
        var status: Int32?
        /// stderr has been read to its end: the exit is reported only then, so `stderrText` is
        /// complete for whoever awaited it.
        var stderrEnded = false
        var exitWaiters: [(id: UInt64, continuation: CheckedContinuation<Int32, any Error>)] = []
        var nextWaiterID: UInt64 = 0
    }

    /// Starts `executable` with `arguments` (environment: nil inherits this process's).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw Failure(description: "ChildProcess: \(executable) is not an executable file")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        process.standardInput = FileHandle.nullDevice
        self.process = process
        let shared = self.shared
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            Self.reportExit(shared) { $0.status = status }
        }
        do {
            try process.run()
        } catch {
            throw Failure(description: "ChildProcess: cannot start \(executable): \(error)")
        }
        identifier = process.processIdentifier
        let outputHandle = output.fileHandleForReading
        let errorHandle = errorOutput.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = outputHandle.availableData
                let waiter = shared.state.withLock { state -> (CheckedContinuation<String?, any Error>, String?)? in
                    if data.isEmpty {
                        state.ended = true
                        if !state.buffer.isEmpty {
                            state.lines.append(String(decoding: state.buffer, as: UTF8.self))
                            state.buffer = []
                        }
                    } else {
                        state.buffer.append(contentsOf: data)
                        while let newline = state.buffer.firstIndex(of: 0x0A) {
                            state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
                            state.buffer.removeSubrange(...newline)
                        }
                    }
                    guard let waiter = state.lineWaiter else { return nil }
                    if !state.lines.isEmpty {
                        state.lineWaiter = nil
                        return (waiter.continuation, state.lines.removeFirst())
                    }
                    if state.ended {
                        state.lineWaiter = nil
                        return (waiter.continuation, nil)
                    }
                    return nil
                }
                if let (continuation, line) = waiter { continuation.resume(returning: line) }
                if data.isEmpty { break }
            }
        }
        Thread.detachNewThread {
            let data = (try? errorHandle.readToEnd()) ?? Data()
            shared.errors.withLock { $0 = [UInt8](data) }
            Self.reportExit(shared) { $0.stderrEnded = true }
        }
    }

    /// Applies `change`, then resumes the exit waiters once the process has exited and its
    /// stderr has ended.
    private static func reportExit(_ shared: Shared, _ change: (inout State) -> Void) {
        let (waiters, status) = shared.state.withLock { state -> ([CheckedContinuation<Int32, any Error>], Int32?) in
            change(&state)
            guard let status = state.status, state.stderrEnded else { return ([], nil) }
            defer { state.exitWaiters = [] }
            return (state.exitWaiters.map(\.continuation), status)
        }
        if let status { for waiter in waiters { waiter.resume(returning: status) } }
    }

    deinit {
        if process.isRunning { kill(identifier, SIGKILL) }
    }

    /// The process id.
    public var processIdentifier: Int32 { identifier }

    /// The next line of stdout without its newline; nil once stdout has ended.
    ///
    /// - Throws: ``Failure`` when no line arrives within `timeout`.
    public func nextLine(timeout: Duration = .seconds(30)) async throws -> String? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String?, any Error>) in
            let shared = self.shared
            let (immediate, id): (Result<String?, any Error>?, UInt64) = shared.state.withLock { state in
                if !state.lines.isEmpty { return (.success(state.lines.removeFirst()), 0) }
                if state.ended { return (.success(nil), 0) }
                if state.lineWaiter != nil { return (.failure(Failure(description: "ChildProcess: one nextLine at a time")), 0) }
                state.nextWaiterID += 1
                state.lineWaiter = (state.nextWaiterID, continuation)
                return (nil, state.nextWaiterID)
            }
            if let immediate {
                continuation.resume(with: immediate)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                let expired = shared.state.withLock { state -> CheckedContinuation<String?, any Error>? in
                    guard let waiter = state.lineWaiter, waiter.id == id else { return nil }
                    state.lineWaiter = nil
                    return waiter.continuation
                }
                expired?.resume(throwing: Failure(description: "ChildProcess: no line on stdout within \(timeout)"))
            }
        }
    }

    /// Lines of stdout until one satisfies `match`, which is returned (with those before it).
    public func lines(until match: (String) -> Bool, timeout: Duration = .seconds(30)) async throws -> (match: String, before: [String]) {
        var before: [String] = []
        while let line = try await nextLine(timeout: timeout) {
            if match(line) { return (line, before) }
            before.append(line)
        }
        throw Failure(description: "ChildProcess: stdout ended without the expected line; it printed \(before) and on stderr: \(stderrText)")
    }

    /// Sends `signal` (SIGINT, SIGTERM, SIGKILL…) to the process.
    public func send(_ signal: Int32) {
        if process.isRunning { kill(identifier, signal) }
    }

    /// Waits for the process to exit and returns its status (the signal number if a signal killed it).
    ///
    /// - Throws: ``Failure`` after `timeout`; the process is then killed.
    public func exitStatus(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let identifier = self.identifier
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            let shared = self.shared
            let (status, id): (Int32?, UInt64) = shared.state.withLock { state in
                if let status = state.status, state.stderrEnded { return (status, 0) }
                state.nextWaiterID += 1
                state.exitWaiters.append((state.nextWaiterID, continuation))
                return (nil, state.nextWaiterID)
            }
            if let status {
                continuation.resume(returning: status)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                let expired = shared.state.withLock { state -> CheckedContinuation<Int32, any Error>? in
                    guard let index = state.exitWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.exitWaiters.remove(at: index).continuation
                }
                guard let expired else { return }
                kill(identifier, SIGKILL)
                expired.resume(throwing: Failure(description: "ChildProcess: the process did not exit within \(timeout); killed it"))
            }
        }
    }

    /// What the process wrote to stderr (complete once it has exited).
    public var stderrText: String {
        String(decoding: shared.errors.withLock { $0 }, as: UTF8.self)
    }
}

extension Duration {
    fileprivate var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
