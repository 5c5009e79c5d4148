import Foundation
package import LowbandAppEvents
import LowbandBasics
package import LowbandProxy
import LowbandProxyCore
package import LowbandReports
package import LowbandRunReport
import Synchronization

/// What a session's tasks write while it runs: the network record, the proxies' decisions as
/// JSON lines (at most 200,000), and the faults played.
final class SessionState: Sendable {
    let network = Mutex(NetworkRecord())
    let timeline = Mutex(SessionTimelineRecorder())
    let decisions = Mutex<[String]>([])
    let played = Mutex<[String]>([])
}

/// Records a session of an outside app behind live proxies: its events (stamped on one clock),
/// every decision of the proxies it watches, and the faults played; ``finish(bounds:roundTrip:)``
/// judges the promises and splits each message's time. Used by `lowband explore --exec` (one
/// per seed) and `lowband proxy --record`.
package final class SessionRecorder: Sendable {
    /// Where the app's events go.
    package let log: AppEventLog
    let state = SessionState()
    /// The session's clock: time since the recorder was made.
    package let clock: @Sendable () -> Duration
    /// Pauses and resumes the record (`GET|POST /record`, the live page): while paused, the
    /// proxies' decisions and the app's events are not kept.
    package let pause: RecordSwitch
    private let watchers = Mutex<[Task<Void, Never>]>([])

    /// A session starting now.
    package init() {
        let origin = ContinuousClock.now
        let clock: @Sendable () -> Duration = { ContinuousClock.now - origin }
        self.clock = clock
        log = AppEventLog(clock: clock)
        pause = RecordSwitch(clock: clock)
    }

    /// Records `proxy`'s decisions under `name`; `offset` is the session's time when the
    /// proxy's clock started (read just before the proxy was made).
    package func watch(_ proxy: ShapingProxy, name: String, offset: Duration) {
        let stream = proxy.events()
        let state = self.state
        let pause = self.pause
        let task = Task {
            for await event in stream where !pause.isPaused {
                state.network.withLock { $0.record(event, proxy: name, offset: offset) }
                state.timeline.withLock { $0.record(event, proxy: name, offset: offset) }
                state.decisions.withLock { lines in
                    if lines.count < 200_000 {
                        lines.append("{\"proxy\":\(JSONString.quoted(name)),\"at_ns\":\((event.time + offset).nanosecondsClamped),\"event\":\(event.jsonLine)}")
                    }
                }
            }
        }
        watchers.withLock { $0.append(task) }
    }

    /// Stops watching and judges the session as it stands.
    package func finish(bounds: EventBounds, roundTrip: Duration) -> SessionRecord {
        let end = clock()
        for task in watchers.withLock({ $0 }) { task.cancel() }
        var record = state.network.withLock { $0 }
        record.finish(at: end.seconds)
        let events = log.events.filter { !pause.wasPaused(at: $0.arrival) }
        var timeline = state.timeline.withLock { $0 }
        for interval in pause.pausedIntervals {
            timeline.markRecord(paused: true, at: interval.start.seconds)
            if let end = interval.end { timeline.markRecord(paused: false, at: end.seconds) }
        }
        for event in events {
            timeline.markApp(at: event.arrival.seconds, device: event.device, kind: event.kind.rawValue, message: event.message)
        }
        return SessionRecord(
            events: events, decisions: state.decisions.withLock { $0 }, played: state.played.withLock { $0 },
            book: EventChecker(events: events, network: record, bounds: bounds, end: end.seconds).check(),
            breakdown: EventBreakdown.compute(events: events, network: record, roundTrip: roundTrip),
            bounds: bounds, dropped: log.dropped, elapsed: end, timeline: timeline.finish(at: end.seconds, stretches: record.spans))
    }
}

/// A finished session: what the app said, what the network did, and the verdict; written as a
/// session folder (docs/APP-EVENTS.md).
package struct SessionRecord: Sendable {
    package var events: [AppEvent]
    package var decisions: [String]
    package var played: [String]
    package var book: PromiseBook
    package var breakdown: [EventBreakdown]
    package var bounds: EventBounds
    package var dropped: Int
    package var elapsed: Duration
    /// What the network did, connection by connection, with the app's events as marks.
    package var timeline: SessionTimeline

    /// Devices that posted events.
    package var devices: Int { Set(events.map(\.device)).count }

    /// The verdict in words: `header` lines, then the events, the promises and the broken cases.
    package func verdict(header: [String], problems: [String]) -> String {
        var lines = header
        lines.append("events: \(events.count) from \(devices) device(s)\(dropped > 0 ? ", \(dropped) dropped over the cap" : "")")
        lines += problems.map { "bad event: \($0)" }
        lines.append("promises: \(book.checks.tally) (bounds: \(bounds))")
        for check in book.checks { lines.append("  \(check.name): \(check.verdict) — \(check.promise)") }
        for violation in book.violations { lines.append("  \(violation.summary)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the session folder: events.jsonl, network.jsonl, breakdown.csv, verdict.txt,
    /// results.csv (`invariant.<name>` and `.cases` per promise, leg times), record.json
    /// (everything the report shows, with `command`: what gives the same network again) and
    /// report.html, rendered from it.
    package func write(to folder: String, header: [String], problems: [String], suite: String, benchmark: String, command: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func put(_ name: String, _ text: String) throws {
            try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
        }
        try put("events.jsonl", events.map { AppEventReader.line($0) + "\n" }.joined())
        try put("network.jsonl", decisions.map { $0 + "\n" }.joined())
        try put("breakdown.csv", ([EventBreakdown.csvHeader] + breakdown.map(\.csvLine)).map { $0 + "\n" }.joined())
        let verdict = verdict(header: header, problems: problems)
        try put("verdict.txt", verdict)
        let environment = RunEnvironment.current()
        try BenchmarkCSV.write(rows: rows(suite: suite, benchmark: benchmark, environment: environment), to: "\(folder)/results.csv")
        let document = SessionDocument(self, header: header, verdict: verdict, command: command, environment: environment)
        try document.encoded().write(to: URL(fileURLWithPath: "\(folder)/record.json"))
        try put("report.html", SessionReportHTML.render(document))
    }

    /// The rows of results.csv.
    package func rows(suite: String, benchmark: String, environment: RunEnvironment) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for check in book.checks {
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "invariant.\(check.name)", unit: "count", samples: [Double(check.violations)], environment: environment))
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "invariant.\(check.name).cases", unit: "cases", samples: [Double(check.checked)], environment: environment))
        }
        let acked = breakdown.filter { $0.leg == "acked" }.map(\.totalMilliseconds)
        let delivered = breakdown.filter { $0.leg != "acked" }.map(\.totalMilliseconds)
        if !acked.isEmpty { rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "sent_to_acked", unit: "ms", samples: acked, environment: environment)) }
        if !delivered.isEmpty { rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "sent_to_shown", unit: "ms", samples: delivered, environment: environment)) }
        rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "events", unit: "count", samples: [Double(events.count)], environment: environment))
        return rows
    }
}
