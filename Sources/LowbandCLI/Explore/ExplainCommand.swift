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
            """
    )

    @Argument(help: "A folder written by `lowband run`, or a session folder of `lowband explore --exec`.")
    var directory: String

    @Option(help: "One message to explain: the server's id in a run, the app's id in a session.")
    var message: String?

    @Option(help: "How many of the slowest deliveries to show.")
    var top: Int = 10

    static let name = "lowband explain"

    init() {}

    func run() async throws {
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
}
