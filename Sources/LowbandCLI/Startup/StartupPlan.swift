import ArgumentParser
import Foundation
import LowbandBasics
import LowbandProcess
import LowbandReports
import LowbandStartup

/// What `lowband startup` was asked to do, resolved: the program, its marker and environment,
/// the launches to time and to count, and where their rows go.
struct StartupPlan {
    static let commandName = StartupCommand.commandName

    let options: StartupCommand
    let measures: StartupMeasures
    let executable: String
    /// The program's own arguments, after its name.
    let arguments: [String]
    let marker: Regex<AnyRegexOutput>?
    let pattern: String
    /// How long a plain run may take to print the marker.
    let limit: Duration
    /// How long a run under callgrind may take: --timeout when given, else 10 minutes.
    let instrumentedLimit: Duration
    /// This process's environment with --env applied, sorted: the same bytes in every run.
    let environment: [String]
    let benchmark: String
    let tools: InstrumentedLaunch.Tools?

    init(_ options: StartupCommand) throws {
        self.options = options
        measures = StartupMeasures.parseOrTime(options.measure)
        let program = options.command.first == "--" ? Array(options.command.dropFirst()) : options.command
        let instrumented = measures.instrumented || options.checkDeterminism != nil
        do {
            executable = try ExecutableSearch.resolve(program[0])
            marker = try options.until.map { try Regex($0) }
            let given = try options.timeout.map { try DurationText.parse($0) }
            limit = given ?? .seconds(30)
            instrumentedLimit = given ?? .seconds(600)
        } catch {
            throw CommandIO.failure(error, command: Self.commandName)
        }
        pattern = options.until ?? ""
        benchmark = options.name ?? (program[0] as NSString).lastPathComponent
        var entries = options.clearEnv ? [:] : ProcessInfo.processInfo.environment
        for entry in options.environment {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            entries[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        environment = entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        tools = instrumented ? InstrumentedLaunch.Tools.locate() : nil
        if instrumented, tools == nil {
            CommandIO.reportError(CommandIO.IOError(description: InstrumentedLaunch.Tools.installHint), command: Self.commandName)
            throw ExitCode(2)
        }
        arguments = Array(program.dropFirst())
    }

    /// The plain launch of the program, or of the baseline command through the shell.
    func timedLaunch(baseline: String? = nil) -> ProgramLaunch? {
        guard let marker else { return nil }
        if let baseline {
            // The shell execs it: a millisecond of sh is the only difference.
            return ProgramLaunch(executable: "/bin/sh", arguments: ["-c", "exec \(baseline)"], environment: environment, marker: marker, pattern: pattern, timeout: limit)
        }
        return ProgramLaunch(executable: executable, arguments: arguments, environment: environment, marker: marker, pattern: pattern, timeout: limit)
    }

    /// The launch under callgrind. With a baseline command both sides run through the same
    /// `sh -c 'exec …'`, so the shell's few hundred thousand instructions fall on both alike.
    func instrumentedLaunch(baseline: String? = nil, paired: Bool = false) -> InstrumentedLaunch? {
        guard let tools else { return nil }
        let (program, words): (String, [String]) = if let baseline {
            ("/bin/sh", ["-c", "exec \(baseline)"])
        } else if paired {
            ("/bin/sh", ["-c", #"exec "$0" "$@""#, executable] + arguments)
        } else {
            (executable, arguments)
        }
        return InstrumentedLaunch(
            tools: tools, executable: program, arguments: words, environment: environment,
            marker: marker, pattern: pattern, timeout: instrumentedLimit, cacheSimulation: measures.cycles
        )
    }

    /// `--check-determinism N`: N counted runs, their spread; exit 1 when they differ.
    func checkDeterminism(runs: Int) throws {
        guard let launch = instrumentedLaunch() else { return }
        let progress = StartupProgress()
        var samples: [InstrumentedLaunch.Sample] = []
        for index in 0 ..< runs {
            do {
                samples.append(try launch.run())
            } catch {
                progress.finish()
                throw CommandIO.failure("instrumented run \(index + 1) of \(runs): \(error.description)", command: Self.commandName)
            }
            progress.show(StartupSummary.instrumentedProgressLine(index: index, warmup: 0, runs: runs, sample: samples[index]))
        }
        progress.finish()
        let counts = samples.map(\.instructions)
        let (difference, fraction) = StartupSummary.spread(counts)
        var text = "\(benchmark): \(runs) runs under callgrind\n" + StartupSummary.instructionLines(samples: samples)
        for note in Set(samples.flatMap(\.notes)).sorted() { text += "  note: \(note)\n" }
        if difference == 0 {
            text += "deterministic: the same \(StartupSummary.grouped(counts[0])) instructions in every run (spread 0)\n"
            try? CommandIO.write(text)
            return
        }
        text += "not deterministic: spread \(StartupSummary.grouped(difference)) instructions (\(StartupSummary.percent(fraction))): "
            + counts.map(StartupSummary.grouped).joined(separator: ", ") + "\n" + StartupSummary.movers + "\n"
        try? CommandIO.write(text)
        throw ExitCode.failure
    }
}
