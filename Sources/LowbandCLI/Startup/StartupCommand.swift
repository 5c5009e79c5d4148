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
            """
    )

    @Option(help: "Measured runs.")
    var runs: Int = 20

    @Option(help: "Unmeasured runs first (warm the page cache and any on-disk state).")
    var warmup: Int = 2

    @Option(help: "The longest a run may take to print the marker (e.g. 30s, 500ms).")
    var timeout: String = "30s"

    @Option(help: "A regular expression; the first output line it matches marks the program ready (required).")
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
    static let options = ["--runs", "--warmup", "--timeout", "--until", "--name", "--out", "--baseline-command", "--baseline-out", "--commit", "--baseline-commit"]

    func validate() throws {
        // An option the parser did not know starts what it passes through: refuse it as an option.
        if let first = command.first, first != "--", first.hasPrefix("-") {
            let word = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            let guess = NearestName.suggestion(for: word, among: Self.options).map { "; did you mean '\($0)'?" } ?? ""
            throw ValidationError("unknown option '\(word)'\(guess) (the program to time goes after --)")
        }
        guard let until else { throw ValidationError("--until is required: a regular expression the program prints once it is ready, e.g. --until 'listening on'") }
        guard (baselineCommand == nil) == (baselineOut == nil) else {
            throw ValidationError("--baseline-command and --baseline-out go together: the base's runs need a file of their own")
        }
        if let baselineOut, baselineOut == out { throw ValidationError("--baseline-out and --out are the same file, '\(out)'") }
        guard (1 ... 10_000).contains(runs) else { throw ValidationError("--runs must be 1...10000, not \(runs)") }
        guard (0 ... 1_000).contains(warmup) else { throw ValidationError("--warmup must be 0...1000, not \(warmup)") }
        guard !program.isEmpty else { throw ValidationError("give the program to time after --, e.g. -- lowband server") }
        do {
            _ = try Regex(until)
        } catch {
            throw ValidationError("--until '\(until)' is not a regular expression: \(error)")
        }
        guard (try? DurationText.parse(timeout)).map({ $0 > .zero }) == true else {
            throw ValidationError("--timeout must be a positive duration like 30s or 500ms, not '\(timeout)'")
        }
    }

    /// The program and its arguments, without the `--` that separates them from ours.
    private var program: [String] {
        command.first == "--" ? Array(command.dropFirst()) : command
    }

    func run() throws {
        let until = self.until ?? ""
        let executable: String
        let marker: Regex<AnyRegexOutput>
        let limit: Duration
        do {
            executable = try ExecutableSearch.resolve(program[0])
            marker = try Regex(until)
            limit = try DurationText.parse(timeout)
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
        do {
            for (file, option) in [(out, "--out"), (baselineOut, "--baseline-out")] {
                let folder = ((file ?? "") as NSString).deletingLastPathComponent
                if !folder.isEmpty { try OutputDirectory.prepare(folder, option: option) }
            }
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
        let launch = ProgramLaunch(executable: executable, arguments: Array(program.dropFirst()), marker: marker, pattern: until, timeout: limit)
        // The base runs through the shell, which execs it: a millisecond of sh is the only difference.
        let base = baselineCommand.map { ProgramLaunch(executable: "/bin/sh", arguments: ["-c", "exec \($0)"], marker: marker, pattern: until, timeout: limit) }
        let benchmark = name ?? (program[0] as NSString).lastPathComponent
        // The rows are the program's: its checkout's commit, Lowband's in lowband_commit. A
        // baseline's commit is not known here (it may be any build): --commit names the head's.
        let environment = RunEnvironment.current().measuring(programIn: FileManager.default.currentDirectoryPath, commit: commit)

        let progress = StartupProgress()
        var samples: [ProgramLaunch.Sample] = []
        var baseSamples: [ProgramLaunch.Sample] = []
        let total = warmup + runs
        for index in 0 ..< total {
            let measured = index >= warmup
            // Alternating, base first: whatever the machine does meanwhile falls on both alike.
            for (which, subject) in [("the baseline's ", base), ("", launch)] {
                guard let subject else { continue }
                let sample: ProgramLaunch.Sample
                do {
                    sample = try subject.run()
                } catch {
                    progress.finish()
                    let run = measured ? "run \(index - warmup + 1) of \(runs)" : "warm-up run \(index + 1) of \(warmup)"
                    throw CommandIO.failure("\(which)\(run): \(error.description)", command: Self.commandName)
                }
                if measured { if which.isEmpty { samples.append(sample) } else { baseSamples.append(sample) } }
                progress.show((which.isEmpty ? "" : "baseline ") + StartupSummary.progressLine(index: index, warmup: warmup, runs: runs, sample: sample))
            }
        }
        progress.finish()

        let rows = StartupSummary.rows(benchmark: benchmark, samples: samples, environment: environment)
        do {
            if let baselineOut {
                let baseEnvironment = environment.measuring(programIn: "", commit: baselineCommit ?? "unknown")
                let baseRows = StartupSummary.rows(benchmark: benchmark, samples: baseSamples, environment: baseEnvironment)
                try BenchmarkCSV.write(rows: baseRows, to: baselineOut)
                try CommandIO.write("baseline " + StartupSummary.report(benchmark: benchmark, samples: baseSamples, rows: baseRows, out: baselineOut))
            }
            try BenchmarkCSV.write(rows: rows, to: out)
            try CommandIO.write(StartupSummary.report(benchmark: benchmark, samples: samples, rows: rows, out: out))
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
    }
}
