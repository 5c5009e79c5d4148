import ArgumentParser
import LowbandScenarios

/// `lowband explain RUN_DIR [--message ID]`: where the time of a run's messages went.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say where the time of a run's slowest messages went (or of one message), from a `lowband run` folder.",
        discussion: """
            Reads record.json and breakdown.csv from a folder written by `lowband run`. Without --message it \
            prints the stages of all deliveries and the slowest ones with what held each up; with --message ID \
            it prints that message's waterfall for every receiver. On a session folder of `lowband explore --exec` \
            (events.jsonl, breakdown.csv) it splits each message's legs into link down, loss stalls, queueing, transit \
            and the app's own time.

            --prove, on a session folder of `lowband explore --exec`, proves the cause its first broken case names: \
            the seed runs again without that fault and with it alone (--prove-runs times each), all else identical, \
            against the same upstreams (they must be running); the verdict goes into verdict.txt, record.json and report.html.
            """
    )

    @Argument(help: "A folder written by `lowband run`, or a session folder of `lowband explore --exec`.")
    var directory: String

    @Option(help: "One message to explain: the server's id in a run, the app's id in a session.")
    var message: String?

    @Option(help: "How many of the slowest deliveries to show.")
    var top: Int = 10

    @Flag(help: "On an `explore --exec` session: prove the first broken case's cause by running the seed again without it and with it alone.")
    var prove = false

    @Option(name: .customLong("prove-runs"), help: "With --prove: runs without the cause, and with it alone (default 3).")
    var proveRuns: Int = 3

    static let name = "lowband explain"

    init() {}

    func run() async throws {
        if prove {
            try await proveCause()
            return
        }
        let text: String
        do {
            if SessionExplanation.isSession(directory) {
                text = try SessionExplanation.report(directory: directory, message: message, top: top)
            } else {
                var id: Int64?
                if let message {
                    guard let number = Int64(message) else {
                        throw CommandIO.IOError(description: "--message \(message): a run's messages are the server's numeric ids")
                    }
                    id = number
                }
                text = try RunExplanation.report(directory: directory, message: id, top: top)
            }
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        try CommandIO.write(text)
    }

    /// `--prove`: the session's own command, parsed as `lowband explore` would, then the proof.
    private func proveCause() async throws {
        let options: ExecOptions
        do {
            guard proveRuns >= 1 else { throw CommandIO.IOError(description: "--prove-runs must be at least 1 (got \(proveRuns))") }
            guard SessionExplanation.isSession(directory) else {
                throw CommandIO.IOError(description: "--prove needs a session folder of `lowband explore --exec` (events.jsonl, network.jsonl, record.json); \(directory) is not one")
            }
            let claim = try SessionProof.claim(folder: directory)
            let words = CommandWords.split(claim.command)
            let parsed = try ExploreSeedsCommand.parse(Array(words.dropFirst(2)))
            guard let exec = parsed.exec else { throw CommandIO.IOError(description: "\(directory)/record.json: its command has no --exec") }
            var parsedOptions = try ExploreExec(command: parsed, exec: exec).parse()
            try await ExploreExec.checkReachable(parsedOptions.upstreams)
            parsedOptions.proveRuns = proveRuns
            options = parsedOptions
        } catch {
            throw CommandIO.failure(error, command: Self.name, status: 2)
        }
        try CommandIO.write("proving the cause of \(directory): \(proveRuns) run(s) without it and \(proveRuns) with it alone\n")
        let proof = try await SessionProof.prove(folder: directory, options: options)
        try CommandIO.write("cause: \(proof)\n")
    }
}
