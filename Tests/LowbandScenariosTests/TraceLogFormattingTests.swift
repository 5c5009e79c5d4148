@testable import LowbandScenarios
import LowbandShaper
import Testing

/// The trace's lines are formatted on the formatter's thread, in batches, yet come out as the
/// calls made them: the same text, the same order, the same limit, however many batches wait.
@Suite struct TraceLogFormattingTests {
    /// The i-th event of a mixed trace: shaper lines of several kinds and client lines.
    private func event(_ index: Int) -> PendingTraceLine {
        let time = ShaperInstant(nanoseconds: Int64(index) * 1_000_003)
        switch index % 4 {
        case 0: return .shaper(ShaperEvent(time: time, kind: .deliver, connection: ConnectionID(index: index % 7), direction: .downstream, bytes: 100 + index, delay: .milliseconds(index % 50)))
        case 1: return .client(ClientTraceLine(time: .nanoseconds(Int64(index) * 1_000_003), event: "arrived", client: index % 9, chat: 3, message: Int64(index), value: .milliseconds(12)))
        case 2: return .shaper(ShaperEvent(time: time, kind: .enqueue, connection: ConnectionID(index: 1), direction: .upstream, bytes: index, queued: index * 2))
        default: return .shaper(ShaperEvent(time: time, kind: .reset, connection: ConnectionID(index: 2), detail: "line \(index) with \"quotes\"\n"))
        }
    }

    private func feed(_ trace: TraceLog, _ range: Range<Int>) {
        for index in range {
            switch event(index) {
            case .shaper(let event): trace.record(event)
            case .client(let line): trace.client(line)
            }
        }
    }

    /// What formatting each line where it was recorded gives (the trace before the formatter).
    private func expected(_ range: Range<Int>, offset: Int64 = 0) -> [String] {
        range.map { index in
            switch event(index) {
            case .shaper(var event):
                event.time = ShaperInstant(nanoseconds: event.time.nanoseconds + offset)
                return JSONLinesTraceWriter.line(for: event)
            case .client(let line):
                return line.text
            }
        }
    }

    @Test func manyBatchesComeOutInOrderAsInlineFormattingWouldWriteThem() {
        // More batches than the queue holds, and a partial one at the end.
        let count = TraceLineFormatter.batchSize * (TraceLineFormatter.queuedBatches * 3 + 1) + 17
        let trace = TraceLog(offset: .milliseconds(250))
        feed(trace, 0 ..< count)
        let lines = trace.snapshot(until: .seconds(10)).lines
        #expect(lines.count == count)
        #expect(lines == expected(0 ..< count, offset: 250_000_000))
    }

    @Test func aShortTraceAndLaterLinesComeOutTheSame() {
        let trace = TraceLog()
        feed(trace, 0 ..< 10)
        #expect(trace.snapshot(until: .seconds(1)).lines == expected(0 ..< 10))
        #expect(trace.snapshot(until: .seconds(1)).lines == expected(0 ..< 10))
        // Past a batch after a snapshot: the formatter starts and takes the pending lines first.
        let more = TraceLineFormatter.batchSize + 5
        feed(trace, 10 ..< more)
        #expect(trace.snapshot(until: .seconds(1)).lines == expected(0 ..< more))
        feed(trace, more ..< more + 3)
        #expect(trace.snapshot(until: .seconds(1)).lines == expected(0 ..< more + 3))
    }

    @Test func theLineLimitKeepsTheFirstLinesAndSaysSo() {
        let limit = TraceLineFormatter.batchSize + 3
        let trace = TraceLog(lineLimit: limit)
        feed(trace, 0 ..< limit + 40)
        let lines = trace.snapshot(until: .seconds(2)).lines
        #expect(Array(lines.dropLast()) == expected(0 ..< limit))
        #expect(lines.last == ClientTraceLine(time: .seconds(2), event: "trace-truncated", detail: "more than \(limit) lines; the rest were not kept").text)
    }

    @Test func theFormatterKeepsTheOrderOfItsBatches() {
        let formatter = TraceLineFormatter()
        defer { formatter.close() }
        let batches = (0 ..< TraceLineFormatter.queuedBatches * 2 + 1).map { batch in (0 ..< 50).map { event(batch * 50 + $0) } }
        for batch in batches { formatter.submit(batch) }
        #expect(formatter.lines() == expected(0 ..< batches.count * 50))
        #expect(formatter.lines() == expected(0 ..< batches.count * 50))
    }
}
