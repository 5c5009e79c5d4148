import Foundation
import LowbandAppEvents
import LowbandBasics
import LowbandDeterminism
import LowbandFindings
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
    /// The planned faults, in words: the same for every run of a seed.
    var plan: [String]
    /// How long the session lasted.
    var elapsed: Duration
    /// The planned fault the first broken case's cause names (`fault 4`), if one.
    var causeFault: String?
    /// That case itself (`m-3@bob`), where the checker named it.
    var causeSubject: String?
    /// Every broken case kept, as `promise m-3@bob` (those the checker could name).
    var brokenSubjects: Set<String> = []
    /// The numbers of the faults the proxies were asked to play.
    var asked: [Int] = []
    /// Each scheduled fault's plan word, by number (`4: reset`).
    var faultWords: [Int: String] = [:]

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

/// One seed's run of the user's command: fresh proxies in front of every upstream with the
/// seed's link decisions and faults, an events endpoint, the command in a process group of its
/// own, and at the end the promises checked and the session folder written.
enum ExecSession {
    static func run(
        _ options: ExecOptions, seed: UInt64, faults plan: ExecFaultPlan, window: Duration, folder: String, selection: FaultSelection? = nil
    ) async throws -> ExecSessionResult {
        let selection = selection ?? options.selection
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let recorder = SessionRecorder()
        let clock = recorder.clock
        let log = recorder.log
        let oneWay = [options.profile.uplink, options.profile.downlink].map { $0.delay + $0.jitter.amount }.max() ?? .zero
        let schedule = plan.schedule(seed: seed, window: window, upstreams: options.links.count, oneWay: oneWay)
        let links = options.links
        let profile = options.profile

        // The proxies, one per upstream, each its own device link from the seed.
        let registry = ProxyRegistry(configuration: .init(
            defaultProfile: options.profileName, defaultSeed: seed,
            makeLink: { _, _, seed in .network(profile, seed: seed) }, availableProfiles: { [options.profileName] }))
        var proxies: [any FaultLink] = []
        var environment = ProcessInfo.processInfo.environment
        for (index, upstream) in options.upstreams.enumerated() {
            let offset = clock()
            var derived = SeededGenerator(seed: seed).derived(0x5550, UInt64(index))
            let linkSeed = index == 0 ? seed : derived.next()
            try await registry.create(
                ProxySpecification(name: upstream.name, listen: "127.0.0.1:0", upstream: "\(upstream.host):\(upstream.port)"), seed: linkSeed)
            let proxy = try await registry.proxy(named: upstream.name)
            proxies.append(proxy)
            recorder.watch(proxy, name: upstream.name, offset: offset)
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
        // In a shell the host's loopback is LOWBAND_HOST; the events' port skips the link.
        environment["LOWBAND_EVENTS"] = "http://\(options.shellExecutable == nil ? "127.0.0.1" : ExecShell.hostAddress):\(apiAddress.port ?? 0)/events"
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

        let trace = "\(folder)/link.jsonl"
        var shellOffset = Duration.zero
        let child: ChildProcess
        if let shell = options.shellExecutable {
            child = try await ChildProcess(
                shell, ExecShell.arguments(options, seed: seed, trace: trace, eventsPort: apiAddress.port ?? 0), environment: environment, ownGroup: true)
            // The link's clock starts just after the shell's API listens: its decisions are placed from then.
            let api = await ExecShell.awaitAPI(child, clock: clock, within: options.timeout)
            shellOffset = api?.at ?? clock()
            proxies = [ShellLink(port: api?.port)]
        } else {
            child = try await ChildProcess("/bin/sh", ["-c", options.command], environment: environment, ownGroup: true)
        }
        let driver = Task {
            await FaultDriver(proxies: proxies, names: links, log: log, clock: clock, state: recorder.state, selection: selection).play(schedule)
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
        // The command's whole group is gone, so its stdout ends; a daemon that left the group
        // may hold it open, so the reader gets 5 s, then the session goes on without the rest.
        var (stdout, problems) = await Self.value(of: output, within: .seconds(5)) ?? (["(stdout still open 5 s after the command ended: a process outside its group holds it)"], [])
        following.cancel()
        await following.value
        problems += follower?.problems ?? []
        // The driver ends what it started (heals, removes its toxics) before the proxies stop,
        // so the proxies' events hold every fault's end.
        driver.cancel()
        _ = await driver.value
        if options.shellExecutable != nil {
            let requests = recorder.state.requests.withLock { $0 }
            // Placed exactly where the trace says when its link started (else just after the API listened).
            if let start = ExecShell.linkStart(trace: trace) {
                let (session, monotonic) = (clock(), ExecShell.monotonicNow())
                shellOffset = session - .nanoseconds(monotonic - start)
            }
            recorder.record(ExecShell.linkEvents(trace: trace, requests: requests, offset: shellOffset), link: ExecShell.linkName, offset: shellOffset)
        }
        serving.cancel()
        _ = await serving.value
        await registry.stopAll()
        let record = await recorder.finish(
            bounds: options.bounds, roundTrip: options.profile.uplink.delay + options.profile.downlink.delay, floor: NetworkRecord.Floor(options.profile))
        var result = ExecSessionResult(
            exitStatus: status, timedOut: !exited, book: record.book, devices: record.devices,
            plan: schedule.map { $0.describe(links: links) }, elapsed: record.elapsed)
        result.causeFault = record.firstCase?.causeFault
        result.causeSubject = record.firstCase?.subject
        result.brokenSubjects = Set(record.book.violations.compactMap { violation in violation.subject.map { "\(violation.invariant) \($0)" } })
        result.asked = record.requests.filter { $0.outcome == .asked }.map(\.number)
        result.faultWords = Dictionary(schedule.map { ($0.number, $0.words) }, uniquingKeysWith: { first, _ in first })
        var header = ["seed \(seed) on \(options.profileName), faults \(plan)" + (selection.isAll ? "" : " (\(selection))")]
        header.append("command: exit status \(status)\(exited ? "" : " (killed after --timeout \(DurationText.format(options.timeout)))"), \(String(format: "%.1f", record.elapsed.seconds)) s")
        header.append("faults planned: " + (result.plan.isEmpty ? "none" : result.plan.joined(separator: "; ")))
        // What was played is read from the proxies' own events, not from the plan.
        if !record.played.isEmpty { header.append("faults played: " + record.played.joined(separator: "; ")) }
        let again = options.command(seed: seed, faults: plan, window: window, selection: selection)
        header.append("run it again: \(again)")
        try record.write(to: folder, header: header, problems: problems, suite: "explore.exec", benchmark: options.profileName, command: again)
        try (stdout.map { $0 + "\n" }.joined()).write(toFile: "\(folder)/stdout.log", atomically: true, encoding: .utf8)
        try child.stderrText.write(toFile: "\(folder)/stderr.log", atomically: true, encoding: .utf8)
        var faults = "planned:\n" + result.plan.map { "  \($0)\n" }.joined()
        faults += "played (from the proxies' own events):\n" + record.played.map { "  \($0)\n" }.joined()
        if let check = record.recorderCheck { faults += check + "\n" }
        try faults.write(toFile: "\(folder)/faults.txt", atomically: true, encoding: .utf8)
        return result
    }

    /// `task`'s value if it finishes within `limit`, else nil (the task is left to finish).
    static func value<Value: Sendable>(of task: Task<Value, Never>, within limit: Duration) async -> Value? {
        let once = ResumeOnce<Value?>()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            Task { once.resume(returning: await task.value) }
            Task {
                try? await Task.sleep(for: limit)
                once.resume(returning: nil)
            }
        }
    }
}

/// A continuation resumed by whichever caller comes first; the others do nothing.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, Never>?>(nil)

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(returning value: Value) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
