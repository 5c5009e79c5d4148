import Foundation
import LowbandAppEvents

/// `lowband explain` on a session folder of `explore --exec` (events.jsonl, breakdown.csv,
/// verdict.txt): where the time of its slowest messages went, or of one message.
package enum SessionExplanation {
    /// True when `directory` is a session folder rather than a `lowband run` folder.
    package static func isSession(_ directory: String) -> Bool {
        let files = FileManager.default
        // Only a session folder has the proxies' decisions (network.jsonl); both have a record.json.
        return files.fileExists(atPath: "\(directory)/events.jsonl") && files.fileExists(atPath: "\(directory)/breakdown.csv")
            && files.fileExists(atPath: "\(directory)/network.jsonl")
    }

    /// The explanation: with `message`, every leg of that message; without, the parts over all
    /// legs and the `top` slowest.
    package static func report(directory: String, message: String?, top: Int) throws -> String {
        let file = "\(directory)/breakdown.csv"
        guard let data = FileManager.default.contents(atPath: file), data.count <= 64 << 20 else {
            throw RunExplanation.Failure(description: "cannot read \(file) (missing, unreadable or over 64 MiB)")
        }
        let rows = try EventBreakdown.parse(String(decoding: data, as: UTF8.self), file: file)
        let verdict = (try? String(contentsOfFile: "\(directory)/verdict.txt", encoding: .utf8)) ?? ""
        var text = (verdict.split(separator: "\n").first.map(String.init) ?? directory) + "\n"
        if let message {
            let legs = rows.filter { $0.message == message }
            guard let first = legs.first else {
                throw RunExplanation.Failure(description: "\(file): message \(message) has no acknowledgement or delivery in this session (try one of the slowest: lowband explain \(directory))")
            }
            text += "\nmessage \(message) of chat \(first.chat), sent at \(String(format: "%.3f", first.sentSeconds)) s\n"
            for leg in legs { text += waterfall(leg) }
            let lines = verdict.split(separator: "\n").filter { $0.contains("message \(message) ") }
            if !lines.isEmpty { text += "\nbroken promises naming it:\n" + lines.map { "  " + $0.trimmingCharacters(in: .whitespaces) + "\n" }.joined() }
            return text
        }
        guard !rows.isEmpty else { return text + "no message was acknowledged or delivered in this session\n" }
        let total = rows.reduce(0) { $0 + $1.totalMilliseconds }
        text += "\nwhere the time went, over \(rows.count) legs (\(String(format: "%.1f", total / 1000)) s in all):\n"
        for (index, part) in rows[0].parts.enumerated() {
            let sum = rows.reduce(0) { $0 + $1.parts[index].milliseconds }
            text += "  \(part.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%9.1f ms  %5.1f %%", sum, total > 0 ? sum / total * 100 : 0))\n"
        }
        text += "\nslowest legs:\n"
        for row in rows.sorted(by: { $0.totalMilliseconds > $1.totalMilliseconds }).prefix(max(1, top)) {
            text += "  \(row.message) → \(row.leg): \(String(format: "%.1f", row.totalMilliseconds)) ms (" + row.parts.filter { $0.milliseconds > 0 }
                .map { "\($0.name) \(String(format: "%.1f", $0.milliseconds))" }.joined(separator: ", ") + ")\n"
        }
        text += "\n`lowband explain \(directory) --message ID` shows one message's legs.\n"
        return text
    }

    private static func waterfall(_ row: EventBreakdown) -> String {
        var text = "  → \(row.leg): \(String(format: "%.1f", row.totalMilliseconds)) ms\n"
        for part in row.parts {
            let share = row.totalMilliseconds > 0 ? part.milliseconds / row.totalMilliseconds : 0
            let bar = String(repeating: "█", count: Int((share * 40).rounded()))
            text += "      \(part.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%9.1f ms", part.milliseconds)) \(bar)\n"
        }
        return text
    }
}
