import ArgumentParser
import Foundation
import LowbandBasics
import LowbandRunReport
import LowbandScenarios
import LowbandShaper

/// `lowband explore`: search seeds and fault mixes for broken promises, shrink what fails.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run a scenario in virtual time over many seeds and fault mixes; report and shrink every broken promise.",
        subcommands: [ExploreSeedsCommand.self, ExploreMergeCommand.self],
        defaultSubcommand: ExploreSeedsCommand.self
    )

    init() {}
}

/// `lowband explore [--scenario …] --seeds A..B …`: the sweep itself.
struct ExploreSeedsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seeds",
        abstract: "Explore seeds (the default subcommand: `lowband explore --seeds 1..1000` runs it).",
        discussion: """
            Runs --scenario on --profile in virtual time once per seed, --jobs at a time, each seed with \
            the faults --faults gives (swarm: the seed picks the kinds and how hard), and checks every \
            run's invariants. Each failing seed prints one line with the exact `lowband run` command that \
            reproduces it (--shrink: also the smallest failing run found). Writes explore.csv, explore.html \
            and results.csv into --out. Exit status 3 when a seed failed (--allow-violations: 0), 130 on Ctrl-C.
            """
    )

    @Option(help: "The scenario (\(ScenarioName.allCases.map(\.rawValue).joined(separator: ", "))).")
    var scenario: String = ScenarioName.crowd.rawValue

    @Option(help: "A profile name from `lowband profiles list`, or a profile YAML file.")
    var profile: String = "edge"

    @Option(help: "The seeds: a range such as 1..1000, or one seed.")
    var seeds: String = "1..100"

    @Option(help: "swarm (the default: each seed picks fault kinds), none, or a list such as reset,app-kill.")
    var faults: String = "swarm"

    @Option(help: "Client engines per run (default 5 for crowd, else the scenario's minimum).")
    var clients: Int?

    @Option(parsing: .unconditional, help: "Virtual duration of each run: 10m, 600s… (default: the scenario's).")
    var duration: String?

    @Option(help: "Seeds run at once (default: the machine's cores).")
    var jobs: Int?

    @Flag(help: "Reduce every failing seed to the smallest run found that fails the same invariant.")
    var shrink = false

    @Flag(name: .customLong("check-determinism"), help: "Run every seed twice and compare the hashes of trace and record.")
    var checkDeterminism = false

    @Option(help: "Run only shard i of n (i from 1 to n): every n-th seed, for a CI matrix.")
    var shard: String?

    @Option(help: "The output folder (default reports/explore-<scenario>-<profile>).")
    var out: String?

    @Flag(name: .customLong("allow-violations"), help: "Exit 0 even when seeds failed.")
    var allowViolations = false

    @Flag(help: "Write into an --out folder that holds an earlier sweep's results (refused without it).")
    var force = false

    @Option(help: ArgumentHelp(
        "Explore your own app: run this shell command once per seed against fresh proxies in front of every --upstream (docs/APP-EVENTS.md).",
        discussion: "The command gets LOWBAND_PROXY, LOWBAND_PROXY_<NAME>, LOWBAND_EVENTS (the URL to POST events to), LOWBAND_SEED and LOWBAND_OUT."))
    var exec: String?

    @Option(help: "With --exec: a server your app uses, [NAME=]HOST:PORT (repeatable); each gets its own proxy.")
    var upstream: [String] = []

    @Flag(help: "With --exec, instead of --upstream: run each seed's command in a `lowband shell` of its own, so that every destination it reaches crosses the seed's packet link (faults: outage, handover, reset; docs/SHELL.md).")
    var shell = false

    @Option(parsing: .unconditional, help: "With --exec: kill the command (its whole process group) after this long (default 120s).")
    var timeout: String = "120s"

    @Option(name: .customLong("repeat"), help: "With --exec: run every failing seed this many more times and say whether it fails every time.")
    var repeats: Int = 0

    @OptionGroup var boundsOption: BoundsOption
    /// ``BoundsOption``'s `--bound` overrides.
    var bound: [String] { boundsOption.bound }

    @Option(help: "With --exec: a file your app appends its events to (JSON lines), followed as it grows; {seed} stands for the seed (LOWBAND_EVENTS_FILE).")
    var events: String?

    @Flag(name: .customLong("keep-sessions"), help: "With --exec: keep every seed's session folder, not only the failing ones'.")
    var keepSessions = false

    @Flag(help: "Prove each failing seed's cause: run it again without that fault and with it alone (once each in virtual time, which is exact; --prove-runs times each with --exec).")
    var prove = false

    @Option(name: .customLong("prove-runs"), help: "With --prove: runs without the cause, and with it alone, per failing seed (default 3).")
    var proveRuns: Int?

    @Option(name: .customLong("without-faults"), help: "With --exec: leave out these faults of each seed's schedule, by number (faults.txt), all else identical: 4 or 2,5.")
    var withoutFaults: String?

    @Option(name: .customLong("only-faults"), help: "With --exec: play only these faults of each seed's schedule, by number (faults.txt): 4 or 2,5.")
    var onlyFaults: String?

    @Flag(name: .customLong("virtual-time"), help: "Explore in virtual time (what the scenarios always do; refused with --exec, whose app runs in real time).")
    var virtualTime = false

    static let name = "lowband explore"

    init() {}

    func run() async throws {
        SQLiteSettings.apply()
        if let exec {
            try await ExploreExec(command: self, exec: exec).run()
            return
        }
        if !upstream.isEmpty || shell || !bound.isEmpty || repeats != 0 || events != nil || keepSessions || withoutFaults != nil || onlyFaults != nil || proveRuns != nil {
            throw CommandIO.failure(
                "--upstream, --shell, --bound, --events, --keep-sessions, --repeat, --prove-runs, --without-faults and --only-faults go with --exec (exploring your own app); the scenarios need none of them (their --prove runs once each way: virtual time is exact)",
                command: Self.name)
        }
        let options: ExploreOptions
        do {
            let scenarioName = try ScenarioName(parsing: scenario)
            let range = try SeedSelection.parse(seeds: seeds)
            let shardParts = try shard.map(SeedSelection.parse(shard:)) ?? (1, 1)
            let plan = try FaultPlan(parsing: faults)
            let loaded = try NetworkProfile.load(named: profile)
            if let jobs, jobs < 1 { throw CommandIO.IOError(description: "--jobs must be at least 1 (got \(jobs))") }
            let runDuration: Duration?
            do {
                runDuration = try duration.map(DurationText.parse)
            } catch {
                throw CommandIO.IOError(description: "--duration: \(error)")
            }
            var explore = ExploreOptions(
                scenario: scenarioName, profile: loaded, profileName: profile, seeds: SeedSelection(range: range, shard: shardParts),
                faults: plan, clients: clients, duration: runDuration, jobs: jobs, shrink: shrink,
                checkDeterminism: checkDeterminism)
            explore.prove = prove
            try explore.validate()
            options = explore
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        let directory = out ?? OutputDirectory.fresh("reports/explore-\(options.scenario.rawValue)-\(RunOutputs.fileSafe(profile))", marker: "explore.csv")
        do {
            if let out { try OutputDirectory.refuseEarlier(out, marker: "explore.csv", what: "an earlier sweep's results", option: "--out", force: force) }
            try OutputDirectory.prepare(directory, option: "--out")
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        // SIGINT or SIGTERM stops the sweep early; the seeds explored so far are written.
        try await CommandShutdown.watching(
            command: Self.name, gracePeriod: RunCommand.stopGracePeriod,
            announce: { signal in RunCommand.log("\n\(signal): stopping, writing what was measured so far") }
        ) { shutdown in
            try await sweep(options, directory: directory, shutdown: shutdown)
        }
    }

    /// Explores the seeds as the group's one service, then writes the folder and the summary;
    /// exit status 130 when stopped, 3 when a seed failed.
    private func sweep(_ options: ExploreOptions, directory: String, shutdown: CommandShutdown) async throws {
        let total = options.seeds.seeds.count
        try CommandIO.write("""
            lowband explore: \(options.scenario) on \(profile), seeds \(seeds)\(shard.map { " (shard \($0))" } ?? ""): \(total) runs of \
            \(options.clients) client\(options.clients == 1 ? "" : "s") for \(DurationText.format(options.duration)) in virtual time, \
            faults \(options.faults), \(options.jobs) at a time\(checkDeterminism ? ", each twice" : "")\(prove ? ", causes proved" : "")\(shrink ? ", failures shrunk" : "")

            """)

        try await ExploreSweep.run(
            command: Self.name, shutdown: shutdown, directory: directory, title: "lowband explore: \(options.scenario) on \(profile), seeds \(seeds)",
            suite: "explore.\(options.scenario.rawValue)", benchmark: profile, total: total, allowViolations: allowViolations,
            files: "explore.csv, explore.html, results.csv", jobs: options.jobs,
            failure: { outcome in
                var line = "seed \(outcome.seed): \(outcome.verdict) — \(outcome.firstViolation)\n  reproduce: \(outcome.command)\n"
                if outcome.determinism.hasPrefix("differs") { line += "  not deterministic: \(outcome.determinism)\n" }
                if !outcome.proof.isEmpty { line += "  cause:     \(outcome.proof)\n" }
                if !outcome.shrunk.isEmpty { line += "  shrunk:    \(outcome.shrunk)\n" }
                return line
            }
        ) { stop, progress, onOutcome, _ in
            try await Explorer.run(options, progress: progress, onOutcome: onOutcome, stop: stop)
        }
    }
}

/// `lowband explore merge DIR…`: one exploration out of its shards.
struct ExploreMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the explore.csv of several shards (or runs) into one explore.csv, explore.html and results.csv."
    )

    @Argument(help: "Folders written by `lowband explore` (each with an explore.csv).")
    var directories: [String] = []

    @Option(help: "The output folder.")
    var out: String = "reports/explore-merged"

    static let name = "lowband explore merge"

    init() {}

    func run() async throws {
        guard !directories.isEmpty else { throw CommandIO.failure("name at least one folder written by lowband explore", command: Self.name) }
        var bySeed: [UInt64: SeedOutcome] = [:]
        var suites: [String] = []
        for directory in directories {
            let path = "\(directory)/explore.csv"
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw CommandIO.failure("cannot read \(path): no such file, or not UTF-8 text", command: Self.name)
            }
            do {
                for outcome in try ExploreTable.parse(text, file: path) {
                    if let known = bySeed[outcome.seed], known.traceHash != outcome.traceHash {
                        throw CommandIO.IOError(description: "\(path): seed \(outcome.seed) appears in two folders with different trace hashes (\(known.traceHash), \(outcome.traceHash)): were they run with the same options and build?")
                    }
                    bySeed[outcome.seed] = outcome
                }
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
            if let first = (try? ExploreTable.parse(text, file: path))?.first {
                suites.append(first.command)
            }
        }
        let outcomes = bySeed.values.sorted { $0.seed < $1.seed }
        let first = suites.first ?? ""
        let profile = ExploreOutputs.option("--profile", in: first) ?? "profile"
        // A sweep of an outside app (`--exec`) has no scenario: it is titled and filed as one.
        let exec = ExploreOutputs.option("--exec", in: first) != nil
        let scenario = exec ? "exec" : ExploreOutputs.option("--scenario", in: first) ?? "scenario"
        let what = exec ? "lowband explore --exec on \(profile)" : "lowband explore: \(scenario) on \(profile)"
        do {
            try ExploreOutputs.write(outcomes, to: out, title: "\(what), \(directories.count) folders merged", suite: "explore.\(scenario)", benchmark: profile)
        } catch {
            throw CommandIO.failure("cannot write the results into \(out): \(SystemErrorText.describe(error))", command: Self.name)
        }
        try CommandIO.write(ExploreOutputs.summary(outcomes, total: outcomes.count) + "results in \(out)/: explore.csv, explore.html, results.csv\n")
    }
}
