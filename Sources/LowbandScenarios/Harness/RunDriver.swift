import Foundation
import LowbandRunReport
import LowbandShaper

/// Starts a scenario in its context and turns what it measured into a ``ScenarioOutput``.
final class RunDriver {
    let context: RunContext
    let scenario: any Scenario
    private(set) var isFinished = false
    /// The live figure is recomputed at most every 200 ms of wall time (it summarises every
    /// sample, which is not free in an hour-long run). It is only displayed, never recorded.
    private var figure = ""
    private var figureAt: ContinuousClock.Instant?
    /// When a virtual run next reports its progress, on the run's clock.
    var nextReport: Duration = .seconds(1)

    init(context: RunContext, scenario: any Scenario) {
        self.context = context
        self.scenario = scenario
    }

    func start() throws(ScenarioError) {
        context.note(.note, "\(context.options.scenario) started on \(context.profile.name), seed \(context.options.seed), \(context.clientCount) client(s)")
        try scenario.start()
        let probe = context.probe
        let context = self.context
        context.every(.seconds(1)) { [weak self] in
            guard let self, !self.isFinished else { return false }
            probe.sample(at: context.now)
            return true
        }
    }

    var progress: RunProgress {
        let now = ContinuousClock.now
        if isFinished || figureAt.map({ now - $0 >= .milliseconds(200) }) ?? true {
            figure = scenario.liveFigure + (context.trafficIsOver && !isFinished ? " · draining" : "")
            figureAt = now
        }
        return RunProgress(
            scenario: context.options.scenario, profile: context.options.profileName,
            elapsed: min(context.now, context.options.duration), total: context.options.duration, figure: figure)
    }

    /// The record of the run so far; stops every engine. Call once. `drain` is the phase that
    /// followed the traffic, if the run drained: the checks judge at its ``DrainPhase/judgedEnd(actualEnd:)``.
    func finish(partial: Bool, drain: DrainPhase? = nil) -> ScenarioOutput {
        let options = context.options
        let end = options.drain ? context.now : min(context.now, options.duration)
        let drained = end > options.duration ? drain : nil
        let judgedEnd = partial ? end : drained?.judgedEnd(actualEnd: end) ?? end
        let result = scenario.finish()
        let (lines, traffic, timeline) = context.trace.snapshot(until: end)
        // The promises are checked, and the time of delivered messages split, before the
        // engines stop: their caches and outboxes are read as they are.
        context.probe.sample(at: context.now)
        let bounds = InvariantBounds(profile: context.profile)
        var checker = InvariantChecker(context: context, end: judgedEnd, timeline: timeline, lines: lines, bounds: bounds)
        let newMessages = checker.newMessages()
        // The time of delivered messages is split on another core while the promises are
        // checked: both only read the paused run (FinishedRunReader says why that is safe).
        let breakdown = FinishedRunReader(LatencyBreakdown(context: context, storeTime: checker.serverStoreTime))
        let splitting = BackgroundWork { breakdown.value.compute(messages: newMessages) }
        checker.run(resources: context.probe.readings)
        let breakdowns = splitting.finished()
        var metrics = result.metrics
        if timeline.contains(where: { $0.kind == .disconnect }) {
            metrics += ReconnectCauses.metrics(timeline: timeline, ledger: context.ledger, trace: context.trace, faults: context.ledger.networkDown, heartbeat: options.heartbeat)
        }
        metrics += Self.radioMetrics(context.radio(), messages: newMessages.count, deliveries: breakdowns.count, seconds: end.seconds)
        if let name = result.deliveryMetric, let index = metrics.firstIndex(where: { $0.name == name }) {
            Self.addResyncDeliveries(breakdowns, to: &metrics[index])
        }
        context.stopAll()
        isFinished = true
        var record = RunRecord(
            scenario: options.scenario.rawValue, profile: options.profileName, seed: options.seed, clients: options.clients,
            virtualTime: options.virtualTime, command: options.command, durationSeconds: min(end, options.duration).seconds, partial: partial,
            floorMilliseconds: result.floorMilliseconds, metrics: metrics, traffic: traffic, timeline: timeline,
            invariants: checker.checks, violations: checker.violations,
            stages: BreakdownSummary.metrics(breakdowns), slowest: BreakdownSummary.slowest(breakdowns, count: 20))
        record.medianMilliseconds = result.medianMilliseconds
        record.samplesBelowFloor = result.samplesBelowFloor
        record.settleSeconds = bounds.settle.seconds
        record.livenessSeconds = bounds.liveness.seconds
        record.drain = drained.map { $0.outcome(actualEnd: end) }
        var output = ScenarioOutput(record: record, trace: lines, breakdowns: breakdowns)
        output.faults = faultLines()
        return output
    }

    /// faults.txt: every scheduled fault by number, as played, not played (and why), or left out.
    private func faultLines() -> [String] {
        let options = context.options
        guard !options.faults.isNone else { return [] }
        let played = Dictionary(context.ledger.faults.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        return options.faults.fullSchedule(seed: options.seed, duration: options.duration, clients: options.clients).map { planned in
            if let fault = played[planned.number] {
                guard let why = fault.skipped else { return fault.line }
                return "fault \(planned.number): not played (\(why)): \(planned.words), at \(RunFault.words(planned.at)) s"
            }
            let why = options.faults.played.plays(planned.number) ? "the run ended first" : "left out by \(options.faults.played.words.joined(separator: " "))"
            return "fault \(planned.number): not played (\(why)): \(planned.words), at \(RunFault.words(planned.at)) s"
        }
    }

    /// The radio's rows: time on and in each state, promotions, and (when the profile gives
    /// power figures) energy in all, per message stored, per delivery and per hour.
    static func radioMetrics(_ radio: RadioStatistics?, messages: Int, deliveries: Int, seconds: Double) -> [RunMetric] {
        guard let radio else { return [] }
        var rows = [
            RunMetric(name: "radio.on_time", unit: "s", values: [radio.onSeconds]),
            RunMetric(name: "radio.promotions", unit: "count", values: [Double(radio.promotions)]),
            RunMetric(name: "radio.promoting", unit: "s", values: [radio.promotingSeconds]),
        ]
        for state in radio.secondsInState {
            rows.append(RunMetric(name: "radio.state.\(state.name)", unit: "s", values: [state.seconds]))
        }
        guard let joules = radio.joules else { return rows }
        rows.append(RunMetric(name: "energy.total", unit: "J", values: [joules]))
        // Per message stored (each sent once), and per delivery (each to every member): a crowd
        // of many members has many more deliveries than messages.
        if messages > 0 { rows.append(RunMetric(name: "energy.per_message", unit: "J", values: [joules / Double(messages)])) }
        if deliveries > 0 { rows.append(RunMetric(name: "energy.per_delivery", unit: "J", values: [joules / Double(deliveries)])) }
        if seconds > 0 { rows.append(RunMetric(name: "energy.per_hour", unit: "J", values: [joules / seconds * 3600])) }
        return rows
    }

    /// Adds to `metric` every delivery a login carried: from the sender storing the message to
    /// the receiver's engine holding it (the breakdown's total less the screen's queue).
    static func addResyncDeliveries(_ breakdowns: [MessageBreakdown], to metric: inout RunMetric) {
        let screen = LatencyStage.allCases.firstIndex(of: .screenQueue)!
        for row in breakdowns where row.carrier == "login" {
            metric.values.append(row.totalMilliseconds - (screen < row.stages.count ? row.stages[screen] : 0))
            metric.startSeconds?.append(row.startSeconds)
        }
    }
}

/// The directory a run's client databases live in, removed when the run ends.
struct WorkDirectory {
    let path: String

    init(options: ScenarioOptions) throws(ScenarioError) {
        let base: String
        if let chosen = options.workDirectory {
            base = chosen
        } else if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            base = "/dev/shm"
        } else {
            base = FileManager.default.temporaryDirectory.path
        }
        path = "\(base)/lowband-run-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw ScenarioError(.setupFailed, "cannot create a directory for the client databases at \(path): \(error)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
