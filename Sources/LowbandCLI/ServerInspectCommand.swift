import ArgumentParser
import Foundation
import LowbandServerStore

/// `lowband server inspect DIR`: the stored messages of a data directory, per chat in
/// server order, as CSV or JSON — also while a server runs on it.
struct ServerInspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the messages stored in a server's --data directory, per chat in server order.",
        discussion: """
            CSV columns: chat_id,message_id,sender_id,client_id,sent_at,text (client_id is empty \
            for seeded messages). JSON: an array of objects with the same fields in camel case. \
            Reads the last commit, so it works while a server runs on the directory.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case csv, json
    }

    @Argument(help: ArgumentHelp("The server's data directory (what `lowband server --data` was given).", valueName: "dir"))
    var data: String

    @Option(help: "Only this chat.")
    var chat: Int64?

    @Option(help: "csv or json.")
    var format: Format = .csv

    init() {}

    func run() throws {
        let name = "lowband server inspect"
        do {
            let rows = try ServerDataExport.messages(in: data, chatID: chat)
            switch format {
            case .csv:
                try CommandIO.write(ServerDataExport.csv(rows))
            case .json:
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try CommandIO.write(Array(try encoder.encode(rows)) + [0x0A])
            }
        } catch {
            throw CommandIO.failure(error, command: name)
        }
    }
}
