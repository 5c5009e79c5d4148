import Foundation
import LowbandAppEvents
import LowbandBasics
import LowbandDeterminism
import LowbandProcess
import LowbandProxy
import LowbandProxyCore
import LowbandRunReport
import LowbandShaper
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What one run of the user's command under one seed came to.
struct ExecSessionResult: Sendable {
    /// The command's exit status (128 + signal when a signal ended it).
    var exitStatus: Int32
    /// The command ran past `--timeout` and its process group was killed.
    var timedOut: Bool
    /// The promises its events allowed, checked.
    var book: PromiseBook
    /// Devices that posted events.
    var devices: Int
    var events: Int
    var droppedEvents: Int
    /// Bad event lines on stdout, in words (the POSTs got their errors as answers).
    var eventProblems: [String]
    /// The planned faults, in words: the same for every run of a seed.
    var plan: [String]
    var elapsed: Duration

    /// What broke: promises by name, then `exit` or `timeout`.
    var broken: [(name: String, count: Int)] {
        var list = book.checks.filter { $0.violations > 0 }.map { ($0.name, $0.violations) }
        if timedOut {
            list.append(("timeout", 1))
        } else if exitStatus != 0 {
            list.append(("exit", 1))
        }
        return list
    }

    /// The first thing that broke, in one line.
    var firstFailure: String {
        if let violation = book.violations.first { return violation.summary }
        if timedOut { return "timeout: the command ran past --timeout; its process group was killed" }
        if exitStatus != 0 { return "exit: the command exited with status \(exitStatus)\(exitStatus == 127 ? " (command not found?)" : "")" }
        return ""
    }

    /// What a shrink step compares: the first broken promise, or how the command failed.
    var signature: String? { broken.first?.name }
}

/// What a session's tasks write while it runs: the network record, the proxies' decisions as
/// JSON lines (at most 200,000), and the faults played.
final class SessionState: Sendable {
    let network = Mutex(NetworkRecord())
    let decisions = Mutex<[String]>([])
    let played = Mutex<[String]>([])
}

/// One seed's run of the user's command: fresh proxies in front of every upstream with the
/// seed's link decisions and faults, an events endpoint, the command in a process group of its
/// own, and at the end the promises checked and the session folder written.
enum ExecSession {
    static func run(_ options: ExecOptions, seed: UInt64, faults plan: ExecFaultPlan, window: Duration, folder: String) async throws -> ExecSessionResult {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let origin = ContinuousClock.now
        let clock: @Sendable () -> Duration = { ContinuousClock.now - origin }
        let log = AppEventLog(clock: clock)
        let oneWay = [options.profile.uplink, options.profile.downlink].map { $0.delay + $0.jitter.amount }.max() ?? .zero
        let schedule = plan.schedule(seed: seed, window: window, upstreams: options.upstreams.count, oneWay: oneWay)
        let shaped = ExecFaultPlan.profile(options.profile, faults: schedule)

        // The proxies, one per upstream, each its own device link from the seed.
        let registry = ProxyRegistry(configuration: .init(
            defaultProfile: options.profileName, defaultSeed: seed,
            makeLink: { _, _, seed in .network(shaped, seed: seed) }, availableProfiles: { [options.profileName] }))
        let state = SessionState()
        var proxies: [ShapingProxy] = []
        var watchers: [Task<Void, Never>] = []
        var environment = ProcessInfo.processInfo.environment
        for (index, upstream) in options.upstreams.enumerated() {
            let offset = clock()
            var derived = SeededGenerator(seed: seed).derived(0x5550, UInt64(index))
            let linkSeed = index == 0 ? seed : derived.next()
            try await registry.create(
                ProxySpecification(name: upstream.name, listen: "127.0.0.1:0", upstream: "\(upstream.host):\(upstream.port)"), seed: linkSeed)
            let proxy = try await registry.proxy(named: upstream.name)
            proxies.append(proxy)
            let stream = proxy.events()
            let name = upstream.name
            watchers.append(Task {
                for await event in stream {
                    state.network.withLock { $0.record(event, proxy: name, offset: offset) }
                    state.decisions.withLock { lines in
                        if lines.count < 200_000 { lines.append("{\"proxy\":\(JSONString.quoted(name)),\"at_ns\":\((event.time + offset).nanosecondsClamped),\"event\":\(event.jsonLine)}") }
                    }
                }
            })
            guard let address = await proxy.listeningAddress, let port = address.port else {
                throw ScenarioError(.invalidOptions, "the proxy for \(upstream.spelled) did not start listening")
            }
            let spelled = "127.0.0.1:\(port)"
            if index == 0 { environment["LOWBAND_PROXY"] = spelled }
            environment[ExecOptions.variable(of: upstream)] = spelled
        }
        let api = ControlServer(registry: registry, configuration: .init(listen: .init(host: "127.0.0.1", port: 0), events: log))
        let apiAddress = try await api.start()
        let serving = Task { try? await api.run() }
        environment["LOWBAND_EVENTS"] = "http://127.0.0.1:\(apiAddress.port ?? 0)/events"
        environment["LOWBAND_SEED"] = String(seed)
        environment["LOWBAND_OUT"] = folder
        var follower: AppEventFile?
        if let path = options.eventsFile(seed: seed) {
            // Each run starts from an empty file: what a previous run wrote is not this one's.
            try? FileManager.default.removeItem(atPath: path)
            environment["LOWBAND_EVENTS_FILE"] = path
            follower = AppEventFile(path: path, log: log)
        }
        let following = Task { [follower] in await follower?.follow() }

        let child = try await ChildProcess("/bin/sh", ["-c", options.command], environment: environment, ownGroup: true)
        let driver = Task {
            await FaultDriver(proxies: proxies, names: options.upstreams.map(\.name), log: log, clock: clock, state: state)
                .play(schedule)
        }
        let output = Task { () -> (stdout: [String], problems: [String]) in
            var kept: [String] = []
            var problems: [String] = []
            var number = 0
            while let line = try? await child.nextLine(timeout: .seconds(86_400)) {
                number += 1
                if line.hasPrefix(AppEventReader.stdoutPrefix) {
                    do {
                        if let event = try AppEventReader.event(line.dropFirst(AppEventReader.stdoutPrefix.count), number: number, arrival: clock()) {
                            try log.append([event])
                        }
                    } catch {
                        if problems.count < 100 { problems.append("stdout \(error)") }
                    }
                } else if kept.count < 20_000 {
                    kept.append(line)
                }
            }
            return (kept, problems)
        }
        let exited = await child.waitForExit(within: options.timeout)
        // Whatever the command left behind goes with it.
        child.sendToGroup(SIGKILL)
        let status = (try? await child.exitStatus(timeout: .seconds(10))) ?? -1
        var (stdout, problems) = await output.value
        following.cancel()
        await following.value
        problems += follower?.problems ?? []
        let end = clock()
        driver.cancel()
        serving.cancel()
        _ = await serving.value
        await registry.stopAll()
        for watcher in watchers { watcher.cancel() }
        _ = await driver.value

        var record = state.network.withLock { $0 }
        record.finish(at: end.seconds)
        let events = log.events
        let book = EventChecker(events: events, network: record, bounds: options.bounds, end: end.seconds).check()
        let result = ExecSessionResult(
            exitStatus: status, timedOut: !exited, book: book, devices: Set(events.map(\.device)).count, events: events.count,
            droppedEvents: log.dropped, eventProblems: problems, plan: schedule.map(\.description), elapsed: end)
        let roundTrip = options.profile.uplink.delay + options.profile.downlink.delay
        let breakdown = EventBreakdown.compute(events: events, network: record, roundTrip: roundTrip)
        try write(result, events: events, breakdown: breakdown, decisions: state.decisions.withLock { $0 }, played: state.played.withLock { $0 }, stdout: stdout,
                  stderr: child.stderrText, options: options, seed: seed, plan: plan, window: window, folder: folder)
        return result
    }

    /// The session folder: what the app said, what the network did, the faults, the verdict, and
    /// the command's output.
    private static func write(
        _ result: ExecSessionResult, events: [AppEvent], breakdown: [EventBreakdown], decisions: [String], played: [String], stdout: [String], stderr: String,
        options: ExecOptions, seed: UInt64, plan: ExecFaultPlan, window: Duration, folder: String
    ) throws {
        func put(_ name: String, _ text: String) throws {
            try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
        }
        try put("events.jsonl", events.map { AppEventReader.line($0) + "\n" }.joined())
        try put("breakdown.csv", ([EventBreakdown.csvHeader] + breakdown.map(\.csvLine)).map { $0 + "\n" }.joined())
        try put("network.jsonl", decisions.map { $0 + "\n" }.joined())
        try put("faults.txt", "planned:\n" + result.plan.map { "  \($0)\n" }.joined() + "played:\n" + played.map { "  \($0)\n" }.joined())
        try put("stdout.log", stdout.map { $0 + "\n" }.joined())
        try put("stderr.log", stderr)
        try put("verdict.txt", verdict(result, options: options, seed: seed, plan: plan, window: window))
    }

    /// The session's verdict in words, as the terminal would print it.
    static func verdict(_ result: ExecSessionResult, options: ExecOptions, seed: UInt64, plan: ExecFaultPlan, window: Duration) -> String {
        var lines = ["seed \(seed) on \(options.profileName), faults \(plan), bounds: \(options.bounds)"]
        lines.append("command: exit status \(result.exitStatus)\(result.timedOut ? " (killed after --timeout \(DurationText.format(options.timeout)))" : ""), \(String(format: "%.1f", result.elapsed.seconds)) s")
        lines.append("events: \(result.events) from \(result.devices) device(s)\(result.droppedEvents > 0 ? ", \(result.droppedEvents) dropped over the cap" : "")")
        lines += result.eventProblems.map { "bad event: \($0)" }
        lines.append("promises: \(result.book.checks.tally)")
        for check in result.book.checks { lines.append("  \(check.name): \(check.verdict) — \(check.promise)") }
        for violation in result.book.violations { lines.append("  \(violation.summary)") }
        lines.append("run it again: \(options.command(seed: seed, faults: plan, window: window))")
        return lines.joined(separator: "\n") + "\n"
    }
}
