import Foundation
package import LowbandAppEvents
import LowbandBasics
package import LowbandFindings
package import LowbandProxy
package import LowbandProxyCore
package import LowbandReports
package import LowbandRunReport
package import LowbandShaper
import Synchronization

/// What a session's tasks write while it runs: the network record, the proxies' decisions as
/// JSON lines (at most 200,000), and the faults a driver asked the proxies for.
final class SessionState: Sendable {
    let network = Mutex(NetworkRecord())
    let timeline = Mutex(SessionTimelineRecorder())
    let decisions = Mutex<[String]>([])
    let requests = Mutex<[FaultRequest]>([])
    /// The proxies watched, in order: each is a device's link, with its radio.
    let proxies = Mutex<[ShapingProxy]>([])
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
        state.proxies.withLock { $0.append(proxy) }
        let pause = self.pause
        let task = Task {
            for await event in stream where !pause.isPaused {
                Self.note(event, link: name, offset: offset, in: state)
            }
        }
        watchers.withLock { $0.append(task) }
    }

    /// Records one decision of the link `name` as it is made (`lowband shell --record`, whose
    /// link has no event stream of its own) unless the record is paused; `offset` is the
    /// session's time when the link's clock started.
    package func record(_ event: ProxyEvent, link name: String, offset: Duration) {
        guard !pause.isPaused else { return }
        Self.note(event, link: name, offset: offset, in: state)
    }

    /// Records the decisions of a link that is not a proxy (a seed's `lowband shell`, read from
    /// its trace once it ended) under `name`, as a watched proxy's are; `offset` is the session's
    /// time when the link's clock started.
    func record(_ events: [ProxyEvent], link name: String, offset: Duration) {
        for event in events { Self.note(event, link: name, offset: offset, in: state) }
    }

    private static func note(_ event: ProxyEvent, link name: String, offset: Duration, in state: SessionState) {
        state.network.withLock { $0.record(event, proxy: name, offset: offset) }
        state.timeline.withLock { $0.record(event, proxy: name, offset: offset) }
        state.decisions.withLock { lines in
            if lines.count < 200_000 {
                lines.append("{\"proxy\":\(JSONString.quoted(name)),\"at_ns\":\((event.time + offset).nanosecondsClamped),\"event\":\(event.jsonLine)}")
            }
        }
    }

    /// Stops watching and judges the session as it stands, with what each proxy's radio did
    /// (read from the proxy, stopped or not: its shaper stays readable).
    package func finish(bounds: EventBounds, roundTrip: Duration, floor: NetworkRecord.Floor = NetworkRecord.Floor(up: 0, down: 0)) async -> SessionRecord {
        let end = clock()
        // A stopped proxy ends its events: every decision it took is read before judging. One
        // still running (its owner did not stop it) is left after a short wait.
        for task in watchers.withLock({ $0 }) where await ExecSession.value(of: task, within: .seconds(2)) == nil {
            task.cancel()
        }
        var radios: [RadioStatistics] = []
        for proxy in state.proxies.withLock({ $0 }) {
            if let radio = try? await proxy.radioStatistics { radios.append(radio) }
        }
        var record = state.network.withLock { $0 }
        record.finish(at: end.seconds)
        record.floor = floor
        let events = log.events.filter { !pause.wasPaused(at: $0.arrival) }
        var timeline = state.timeline.withLock { $0 }
        for interval in pause.pausedIntervals {
            timeline.markRecord(paused: true, at: interval.start.seconds)
            if let end = interval.end { timeline.markRecord(paused: false, at: end.seconds) }
        }
        for event in events {
            timeline.markApp(at: event.arrival.seconds, device: event.device, kind: event.kind.rawValue, message: event.message)
        }
        let requests = state.requests.withLock { $0 }.sorted { $0.number < $1.number }
        return SessionRecord(
            events: events, decisions: state.decisions.withLock { $0 }, network: record, faults: record.played, requests: requests,
            recorderProblems: record.disagreements(with: requests),
            book: EventChecker(events: events, network: record, bounds: bounds, end: end.seconds).check(),
            breakdown: EventBreakdown.compute(events: events, network: record, roundTrip: roundTrip),
            bounds: bounds, dropped: log.dropped, elapsed: end, timeline: timeline.finish(at: end.seconds, stretches: record.spans), radios: radios)
    }
}

/// A finished session: what the app said, what the network did, and the verdict; written as a
/// session folder (docs/APP-EVENTS.md).
package struct SessionRecord: Sendable {
    package var events: [AppEvent]
    package var decisions: [String]
    /// What the network did, from the proxies' own events.
    package var network: NetworkRecord
    /// Every fault the proxies played, from their own events.
    package var faults: [PlayedFault]
    /// What a fault driver asked the proxies for (none for a session driven by hand).
    package var requests: [FaultRequest]
    /// Where the record of what was played disagrees with what was asked (empty: it agrees).
    package var recorderProblems: [String]
    package var book: PromiseBook
    package var breakdown: [EventBreakdown]
    package var bounds: EventBounds
    package var dropped: Int
    package var elapsed: Duration
    /// What the network did, connection by connection, with the app's events as marks.
    package var timeline: SessionTimeline
    /// What each device link's radio did (one per proxy whose profile has a radio model).
    package var radios: [RadioStatistics] = []

    /// Devices that posted events.
    package var devices: Int { Set(events.map(\.device)).count }

    /// The case a proof is about: the first kept case of the first promise that broke (the
    /// order the checks are listed in), the one `--prove` reruns for.
    package var firstCase: InvariantViolation? {
        guard let promise = book.checks.first(where: { $0.violations > 0 })?.name else { return nil }
        return book.violations.first { $0.invariant == promise }
    }

    /// The faults played, from the proxies' own events, then the planned ones that were not
    /// played and why: `fault 3: outage 2.717–5.433 s on bob`, `fault 4 (after:acked=reset):
    /// not played: no device said acked a 2nd time before the session ended`.
    package var played: [String] {
        let words = Dictionary(requests.map { ($0.origin, $0.words) }, uniquingKeysWith: { first, _ in first })
        let record = network
        var lines = faults.map { fault in
            var line = words[fault.origin].map { "\(fault.origin) (\($0)): \(fault.what)" } ?? fault.description
            let lengthened = record.lengthening(fault, by: requests, among: faults).map(\.origin)
            if !lengthened.isEmpty { line += " (lengthened by \(lengthened.joined(separator: ", ")))" }
            return line
        }
        for request in requests {
            switch request.outcome {
            case .asked:
                if !faults.contains(where: { $0.origin == request.origin }) {
                    let why = switch request.kind {
                    case "reset": "no connection was open"
                    case "outage", "handover": "it fell inside an outage already in force on that link, which it lengthened"
                    default: "the proxies' events show nothing of it (the recorder check says more)"
                    }
                    lines.append("\(request.origin) (\(request.words)): \(request.kind) at \(PlayedFault.format(request.at)) s on \(request.link): \(why)")
                }
            case .refused(let why):
                lines.append("\(request.origin) (\(request.words)): refused by \(request.link): \(why)")
            case .notPlayed(let why):
                lines.append("\(request.origin) (\(request.words)): not played: \(why)")
            }
        }
        return lines
    }

    /// The recorder's check in one line: whether what it says was played agrees with what the
    /// driver asked, fault by fault and link by link; nil when nothing was asked.
    package var recorderCheck: String? {
        guard !requests.isEmpty else { return nil }
        if recorderProblems.isEmpty {
            let asked = requests.filter { $0.outcome == .asked }.count
            return "recorder check: the proxies' events agree with the \(asked) fault(s) asked, link by link"
        }
        return "recorder check FAILED: " + recorderProblems.joined(separator: "; ")
    }

    /// The verdict in words: `header` lines, then the events, the promises and the broken cases.
    package func verdict(header: [String], problems: [String]) -> String {
        var lines = header
        lines.append("events: \(events.count) from \(devices) device(s)\(dropped > 0 ? ", \(dropped) dropped over the cap" : "")")
        lines += problems.map { "bad event: \($0)" }
        if let radio = radioLine { lines.append(radio) }
        if let recorderCheck { lines.append(recorderCheck) }
        lines.append("promises: \(book.checks.tally) (bounds: \(bounds))")
        for check in book.checks { lines.append("  \(check.name): \(check.verdict) — \(check.promise)") }
        for violation in book.violations { lines.append("  \(violation.summary)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes the session folder: events.jsonl, network.jsonl, breakdown.csv, verdict.txt,
    /// results.csv (`invariant.<name>` and `.cases` per promise, leg times), record.json
    /// (everything the report shows, with `command`: what gives the same network again) and
    /// report.html, rendered from it.
    package func write(
        to folder: String, header: [String], problems: [String], suite: String, benchmark: String, command: String, recordedWith: String? = nil,
        shell: ShellRunRecord? = nil
    ) throws {
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
        var document = SessionDocument(self, header: header, verdict: verdict, command: command, recordedWith: recordedWith, environment: environment)
        document.shell = shell
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
        for metric in radioMetrics {
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric.name, unit: metric.unit, samples: metric.values, environment: environment))
        }
        return rows
    }

    /// Messages the app showed (the breakdown's legs other than acknowledgements).
    private var shown: Int { breakdown.filter { $0.leg != "acked" }.count }

    /// The radio's rows as a run has them (``RunDriver/radioMetrics(_:messages:deliveries:seconds:)``),
    /// one sample per device link: time on, in each state, promotions, energy in all and per
    /// hour; `energy.per_message` is the links' energy together per message shown.
    package var radioMetrics: [RunMetric] {
        // Per hour of each link's own life: a proxy made during the session ran for less of it.
        let each = radios.map { radio in
            RunDriver.radioMetrics(radio, messages: 0, deliveries: 0, seconds: radio.secondsInState.reduce(radio.promotingSeconds) { $0 + $1.seconds })
        }
        var merged: [RunMetric] = []
        for metric in each.joined() {
            if let index = merged.firstIndex(where: { $0.name == metric.name }) {
                merged[index].values += metric.values
            } else {
                merged.append(metric)
            }
        }
        let joules = radios.compactMap(\.joules)
        if joules.count == radios.count, !joules.isEmpty, shown > 0, let index = merged.firstIndex(where: { $0.name == "energy.total" }) {
            merged.insert(RunMetric(name: "energy.per_message", unit: "J", values: [joules.reduce(0, +) / Double(shown)]), at: index + 1)
        }
        return merged
    }

    /// One line of what the radios did, for the verdict; nil without a radio model.
    private var radioLine: String? {
        guard !radios.isEmpty else { return nil }
        let on = radios.map(\.onSeconds).reduce(0, +)
        let promotions = radios.map(\.promotions).reduce(0, +)
        // Each device link has its own radio: times and energy add up over them, per hour is per radio.
        let links = radios.count
        var line = links == 1
            ? String(format: "radio: on %.1f s of %.1f s", on, elapsed.seconds)
            : String(format: "radios of %d device links: on %.1f s in all, each of %.1f s", links, on, elapsed.seconds)
        line += ", \(promotions) promotion(s)"
        let joules = radios.compactMap(\.joules)
        if joules.count == radios.count {
            let total = joules.reduce(0, +)
            line += String(format: ", %.2f J", total)
            if shown > 0 { line += String(format: " (%.3f J per message shown)", total / Double(shown)) }
            if elapsed > .zero { line += String(format: ", %.0f J per hour%@", total / Double(links) / elapsed.seconds * 3600, links > 1 ? " per radio" : "") }
        }
        return line + " (docs/SHAPER.md, \"Radio states and energy\")"
    }
}
