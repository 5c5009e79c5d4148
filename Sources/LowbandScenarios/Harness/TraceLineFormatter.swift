import Foundation
import LowbandShaper
import Synchronization

/// A trace line as the run hands it over: its values, not yet its text.
enum PendingTraceLine: Sendable {
    case shaper(ShaperEvent)
    case client(ClientTraceLine)

    /// The line's JSON text, as the trace file holds it.
    var text: String {
        switch self {
        case .shaper(let event): JSONLinesTraceWriter.line(for: event)
        case .client(let line): line.text
        }
    }
}

/// Turns a run's trace lines into text on a thread of its own, in the order they were handed
/// over, so that the simulation's thread only copies values (issue 39: formatting was 4–5 % of
/// the virtual-time crowd hour, on the one thread the simulation has).
///
/// Lines arrive in batches; at most ``queuedBatches`` wait at once, and a caller handing over
/// one more waits until the thread has formatted one (the queue is bounded). Its owner, a
/// ``TraceLog``, hands over every batch from under its own lock, so the order is the order of
/// the calls, and closes the formatter when it goes: the thread formats what is queued, then ends.
final class TraceLineFormatter: Sendable {
    /// Lines in a full batch.
    static let batchSize = 2_048
    /// Batches handed over and not yet formatted, at most.
    static let queuedBatches = 4

    private let queue = Mutex<[[PendingTraceLine]]>([])
    private let formatted = Mutex<[String]>([])
    /// Free places in the queue.
    private let free = DispatchSemaphore(value: TraceLineFormatter.queuedBatches)
    /// Batches waiting (and one more signal when closed).
    private let waiting = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in formatUntilClosed() }
        thread.name = "lowband trace lines"
        thread.start()
    }

    /// Queues `batch` after those handed over before; waits while the queue is full.
    func submit(_ batch: [PendingTraceLine]) {
        free.wait()
        queue.withLock { $0.append(batch) }
        waiting.signal()
    }

    /// Every line handed over so far, as text, in order: waits until the thread has formatted them.
    func lines() -> [String] {
        // Every place free again means every batch handed over is formatted.
        for _ in 0 ..< Self.queuedBatches { free.wait() }
        let lines = formatted.withLock { $0 }
        for _ in 0 ..< Self.queuedBatches { free.signal() }
        return lines
    }

    /// Ends the thread once what is queued is formatted. Call once, last.
    func close() {
        waiting.signal()
    }

    private func formatUntilClosed() {
        while true {
            waiting.wait()
            let next = queue.withLock { batches -> [PendingTraceLine]? in
                batches.isEmpty ? nil : batches.removeFirst()
            }
            guard let batch = next else { return }  // Only a close signals with nothing queued.
            var lines: [String] = []
            lines.reserveCapacity(batch.count)
            for entry in batch { lines.append(entry.text) }
            formatted.withLock { $0.append(contentsOf: lines) }
            free.signal()
        }
    }
}
