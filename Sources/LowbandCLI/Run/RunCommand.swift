public import ArgumentParser
import Foundation
import LowbandRunReport
import LowbandScenarios
import LowbandShaper
import Synchronization
import LowbandReports

/// `lowband run`: a whole client–proxy–server system on a chosen network, doing what a
/// messenger user does, with a live status line, a summary table and a report folder.
public struct RunCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a bad-network scenario: server, shaping proxy and client engines in one process.",
        discussion: """
            Scenarios: \(ScenarioName.allCases.map { "\n  \($0.rawValue): \($0.summary)" }.joined())

            Writes results.csv (benchmark CSV schema), trace.jsonl, record.json and report.html into \
            --out (default reports/run-<scenario>-<profile>-seed<N>). --seed fixes the network's \
            decisions and the workload; --virtual-time runs on a simulated clock over an in-memory \
            network, deterministic to the byte. Ctrl-C stops the run and writes what was measured \
            so far, marked partial (exit status 130).
            """
    )

    @Option(help: "The scenario (\(ScenarioName.allCases.map(\.rawValue).joined(separator: ", "))).")
    public var scenario: String = ScenarioName.pushToVisible.rawValue

    @Option(help: "A profile name from `lowband profiles list`, or a profile YAML file (default edge).")
    public var profile: String?

    @Option(help: "Several profiles, comma-separated: one run each and one comparison table (instead of --profile).")
    public var profiles: String?

    @Option(help: "Seeds the world, the network's decisions, the client engines and the workload.")
    public var seed: UInt64 = 1

    @Option(help: "Client engines (default 1; 10 for crowd).")
    public var clients: Int?

    @Option(parsing: .unconditional, help: "How long the run lasts: 60s, 5m, 1h, 500ms (default 60s; 300s for subway).")
    public var duration: String?

    @Option(help: "The output folder (default reports/run-<scenario>-<profile>-seed<N>).")
    public var out: String?

    @Flag(name: .customLong("virtual-time"), help: "Simulated clock and in-memory network instead of sockets and the wall clock.")
    public var virtualTime = false

    @Option(help: "Faults to inject (virtual time): none, swarm (the seed picks the kinds), or a list such as reset,app-kill. Kinds: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    public var faults: String = "none"

    @Flag(name: .customLong("allow-violations"), help: "Exit 0 even when a messenger invariant was broken (for exploring); the violations are still reported.")
    public var allowViolations = false

    /// The exit status of a run that broke an invariant (without --allow-violations).
    public static let violationExitCode: Int32 = 3

    static let name = "lowband run"

    /// The profiles to run, in order: `--profiles` split at commas, else `--profile` (edge).
    public var profileNames: [String] {
        if let profiles {
            return profiles.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return [profile ?? "edge"]
    }

    public init() {}

    public func validate() throws {
        if profile != nil, profiles != nil {
            throw ValidationError("--profile and --profiles cannot be combined: put every profile in --profiles, e.g. --profiles gprs,edge")
        }
        if profiles != nil, profileNames.isEmpty {
            throw ValidationError("--profiles is empty; give names such as gprs,edge,3g")
        }
        if let duration {
            let parsed: Duration
            do {
                parsed = try RunDuration.parse(duration)
            } catch {
                throw ValidationError("--duration: \(error)")
            }
            guard parsed > .zero else { throw ValidationError("--duration must be positive, not '\(duration)'") }
        }
    }

    public func run() async throws {
        let scenarioName: ScenarioName
        let runDuration: Duration?
        let faultPlan: FaultPlan
        do {
            scenarioName = try ScenarioName(parsing: scenario)
            runDuration = try duration.map(RunDuration.parse)
            faultPlan = try FaultPlan(parsing: faults)
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        let names = profileNames
        let clientCount = clients ?? (scenarioName == .crowd ? 10 : 1)
        let resolvedDuration = runDuration ?? scenarioName.defaultDuration
        let command = reproducingCommand(scenario: scenarioName, clients: clientCount, duration: resolvedDuration, faults: faultPlan.resolved(seed: seed))

        // Everything is checked before anything starts.
        var runs: [ScenarioOptions] = []
        for name in names {
            let loaded: NetworkProfile
            do {
                loaded = try NetworkProfile.load(named: name)
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
            let options = ScenarioOptions(
                scenario: scenarioName, profile: loaded, profileName: name, seed: seed, clients: clientCount,
                duration: resolvedDuration, virtualTime: virtualTime, command: command, faults: faultPlan)
            do {
                try options.validate()
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
            runs.append(options)
        }
        let directory = out ?? "reports/run-\(scenarioName.rawValue)-\(names.map(RunOutputs.fileSafe).joined(separator: "-"))-seed\(seed)"
        do {
            try OutputDirectory.prepare(directory, option: "--out")
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }

        // Ctrl-C is caught before anything is printed, so a signal never kills a started run.
        // Only Ctrl-C triggers the signal, so `stop.isStopped` says whether the user stopped it.
        let stop = StopSignal()
        let watcher = InterruptWatcher { stop.stop() }
        defer { watcher.cancel() }

        try CommandIO.write("""
            lowband run: \(scenarioName) on \(names.joined(separator: ", ")), seed \(seed), \(clientCount) client\(clientCount == 1 ? "" : "s"), \
            \(RunDuration.format(resolvedDuration)), \(virtualTime ? "virtual time (in-memory network)" : "sockets through the shaping proxy")
            reproduce: \(command)

            """)

        let status = RunStatus()
        var outputs: [ScenarioOutput] = []
        for options in runs {
            // A stop before the first run still gives one (empty, partial) record to write.
            if stop.isStopped, !outputs.isEmpty { break }
            do {
                let output = try await ScenarioRunner.run(options, progress: { status.update($0) }, stop: stop)
                outputs.append(output)
                let record = output.record
                status.update(RunProgress(
                    scenario: scenarioName, profile: options.profileName, elapsed: .nanoseconds(Int64(record.durationSeconds * 1e9)),
                    total: options.duration, figure: record.partial ? "stopped" : "done"), force: true)
            } catch {
                status.finish()
                throw CommandIO.failure(error, command: Self.name)
            }
            status.finish()
            if runs.count > 1 {
                try CommandIO.write("\n\(options.profileName)\(outputs.last!.record.partial ? " (partial)" : ""):\n" + RunOutputs.summary(outputs.last!.record))
            }
        }

        let records = outputs.map(\.record)
        if records.count == 1 {
            try CommandIO.write("\n" + RunOutputs.summary(records[0]))
        } else if records.count > 1 {
            try CommandIO.write("\ncomparison (p50):\n" + RunOutputs.comparison(records))
        }
        for record in records {
            let stages = RunOutputs.stages(record)
            if !stages.isEmpty { try CommandIO.write("\n" + (records.count > 1 ? "\(record.profile): " : "") + stages) }
        }
        for record in records {
            let checks = RunOutputs.invariants(record)
            if !checks.isEmpty { try CommandIO.write("\n" + (records.count > 1 ? "\(record.profile): " : "") + checks) }
        }
        let written: [String]
        do {
            written = try RunOutputs.write(outputs, to: directory, environment: RunEnvironment.current())
        } catch {
            throw CommandIO.failure("cannot write the results into \(directory): \(SystemErrorText.describe(error))", command: Self.name)
        }
        let partial = stop.isStopped || records.contains(where: \.partial)
        try CommandIO.write("\n\(partial ? "stopped: partial results" : "results") in \(directory)/: \(written.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))\n")
        if partial { throw ExitCode(130) }
        if records.contains(where: \.hasViolations), !allowViolations {
            RunCommand.log("lowband run: a messenger invariant was broken (see above and report.html); exit status \(Self.violationExitCode). --allow-violations exits 0.")
            throw ExitCode(Self.violationExitCode)
        }
    }

    /// The command that reproduces this run: every option that decides it, in canonical form.
    private func reproducingCommand(scenario: ScenarioName, clients: Int, duration: Duration, faults: FaultPlan) -> String {
        var parts = ["lowband", "run", "--scenario", scenario.rawValue]
        if profiles != nil {
            parts += ["--profiles", profileNames.joined(separator: ",")]
        } else {
            parts += ["--profile", profileNames[0]]
        }
        parts += ["--seed", String(seed), "--clients", String(clients), "--duration", RunDuration.format(duration)]
        if virtualTime { parts.append("--virtual-time") }
        if !faults.isNone { parts += ["--faults", faults.description] }
        return CommandWords.join(parts)
    }

    /// One line on stderr.
    static func log(_ text: String, newline: Bool = true) {
        let bytes = Array((newline ? text + "\n" : text).utf8)
        bytes.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}

/// Calls `handler` on SIGINT (Ctrl-C) instead of letting it kill the process; a second SIGINT
/// after the first also only asks to stop.
final class InterruptWatcher: Sendable {
    private let source: Mutex<(any DispatchSourceSignal)?>

    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            RunCommand.log("\nSIGINT: stopping, writing what was measured so far")
            handler()
        }
        source.resume()
        self.source = Mutex(source)
    }

    func cancel() {
        source.withLock { source in
            source?.cancel()
            source = nil
        }
    }
}
