import ArgumentParser
import Foundation
import LowbandBasics
import LowbandProcess
import LowbandReports
import LowbandScenarios
import LowbandStartup

/// `lowband startup`: how long any program takes from launch to a line that says it is ready.
struct StartupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "startup",
        abstract: "Time any program from launch to the first output line matching --until, N times; CSV for lowband compare.",
        discussion: """
            Runs PROGRAM --warmup times unmeasured, then --runs times, one at a time: each run is \
            timed from posix_spawn to the first line of its stdout or stderr that matches --until \
            (a regular expression), then stopped (SIGTERM to its process group, SIGKILL after 5 s). \
            Writes rows in the benchmark CSV schema (suite startup, benchmark --name): \
            time_to_marker in ms and peak_rss_at_marker in bytes, with p50/p90/p99/min/max over \
            the runs, and every run's value next to it (OUT.samples.csv), so `lowband compare` \
            gates time_to_marker with its statistical test by default. With --baseline-command, \
            runs of that command (the base build) alternate with the program's, so the machine's \
            load falls on both alike, and its rows go to --baseline-out. A run whose program exits \
            first, prints no matching line within --timeout, or cannot be started ends the \
            command with one error line and exit 1.

            Example: lowband startup --runs 20 --until 'listening on' -- lowband server --listen 127.0.0.1:0
            Base against head in one job: lowband startup --runs 10 --until ready \
              --baseline-command './base/app' --baseline-out base.csv --out head.csv -- ./head/app \
              && lowband compare base.csv head.csv

            --measure instructions runs the program under valgrind's callgrind instead \
            (setarch -R: no address randomisation; every child followed through sh -c, env and \
            shims, and counted), --instrumented-runs times, to the ready line or to its exit, and \
            writes instructions (and with cycles, estimated_cycles) in count, every run's count \
            kept, which compare gates to a fraction of a percent. --measure time,instructions does \
            both, the times in separate plain runs. --check-determinism N runs it N times under \
            callgrind and prints how far the counts spread (exit 1 when they differ); --env and \
            --clear-env remove what moves them. See docs/BENCHMARKS.md, "Instruction counts of a \
            start".

            Example: lowband startup --measure instructions --env PYTHONHASHSEED=0 --until ready \
              -- python3 -c "import json; print('ready')"
            """
    )

    @Option(help: "What to measure, comma-separated: time (plain runs), instructions (runs under callgrind), cycles (instructions and callgrind's cycle estimate); e.g. time,instructions.")
    var measure: String = "time"

    @Option(help: "Measured plain runs (--measure time).")
    var runs: Int = 20

    @Option(help: "Measured runs under callgrind (--measure instructions or cycles); counts that do not move need few.")
    var instrumentedRuns: Int = 3

    @Option(help: "Run the program N times under callgrind, print how far its instruction counts spread, and write nothing (exit 1 when they differ).")
    var checkDeterminism: Int?

    @Option(name: .customLong("env"), help: "NAME=value set in the program's environment, e.g. PYTHONHASHSEED=0 (repeatable).")
    var environment: [String] = []

    @Flag(help: "Start the program with no environment but --env's: the variables' sizes move where its stack and heap start, and with them a count.")
    var clearEnv = false

    @Option(help: "Unmeasured runs first (warm the page cache and any on-disk state).")
    var warmup: Int = 2

    @Option(help: "The longest a run may take to print the marker (e.g. 30s, 500ms); by default 30s, and 10m for a run under callgrind, which makes a start tens of times slower (a version manager's shim, dozens of processes, takes 40 s there).")
    var timeout: String?

    @Option(help: "A regular expression; the first output line it matches marks the program ready (required, but for instructions alone: counted to the exit).")
    var until: String?

    @Option(help: "The benchmark's name in the CSV (default: the program's file name).")
    var name: String?

    @Option(help: "The CSV file to write.")
    var out: String = "reports/startup-program.csv"

    @Option(help: "A command (run by /bin/sh, e.g. the base build) whose runs alternate with the program's; its rows go to --baseline-out under the same name.")
    var baselineCommand: String?

    @Option(help: "With --baseline-command: the CSV file for its rows.")
    var baselineOut: String?

    @Option(help: "The measured program's commit for the CSV's commit column (default: the git checkout of the working directory; Lowband's own goes to lowband_commit).")
    var commit: String?

    @Option(help: "With --baseline-command: the baseline's commit for its rows (default: unknown).")
    var baselineCommit: String?

    @Argument(parsing: .captureForPassthrough, help: "-- PROGRAM ARGS…: the program to time and its arguments.")
    var command: [String] = []

    init() {}

    static let commandName = "lowband startup"

    /// The options this command knows, for "did you mean".
    static let options = [
        "--measure", "--runs", "--instrumented-runs", "--check-determinism", "--env", "--clear-env", "--warmup", "--timeout", "--until", "--name", "--out",
        "--baseline-command", "--baseline-out", "--commit", "--baseline-commit",
    ]

    func validate() throws {
        try PassedThrough.validate(command, of: self, options: Self.options, program: "the program to time")
        let measures: StartupMeasures
        do {
            measures = try StartupMeasures.parse(measure)
        } catch {
            throw ValidationError(error.description)
        }
        if let checkDeterminism, !(2 ... 1_000).contains(checkDeterminism) {
            throw ValidationError("--check-determinism needs 2...1000 runs to compare, not \(checkDeterminism)")
        }
        for entry in environment where !entry.contains("=") || entry.hasPrefix("=") {
            throw ValidationError("--env takes NAME=value, not '\(entry)'")
        }
        guard (1 ... 1_000).contains(instrumentedRuns) else { throw ValidationError("--instrumented-runs must be 1...1000, not \(instrumentedRuns)") }
        let countsOnly = checkDeterminism != nil || !measures.time
        guard until != nil || countsOnly else {
            throw ValidationError("--until is required: a regular expression the program prints once it is ready, e.g. --until 'listening on'")
        }
        guard (baselineCommand == nil) == (baselineOut == nil) else {
            throw ValidationError("--baseline-command and --baseline-out go together: the base's runs need a file of their own")
        }
        if let baselineOut, baselineOut == out { throw ValidationError("--baseline-out and --out are the same file, '\(out)'") }
        guard (1 ... 10_000).contains(runs) else { throw ValidationError("--runs must be 1...10000, not \(runs)") }
        guard (0 ... 1_000).contains(warmup) else { throw ValidationError("--warmup must be 0...1000, not \(warmup)") }
        guard !program.isEmpty else { throw ValidationError("give the program to time after --, e.g. -- lowband server") }
        if let until {
            do {
                _ = try Regex(until)
            } catch {
                throw ValidationError("--until '\(until)' is not a regular expression: \(error)")
            }
        }
        if let timeout, (try? DurationText.parse(timeout)).map({ $0 > .zero }) != true {
            throw ValidationError("--timeout must be a positive duration like 30s or 500ms, not '\(timeout)'")
        }
    }

    /// The program and its arguments, without the `--` that separates them from ours.
    private var program: [String] {
        command.first == "--" ? Array(command.dropFirst()) : command
    }

    func run() throws {
        let plan = try StartupPlan(self)
        if let checkDeterminism {
            return try plan.checkDeterminism(runs: checkDeterminism)
        }
        try plan.measure()
    }
}
