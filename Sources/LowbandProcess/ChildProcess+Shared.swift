import Dispatch
import Synchronization

extension ChildProcess {
    /// What the reader thread, the supervising task and the waiters share.
    final class Shared: Sendable {
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
    struct Waiter: Sendable {
        var id: UInt64
        var check: @Sendable (inout State) -> (() -> Void)?
        var expire: @Sendable () -> Void
    }

    struct State: Sendable {
        /// stdout's bytes after its last newline.
        var partialLine: [UInt8] = []
        /// Lines of stdout not yet taken; those before `firstLine` have been.
        var lines: [String] = []
        var firstLine = 0
        /// stderr's newest bytes: up to twice ``ChildProcess/stderrLimit``, cut back to the
        /// limit when over it, so a flood costs each byte O(1) moves, not the limit's worth.
        var errors: [UInt8] = []
        /// stdout has ended (or the process never started).
        var stdoutEnded = false
        /// Both outputs have ended (at once when they go to a file).
        var outputEnded = false
        /// The exit status (code, or 128 + signal), as soon as it is known.
        var exit: Int32?
        /// A reader thread owns the pipes' read ends.
        var readerStarted = false
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0

        /// Set once the process has exited and its output has ended.
        var status: Int32? { outputEnded ? exit : nil }

        /// Adds stdout's bytes, splitting off each complete line.
        mutating func receiveStdout(_ bytes: UnsafeRawBufferPointer) {
            var start = bytes.startIndex
            while let newline = bytes[start...].firstIndex(of: 0x0A) {
                partialLine.append(contentsOf: bytes[start ..< newline])
                lines.append(String(decoding: partialLine, as: UTF8.self))
                partialLine.removeAll(keepingCapacity: true)
                start = newline + 1
            }
            partialLine.append(contentsOf: bytes[start...])
        }

        /// Ends stdout: a last line without a newline still counts.
        mutating func endStdout() {
            if !partialLine.isEmpty {
                lines.append(String(decoding: partialLine, as: UTF8.self))
                partialLine = []
            }
            stdoutEnded = true
        }

        /// Adds stderr's bytes, keeping the newest.
        mutating func receiveStderr(_ bytes: UnsafeRawBufferPointer) {
            errors.append(contentsOf: bytes)
            if errors.count > 2 * ChildProcess.stderrLimit { errors.removeFirst(errors.count - ChildProcess.stderrLimit) }
        }

        /// The oldest line not yet taken.
        mutating func takeLine() -> String? {
            guard firstLine < lines.count else { return nil }
            let line = lines[firstLine]
            firstLine += 1
            if firstLine == lines.count || firstLine >= 1024 {
                lines.removeFirst(firstLine)
                firstLine = 0
            }
            return line
        }

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
