import ArgumentParser
import Foundation
import LowbandRunReport
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
        let records: [RunRecord]
        do {
            records = try Self.records(in: directory)
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        var text = ""
        for record in records {
            let file = records.count == 1 ? "breakdown.csv" : "breakdown-\(RunOutputs.fileSafe(record.profile)).csv"
            let rows: [MessageBreakdown]
            do {
                rows = try Self.breakdown(at: "\(directory)/\(file)", only: message)
            } catch {
                throw CommandIO.failure(error, command: Self.name)
            }
            text += "\(record.scenario) on \(record.profile), seed \(record.seed)\(record.partial ? " (partial)" : ""): \(record.command)\n"
            if let message {
                guard !rows.isEmpty else {
                    throw CommandIO.failure("\(directory)/\(file): message \(message) reached no client of the run (try one of the slowest: lowband explain \(directory))", command: Self.name)
                }
                for row in rows { text += "\n" + Self.waterfall(row) }
            } else {
                let stages = RunOutputs.stages(record)
                text += stages.isEmpty ? "no message was delivered to a client of the run\n" : "\n" + stages
                if !record.slowest.isEmpty {
                    text += "\nslowest deliveries:\n"
                    for row in record.slowest.prefix(max(1, top)) { text += Self.oneLine(row) + "\n" }
                    text += "\n`lowband explain \(directory) --message ID` shows one message's waterfall.\n"
                }
                let checks = RunOutputs.invariants(record)
                if !checks.isEmpty { text += "\n" + checks }
            }
            text += "\n"
        }
        try CommandIO.write(text)
    }

    /// The records of a run folder; errors say which file is missing or broken.
    static func records(in directory: String) throws -> [RunRecord] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandIO.IOError(description: "\(directory) is not a folder")
        }
        let path = "\(directory)/record.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandIO.IOError(description: "\(directory) has no record.json: not a folder written by lowband run")
        }
        guard FileManager.default.fileExists(atPath: "\(directory)/trace.jsonl") || (try? FileManager.default.contentsOfDirectory(atPath: directory))?.contains(where: { $0.hasPrefix("trace-") }) == true else {
            throw CommandIO.IOError(description: "\(directory) has no trace.jsonl: not a complete folder written by lowband run")
        }
        do {
            return try JSONDecoder().decode([RunRecord].self, from: data)
        } catch {
            throw CommandIO.IOError(description: "\(path) is not a run record: \(error)")
        }
    }

    static func breakdown(at path: String, only message: Int64?) throws -> [MessageBreakdown] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw CommandIO.IOError(description: "cannot read \(path): the run was written before explain existed, or the file is gone")
        }
        do {
            return try BreakdownTable.parse(text, only: message)
        } catch {
            throw CommandIO.IOError(description: "\(path):\(error)")
        }
    }

    /// `msg 2051 → client 12: 546012 ms, 99% outbox wait — the sender's outbox held it (3 attempts)`.
    static func oneLine(_ row: MessageBreakdown) -> String {
        let total = row.totalMilliseconds
        let (stage, value) = dominant(row)
        let share = total > 0 ? Int((value / total * 100).rounded()) : 0
        let from = row.sender.map { "client \($0)" } ?? "the server"
        return String(format: "  msg %lld (chat %lld, from %@) → client %d at %.1f s: %@ ms, %d%% %@ — %@",
                      row.message, row.chat, from, row.receiver, row.startSeconds, RunOutputs.number(total.rounded()), share, stage.label, why(stage, row))
    }

    static func dominant(_ row: MessageBreakdown) -> (LatencyStage, Double) {
        var best = (LatencyStage.allCases[0], -1.0)
        for (index, stage) in LatencyStage.allCases.enumerated() where index < row.stages.count && row.stages[index] > best.1 {
            best = (stage, row.stages[index])
        }
        return best
    }

    static func why(_ stage: LatencyStage, _ row: MessageBreakdown) -> String {
        switch stage {
        case .outboxWait: row.attempts > 1 ? "the sender's outbox held it; sent \(row.attempts) times" : "the sender's outbox held it before its one send"
        case .uplinkQueue, .downlinkQueue: "queued behind other bytes on the shared link, or held while the link was down"
        case .uplinkLossStalls, .downlinkLossStalls: "retransmission time-outs after losses on the link"
        case .uplinkTransit, .downlinkTransit: "serialisation and propagation on the link"
        case .server: "in the server"
        case .resyncWait: "the receiver had no session; its next login's delta sync carried it"
        case .clientStore: "the receiving app was busy or suspended before it stored it"
        case .screenQueue: "the chat screen's update queue was busy"
        }
    }

    /// One receiver's stages, each with a bar on a shared scale, like a network panel.
    static func waterfall(_ row: MessageBreakdown) -> String {
        let total = row.totalMilliseconds
        let width = 40
        var text = String(format: "message %lld (chat %lld) from %@ to client %d, stored at %.3f s, via %@: %@ ms\n",
                          row.message, row.chat, row.sender.map { "client \($0)" } ?? "the server", row.receiver, row.startSeconds,
                          row.carrier, RunOutputs.number((total * 10).rounded() / 10))
        var elapsed = 0.0
        for (index, stage) in LatencyStage.allCases.enumerated() where index < row.stages.count && row.stages[index] > 0 {
            let value = row.stages[index]
            let start = total > 0 ? Int((elapsed / total * Double(width)).rounded()) : 0
            let length = total > 0 ? max(1, Int((value / total * Double(width)).rounded())) : 1
            let bar = String(repeating: " ", count: min(start, width)) + String(repeating: "█", count: min(length, width - min(start, width - 1)))
            text += "  " + stage.label.padding(toLength: 22, withPad: " ", startingAt: 0)
                + String(format: "%12.1f ms  ", value) + "|" + bar.padding(toLength: width, withPad: " ", startingAt: 0) + "|\n"
            elapsed += value
        }
        let (stage, _) = dominant(row)
        text += "  mostly \(stage.label): \(why(stage, row))\n"
        return text
    }
}
