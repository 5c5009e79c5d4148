import Foundation
import LowbandBasics
import LowbandFindings
import LowbandRunReport
package import LowbandShaper

/// What `lowband explore` runs: one scenario on one profile in virtual time, for every seed of
/// a selection, each with its faults.
package struct ExploreOptions: Sendable {
    /// The scenario every seed runs.
    package var scenario: ScenarioName
    /// The network every seed runs on.
    package var profile: NetworkProfile
    /// The name the profile was asked for by, for the reproducing commands.
    package var profileName: String
    /// The seeds to run.
    package var seeds: SeedSelection
    /// The faults each seed injects.
    package var faults: FaultPlan
    /// Client engines per run.
    package var clients: Int
    /// Virtual time each run lasts.
    package var duration: Duration
    /// Seeds run at once (default: the machine's cores).
    package var jobs: Int
    /// Reduce each failing seed to a smaller run that fails the same way.
    package var shrink: Bool
    /// Run each seed twice and compare the trace and record hashes.
    package var checkDeterminism: Bool
    /// Prove each failing seed's cause: run it again without the fault its first broken case
    /// names, and with that fault alone (once each: virtual time is exact).
    package var prove = false
    /// Where runs put their client databases (see ``ScenarioOptions/workDirectory``); nil picks
    /// `/dev/shm` or the temporary directory.
    package var workDirectory: String?
    /// The workload, when not `scenario`'s own (tests explore scenarios with planted bugs).
    var implementation: (any Scenario.Type)?

    /// Options; clients and duration default to the scenario's own, jobs to the machine's cores,
    /// faults to `swarm`, and the profile name to the profile's.
    package init(
        scenario: ScenarioName, profile: NetworkProfile, profileName: String? = nil, seeds: SeedSelection, faults: FaultPlan = .swarm,
        clients: Int? = nil, duration: Duration? = nil, jobs: Int? = nil, shrink: Bool = false, checkDeterminism: Bool = false,
        workDirectory: String? = nil
    ) {
        self.scenario = scenario
        self.profile = profile
        self.profileName = profileName ?? profile.name
        self.seeds = seeds
        self.faults = faults
        self.clients = clients ?? max(scenario.minimumClients, scenario == .crowd ? 5 : 1)
        self.duration = duration ?? scenario.defaultDuration
        self.jobs = max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
        self.shrink = shrink
        self.checkDeterminism = checkDeterminism
        self.workDirectory = workDirectory
    }

    /// Rejects options no seed could run with (the same checks as `lowband run`).
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions`.
    package func validate() throws(ScenarioError) {
        try run(seed: seeds.range.lowerBound).validate()
    }

    /// The options of one seed's run.
    func run(seed: UInt64, clients: Int? = nil, duration: Duration? = nil, faults: FaultPlan? = nil) -> ScenarioOptions {
        let plan = (faults ?? self.faults).resolved(seed: seed)
        let clients = clients ?? self.clients
        let duration = duration ?? self.duration
        return ScenarioOptions(
            scenario: scenario, profile: profile, profileName: profileName, seed: seed, clients: clients, duration: duration,
            virtualTime: true, command: Explorer.command(scenario: scenario, profile: profileName, seed: seed, clients: clients, duration: duration, faults: plan),
            workDirectory: workDirectory, faults: plan)
    }
}

/// Where an exploration is.
package struct ExploreProgress: Sendable, Hashable {
    /// Seeds finished.
    package var done: Int
    /// Seeds finished that failed.
    package var failed: Int
    /// Seeds to run in all.
    package var total: Int
    /// Wall-clock time since it started.
    package var elapsed: Duration
}

/// Searches seeds for broken promises: runs a scenario in virtual time for each seed (with the
/// faults the seed picks), in parallel, checks every run's invariants, optionally replays each
/// seed to check determinism and shrinks each failure to a smaller reproducing run.
package enum Explorer {
    /// Runs every seed of `options`; `onOutcome` is called for each seed as it finishes (in
    /// finishing order), the result is in seed order. A triggered `stop` ends it after the seeds
    /// under way.
    package static func run(
        _ options: ExploreOptions,
        progress: @escaping @Sendable (ExploreProgress) -> Void = { _ in },
        onOutcome: @escaping @Sendable (SeedOutcome) -> Void = { _ in },
        stop: StopSignal = StopSignal()
    ) async throws -> [SeedOutcome] {
        try options.validate()
        return try await SeedSweep.run(options.seeds.seeds, jobs: options.jobs, stop: stop, progress: progress, onOutcome: onOutcome) { seed in
            try await explore(seed: seed, options)
        }
    }

    /// One seed: its run (twice with determinism checking), its verdict, and its shrinking.
    static func explore(seed: UInt64, _ options: ExploreOptions) async throws -> SeedOutcome {
        let runOptions = options.run(seed: seed)
        let clock = ContinuousClock()
        let start = clock.now
        let first = try VirtualRun.run(runOptions, implementation: options.implementation)
        let hash = Fingerprint.of(first)
        var determinism = ""
        if options.checkDeterminism {
            let second = try VirtualRun.run(runOptions, implementation: options.implementation)
            determinism = Fingerprint.of(second) == hash ? "same" : "differs: " + Fingerprint.firstDifference(first, second)
        }
        let wall = (clock.now - start).milliseconds
        let record = first.record
        let broken: [(name: String, count: Int)] = record.invariants.filter { $0.violations > 0 }.map { ($0.name, $0.violations) }
        var shrunk = ""
        // The invariant of the first violation: the one the seed's line shows.
        if options.shrink, let target = record.violations.first?.invariant ?? broken.first?.name {
            shrunk = try await shrink(seed: seed, invariant: target, options)
        }
        var proof = ""
        if options.prove, let violation = record.violations.first {
            proof = try await prove(seed: seed, violation: violation, runOptions, options)
        }
        var outcome = SeedOutcome(
            seed: seed, faults: runOptions.faults.description, clients: runOptions.clients, durationSeconds: runOptions.duration.seconds,
            broken: broken, firstViolation: record.violations.first?.summary ?? "", wallMilliseconds: wall, traceHash: hash,
            determinism: determinism, command: runOptions.command, shrunk: shrunk)
        outcome.unchecked = record.invariants.filter { $0.checked == 0 && $0.violations == 0 }.map(\.name)
        outcome.proof = proof
        return outcome
    }

    /// `--prove` for one failing seed: ``CauseProof`` over virtual-time runs of the seed with
    /// faults left out or alone. One run each way is exact (the same options give the same run
    /// to the byte, and each fault kind draws from its own stream, so leaving one out moves no
    /// other); the line ends with the command that shows what made the difference.
    static func prove(seed: UInt64, violation: InvariantViolation, _ runOptions: ScenarioOptions, _ options: ExploreOptions) async throws -> String {
        let scheduled = runOptions.faults.schedule(seed: seed, duration: runOptions.duration, clients: runOptions.clients)
        let device = CauseProof.parts(of: violation.subject)?.device
        let breaks = { (selection: FaultSelection, _: String, exact: Bool) async throws -> Bool in
            var again = runOptions
            again.faults.played = selection
            let record = try VirtualRun.run(again, implementation: options.implementation).record
            let same = record.violations.filter { $0.invariant == violation.invariant }
            guard let subject = violation.subject, let device else { return !same.isEmpty }
            return exact ? same.contains { $0.subject == subject } : same.contains { $0.subject?.hasSuffix("@\(device)") ?? false }
        }
        var proof = CauseProof(runs: 1, searchBudget: 12, base: runOptions.faults.played, breaks: breaks)
        proof.exactness = " (virtual time: one run each way is exact)"
        let found = try await proof.prove(
            signature: violation.invariant, subject: violation.subject, fault: violation.causeFault, asked: scheduled.map(\.number),
            words: Dictionary(uniqueKeysWithValues: scheduled.map { ($0.number, $0.words) }))
        guard let selection = found.selection else { return found.line }
        var plan = runOptions.faults
        plan.played = selection
        return found.line + "; " + command(
            scenario: options.scenario, profile: options.profileName, seed: seed, clients: runOptions.clients, duration: runOptions.duration, faults: plan)
    }

    /// The smallest run found that still breaks `invariant`: fewer fault kinds, fewer clients, a
    /// shorter duration, tried in that order until nothing smaller fails (at most 40 runs).
    /// Deterministic: the same failure shrinks to the same command.
    static func shrink(seed: UInt64, invariant: String, _ options: ExploreOptions) async throws -> String {
        var kinds = options.faults.kinds(seed: seed)
        var clients = options.clients
        var duration = options.duration
        var budget = 40
        func fails(_ kinds: [FaultKind], _ clients: Int, _ duration: Duration) async throws -> Bool {
            budget -= 1
            let run = options.run(seed: seed, clients: clients, duration: duration, faults: FaultPlan(.kinds(kinds)))
            let output = try VirtualRun.run(run, implementation: options.implementation)
            return output.record.invariants.contains { $0.name == invariant && $0.violations > 0 }
        }
        var improved = true
        while improved, budget > 0 {
            improved = false
            for kind in kinds where budget > 0 {
                let fewer = kinds.filter { $0 != kind }
                if try await fails(fewer, clients, duration) {
                    kinds = fewer
                    improved = true
                    break
                }
            }
            if improved { continue }
            for candidate in [max(options.scenario.minimumClients, clients / 2), clients - 1] where candidate < clients && candidate >= options.scenario.minimumClients && budget > 0 {
                if try await fails(kinds, candidate, duration) {
                    clients = candidate
                    improved = true
                    break
                }
            }
            if improved { continue }
            let shorter = duration / 2
            if shorter >= .seconds(10), budget > 0, try await fails(kinds, clients, shorter) {
                duration = shorter
                improved = true
            }
        }
        let plan = kinds.isEmpty ? FaultPlan.none : FaultPlan(.kinds(kinds))
        return command(scenario: options.scenario, profile: options.profileName, seed: seed, clients: clients, duration: duration, faults: plan)
    }

    /// The `lowband run` command of one seed.
    package static func command(scenario: ScenarioName, profile: String, seed: UInt64, clients: Int, duration: Duration, faults: FaultPlan) -> String {
        var parts = ["lowband", "run", "--scenario", scenario.rawValue, "--profile", profile, "--seed", String(seed),
                     "--clients", String(clients), "--duration", DurationText.format(duration), "--virtual-time"]
        parts += faults.words
        return CommandWords.join(parts)
    }
}
