import ArgumentParser
import LowbandScenarios

/// `lowband trace`: work with the JSON-lines traces of `lowband proxy --trace` and `lowband run`.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Work with traces (proxy --trace, a run's trace.jsonl).",
        subcommands: [TraceDiffCommand.self]
    )

    init() {}
}

/// `lowband trace diff A B`: the first decision where two traces part, or that there is none.
///
/// Exit status 0 when every decision is the same, 1 at the first divergence (both lines, their
/// line numbers and the field that differs), 2 when a file cannot be read or a line is not a
/// JSON object (one line naming the file and line).
struct TraceDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two traces on their decisions and name the first divergence.",
        discussion: """
            Lines are compared field by field, without t_ns (when it happened, by the wall clock \
            for the proxy and socket runs) and value_ns (a measured figure). Virtual-time traces \
            (lowband run --virtual-time) are exact to the nanosecond: pass --time to compare those \
            fields too. Exit status: 0 identical, 1 they differ, 2 a file could not be read.
            """
    )

    @Argument(help: "The first trace (JSON lines).")
    var a: String

    @Argument(help: "The second trace (JSON lines).")
    var b: String

    @Flag(help: "Compare t_ns and value_ns too (for virtual-time traces).")
    var time = false

    init() {}

    func run() throws {
        let command = "lowband trace diff"
        let outcome: TraceDiff.Outcome
        do {
            outcome = try TraceDiff.compare(try TraceLineReader(path: a), try TraceLineReader(path: b), keepTime: time)
        } catch {
            CommandIO.reportError(error, command: command)
            throw ExitCode(2)
        }
        do {
            try CommandIO.write(TraceDiff.report(outcome, a, b))
        } catch {
            throw CommandIO.failure(error, command: command)
        }
        if case .diverged = outcome { throw ExitCode(1) }
    }
}
