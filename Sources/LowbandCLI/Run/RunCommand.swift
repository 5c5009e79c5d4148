import ArgumentParser
import Foundation
import LowbandBasics
import LowbandReports
import LowbandRunReport
import LowbandScenarios
import LowbandShaper

/// `lowband run`: a whole client–proxy–server system on a chosen network, doing what a
/// messenger user does, with a live status line, a summary table and a report folder.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
    var scenario: String = ScenarioName.pushToVisible.rawValue

    @Option(help: "A profile name from `lowband profiles list`, or a profile YAML file (default edge).")
    var profile: String?

    @Option(help: "Several profiles, comma-separated: one run each and one comparison table (instead of --profile).")
    var profiles: String?

    @OptionGroup var seedOption: SeedOption
    /// ``SeedOption``'s `--seed`.
    var seed: UInt64 { seedOption.seed }

    @Option(help: "Client engines (default 1; 10 for crowd).")
    var clients: Int?

    @Option(parsing: .unconditional, help: "How long the run lasts: 60s, 5m, 1h, 500ms (default 60s; 300s for subway).")
    var duration: String?

    @Option(help: "The output folder (default reports/run-<scenario>-<profile>-seed<N>).")
    var out: String?

    @Flag(name: .customLong("virtual-time"), help: "Simulated clock and in-memory network instead of sockets and the wall clock.")
    var virtualTime = false

    @Option(help: "Faults to inject (virtual time): none, swarm (the seed picks the kinds), or a list such as reset,app-kill. Kinds: \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var faults: String = "none"

    @Option(name: .customLong("without-faults"), help: "Leave out these faults of the schedule, by number (`fault 3` in a verdict's cause, in `lowband explain`), all else identical: 3 or 2,5. In virtual time one such run shows whether a fault was needed.")
    var withoutFaults: String?

    @Option(name: .customLong("only-faults"), help: "Play only these faults of the schedule, by number, all else identical: 3 or 2,5.")
    var onlyFaults: String?

    @Option(help: "The engines' heartbeat interval: a ping when nothing arrived for this long (default: the engine's, 270s). What staying reachable costs on a radio (energy.* rows) and whether a NAT forgets the idle flow between pings (docs/HEARTBEAT.md).")
    var heartbeat: String?

    @Flag(name: .customLong("no-drain"), help: "End the run with its traffic, instead of draining after it (no new sends, the network healed) until nothing is in flight or the settle bound passes, which lets every promise be judged.")
    var noDrain = false

    @Option(name: .customLong("compression-dictionary"), help: "on: the engines offer the shipped wire dictionary at login and both directions compress with it; off: plain LZ4, as clients from before dictionaries; both: each profile runs off, then on, and a table sets bytes per message and the latency p50 side by side.")
    var compressionDictionary: String = "on"

    @Flag(name: .customLong("allow-violations"), help: "Exit 0 even when a messenger invariant was broken (for exploring); the violations are still reported.")
    var allowViolations = false

    /// The exit status of a run that broke an invariant (without --allow-violations).
    static let violationExitCode: Int32 = 3

    static let name = "lowband run"

    /// The profiles to run, in order: `--profiles` split at commas, else `--profile` (edge).
    var profileNames: [String] {
        if let profiles {
            return profiles.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return [profile ?? "edge"]
    }

    /// Whether each profile runs with the wire dictionary, without, or both (without first);
    /// nil for a value that is none of on, off, both.
    var dictionaryVariants: [Bool]? {
        switch compressionDictionary {
        case "on": [true]
        case "off": [false]
        case "both": [false, true]
        default: nil
        }
    }

    init() {}

    func validate() throws {
        if profile != nil, profiles != nil {
            throw ValidationError("--profile and --profiles cannot be combined: put every profile in --profiles, e.g. --profiles gprs,edge")
        }
        if profiles != nil, profileNames.isEmpty {
            throw ValidationError("--profiles is empty; give names such as gprs,edge,3g")
        }
        if let heartbeat {
            let parsed: Duration
            do {
                parsed = try DurationText.parse(heartbeat)
            } catch {
                throw ValidationError("--heartbeat: \(error)")
            }
            guard parsed >= .seconds(1) else { throw ValidationError("--heartbeat must be at least 1s, not '\(heartbeat)'") }
        }
        guard dictionaryVariants != nil else {
            throw ValidationError("--compression-dictionary must be on, off or both, not '\(compressionDictionary)'")
        }
        if let duration {
            let parsed: Duration
            do {
                parsed = try DurationText.parse(duration)
            } catch {
                throw ValidationError("--duration: \(error)")
            }
            guard parsed > .zero else { throw ValidationError("--duration must be positive, not '\(duration)'") }
        }
    }

    func run() async throws {
        SQLiteSettings.apply()
        let scenarioName: ScenarioName
        let runDuration: Duration?
        let faultPlan: FaultPlan
        do {
            scenarioName = try ScenarioName(parsing: scenario)
            runDuration = try duration.map(DurationText.parse)
            var plan = try FaultPlan(parsing: faults)
            plan.played = try FaultSelection(without: withoutFaults, only: onlyFaults)
            if plan.isNone, !plan.played.isAll {
                throw ScenarioError(.invalidOptions, "--without-faults and --only-faults choose among the faults of --faults; this run has none")
            }
            faultPlan = plan
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        let names = profileNames
        let clientCount = clients ?? (scenarioName == .crowd ? 10 : 1)
        let resolvedDuration = runDuration ?? scenarioName.defaultDuration
        let command = reproducingCommand(scenario: scenarioName, clients: clientCount, duration: resolvedDuration, faults: faultPlan.resolved(seed: seed))

        // Everything is checked before anything starts.
        var runs: [ScenarioOptions] = []
        let variants = dictionaryVariants ?? [true]
        for name in names {
            let loaded: NetworkProfile
            do {
                loaded = try NetworkProfile.load(named: name)
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
            for dictionary in variants {
                let label = variants.count > 1 ? DictionaryComparison.label(name, dictionary: dictionary) : name
                var options = ScenarioOptions(
                    scenario: scenarioName, profile: loaded, profileName: label, seed: seed, clients: clientCount,
                    duration: resolvedDuration, virtualTime: virtualTime, command: command, faults: faultPlan, drain: !noDrain,
                    compressionDictionary: dictionary)
                options.heartbeat = try? heartbeat.map(DurationText.parse)
                do {
                    try options.validate()
                } catch {
                    throw CommandIO.failure(error, command: Self.name)
                }
                runs.append(options)
            }
        }
        // Run again without --out (a printed reproduce command), it writes beside the earlier run.
        let directory = out ?? OutputDirectory.fresh("reports/run-\(scenarioName.rawValue)-\(names.map(RunOutputs.fileSafe).joined(separator: "-"))-seed\(seed)", marker: "results.csv")
        do {
            try OutputDirectory.prepare(directory, option: "--out")
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }

        // SIGINT and SIGTERM are caught before anything is printed, so a signal never kills a
        // started run: it stops the run early, and what was measured is written.
        try await CommandShutdown.watching(
            command: Self.name, gracePeriod: Self.stopGracePeriod,
            announce: { signal in RunCommand.log("\n\(signal): stopping, writing what was measured so far") }
        ) { shutdown in
            try await perform(runs, scenario: scenarioName, names: names, clients: clientCount, duration: resolvedDuration, command: command, directory: directory, shutdown: shutdown)
        }
    }

    /// Runs the checked `runs` as the group's one service, prints the tables and writes the
    /// report folder; exit status 130 when stopped, 3 on a broken invariant.
    private func perform(
        _ runs: [ScenarioOptions], scenario scenarioName: ScenarioName, names: [String], clients clientCount: Int, duration resolvedDuration: Duration,
        command: String, directory: String, shutdown: CommandShutdown
    ) async throws {
        try CommandIO.write("""
            lowband run: \(scenarioName) on \(names.joined(separator: ", ")), seed \(seed), \(clientCount) client\(clientCount == 1 ? "" : "s"), \
            \(DurationText.format(resolvedDuration)), \(virtualTime ? "virtual time (in-memory network)" : "sockets through the shaping proxy")
            reproduce: \(command)

            """)

        let status = RunStatus()
        let work = StoppableWork { [runs] stop in try await Self.runAll(runs, scenario: scenarioName, status: status, stop: stop) }
        do {
            try await shutdown.run([.init(service: work, successTerminationBehavior: .gracefullyShutdownGroup)])
        } catch {
            status.finish()
            throw CommandIO.failure(error, command: Self.name)
        }
        let stop = work.stop
        let outputs = work.output ?? []

        let records = outputs.map(\.record)
        if records.count == 1 {
            try CommandIO.write("\n" + RunOutputs.summary(records[0]))
        } else if records.count > 1 {
            try CommandIO.write("\ncomparison (p50):\n" + RunOutputs.comparison(records))
        }
        let dictionaryTable = DictionaryComparison.table(records)
        if !dictionaryTable.isEmpty {
            try CommandIO.write("\nthe wire dictionary against plain LZ4, measured in this run (ratio: dictionary / plain):\n" + dictionaryTable)
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

    /// How long a stopped run may take to finish and hand over its partial record before it is
    /// cancelled (longer than the other commands': the partial results are what the user asked for).
    static let stopGracePeriod: Duration = .seconds(30)

    /// Runs `runs` one after the other, printing each one's summary when there are several; a
    /// stop ends the current run early (partial) and skips the rest, but a stop before the first
    /// still gives one (empty, partial) record to write.
    private static func runAll(_ runs: [ScenarioOptions], scenario: ScenarioName, status: RunStatus, stop: StopSignal) async throws -> [ScenarioOutput] {
        var outputs: [ScenarioOutput] = []
        for options in runs {
            if stop.isStopped, !outputs.isEmpty { break }
            // A failure ends the status line in run(), which reports it.
            let output = try await ScenarioRunner.run(options, progress: { status.update($0) }, stop: stop)
            outputs.append(output)
            let record = output.record
            status.update(RunProgress(
                scenario: scenario, profile: options.profileName, elapsed: .nanoseconds(Int64(record.durationSeconds * 1e9)),
                total: options.duration, figure: record.partial ? "stopped" : "done"), force: true)
            status.finish()
            if runs.count > 1 {
                try CommandIO.write("\n\(options.profileName)\(record.partial ? " (partial)" : ""):\n" + RunOutputs.summary(record))
            }
        }
        return outputs
    }

    /// The command that reproduces this run: every option that decides it, in canonical form.
    private func reproducingCommand(scenario: ScenarioName, clients: Int, duration: Duration, faults: FaultPlan) -> String {
        var parts = ["lowband", "run", "--scenario", scenario.rawValue]
        if profiles != nil {
            parts += ["--profiles", profileNames.joined(separator: ",")]
        } else {
            parts += ["--profile", profileNames[0]]
        }
        parts += ["--seed", String(seed), "--clients", String(clients), "--duration", DurationText.format(duration)]
        if virtualTime { parts.append("--virtual-time") }
        parts += faults.words
        if let heartbeat, let parsed = try? DurationText.parse(heartbeat) { parts += ["--heartbeat", DurationText.format(parsed)] }
        if noDrain { parts.append("--no-drain") }
        if compressionDictionary != "on" { parts += ["--compression-dictionary", compressionDictionary] }
        return CommandWords.join(parts)
    }

    /// One line on stderr.
    static func log(_ text: String, newline: Bool = true) {
        let bytes = Array((newline ? text + "\n" : text).utf8)
        bytes.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}
