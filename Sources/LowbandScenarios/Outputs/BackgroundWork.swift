import Foundation
import Synchronization

/// Work started on a thread of its own, whose result is waited for later: lets `lowband run`
/// encode `record.json` and render its report while it writes its other outputs, and split the
/// time of delivered messages while the promises are checked.
final class BackgroundWork<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` on a new thread (not a shared pool, which the caller may be blocking).
    init(_ work: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let result = Result { try work() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
    }

    /// Waits for work that throws nothing to end and returns its value.
    func finished() -> Value {
        do {
            return try value()
        } catch {
            preconditionFailure("work that throws nothing threw \(error)")
        }
    }

    /// Waits for the work to end and returns its value.
    ///
    /// - Throws: what the work threw.
    func value() throws -> Value {
        done.wait()
        done.signal()  // Later calls return at once.
        return try outcome.withLock { result in
            guard let result else { preconditionFailure("the work signalled before storing its result") }
            return result
        }.get()
    }
}
