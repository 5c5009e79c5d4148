import Foundation
package import LowbandRunReport

/// `lowband explain`: where the time of a run's slowest messages went, or of one message, read
/// back from a folder `lowband run` wrote (record.json and breakdown.csv).
package enum RunExplanation {
    /// Why a folder cannot be explained: what is missing or broken, and where.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The explanation of the run in `directory`: with `message`, that message's waterfall for
    /// every receiver; without, the stages of all deliveries and the `top` slowest.
    package static func report(directory: String, message: Int64?, top: Int) throws -> String {
        let records = try Self.records(in: directory)
        var text = ""
        for record in records {
            let file = records.count == 1 ? "breakdown.csv" : "breakdown-\(RunOutputs.fileSafe(record.profile)).csv"
            let rows = try Self.breakdown(at: "\(directory)/\(file)", only: message)
            text += "\(record.scenario) on \(record.profile), seed \(record.seed)\(record.partial ? " (partial)" : ""): \(record.command)\n"
            if let message {
                guard !rows.isEmpty else {
                    throw Failure(description: "\(directory)/\(file): message \(message) reached no client of the run (try one of the slowest: lowband explain \(directory))")
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
                let faultsFile = records.count == 1 ? "faults.txt" : "faults-\(RunOutputs.fileSafe(record.profile)).txt"
                if let faults = FileManager.default.contents(atPath: "\(directory)/\(faultsFile)").flatMap({ String(data: $0, encoding: .utf8) }) {
                    text += "\nfaults (\(faultsFile); `--without-faults N` leaves one out, all else identical):\n"
                    text += faults.split(separator: "\n").prefix(200).map { "  \($0)\n" }.joined()
                }
                let checks = RunOutputs.invariants(record)
                if !checks.isEmpty { text += "\n" + checks }
            }
            text += "\n"
        }
        return text
    }

    /// The records of a run folder; errors say which file is missing or broken.
    package static func records(in directory: String) throws -> [RunRecord] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "\(directory) is not a folder")
        }
        let path = "\(directory)/record.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(directory) has no record.json: not a folder written by lowband run")
        }
        guard FileManager.default.fileExists(atPath: "\(directory)/trace.jsonl") || (try? FileManager.default.contentsOfDirectory(atPath: directory))?.contains(where: { $0.hasPrefix("trace-") }) == true else {
            throw Failure(description: "\(directory) has no trace.jsonl: not a complete folder written by lowband run")
        }
        do {
            return try JSONDecoder().decode([RunRecord].self, from: data)
        } catch {
            throw Failure(description: "\(path) is not a run record: \(error)")
        }
    }

    package static func breakdown(at path: String, only message: Int64?) throws -> [MessageBreakdown] {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Failure(description: "cannot read \(path): the run was written before explain existed, or the file is gone")
        }
        do {
            return try BreakdownTable.parse(text, only: message)
        } catch {
            throw Failure(description: "\(path):\(error)")
        }
    }

    /// `msg 2051 → client 12: 546012 ms, 99% outbox wait — the sender's outbox held it (3 attempts)`.
    package static func oneLine(_ row: MessageBreakdown) -> String {
        let total = row.totalMilliseconds
        let (stage, value) = dominant(row)
        let share = total > 0 ? Int((value / total * 100).rounded()) : 0
        let from = row.sender.map { "client \($0)" } ?? "the server"
        return String(format: "  msg %lld (chat %lld, from %@) → client %d at %.1f s: %@ ms, %d%% %@ — %@",
                      row.message, row.chat, from, row.receiver, row.startSeconds, RunOutputs.number(total.rounded()), share, stage.label, why(stage, row))
    }

    package static func dominant(_ row: MessageBreakdown) -> (LatencyStage, Double) {
        var best = (LatencyStage.allCases[0], -1.0)
        for (index, stage) in LatencyStage.allCases.enumerated() where index < row.stages.count && row.stages[index] > best.1 {
            best = (stage, row.stages[index])
        }
        return best
    }

    package static func why(_ stage: LatencyStage, _ row: MessageBreakdown) -> String {
        if let note = row.note, [.downlinkQueue, .downlinkLossStalls, .resyncWait].contains(stage) { return note }
        return switch stage {
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
    package static func waterfall(_ row: MessageBreakdown) -> String {
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
