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
            it prints that message's waterfall for every receiver.
            """
    )

    @Argument(help: "A folder written by `lowband run`.")
    var directory: String

    @Option(help: "The server's id of one message to explain.")
    var message: Int64?

    @Option(help: "How many of the slowest deliveries to show.")
    var top: Int = 10

    static let name = "lowband explain"

    init() {}

    func run() async throws {
        let text: String
        do {
            text = try RunExplanation.report(directory: directory, message: message, top: top)
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        try CommandIO.write(text)
    }
}
