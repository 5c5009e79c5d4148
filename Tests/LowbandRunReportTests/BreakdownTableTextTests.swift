import Foundation
import LowbandDeterminism
import LowbandTestSupport
import Testing

@testable import LowbandRunReport

/// `breakdown.csv` is written byte by byte; its text must stay what the field-by-field
/// `String` version wrote (`lowband explain` and the byte-identical virtual runs read it).
@Suite struct BreakdownTableTextTests {
    /// A CSV field as RFC 4180 quotes it.
    private static func csvField(_ text: String) -> String {
        text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// The writer before it wrote bytes: one `String` per field, joined (and the `note` since).
    private static func reference(_ rows: [MessageBreakdown]) -> String {
        func fixed(_ value: Double, _ digits: Int) -> String {
            var scale = 1.0
            for _ in 0 ..< digits { scale *= 10 }
            let rounded = (value * scale).rounded() / scale
            let whole = Int64(rounded.rounded(.towardZero))
            var fraction = Int64(((abs(rounded) - Double(abs(whole))) * scale).rounded())
            var wholePart = whole
            if fraction >= Int64(scale) {
                fraction -= Int64(scale)
                wholePart += rounded < 0 ? -1 : 1
            }
            let digitsText = String(fraction)
            let sign = rounded < 0 && wholePart == 0 ? "-" : ""
            return "\(sign)\(wholePart).\(String(repeating: "0", count: digits - digitsText.count))\(digitsText)"
        }
        var text = BreakdownTable.columns.joined(separator: ",") + "\n"
        for row in rows {
            var fields = [String(row.message), String(row.chat), row.sender.map(String.init) ?? "", String(row.receiver)]
            fields.append(fixed(row.startSeconds, 6))
            fields.append(row.carrier)
            fields.append(String(row.attempts))
            fields.append(fixed(row.totalMilliseconds, 3))
            fields += row.stages.map { fixed($0, 3) }
            fields.append(row.note.map(csvField) ?? "")
            text += fields.joined(separator: ",") + "\n"
        }
        return text
    }

    @Test func theTextIsTheOneTheStringWriterWrote() {
        let edges: [Double] = [0, -0.0, 0.0004, 0.0005, 0.9995, 0.99949, -0.0004, -0.0005, -0.5, -1.9996, 1e-7, 123456789.125, 12.5, 3_600_000.25, -42]
        var random = SeededGenerator(seed: 13)
        var rows: [MessageBreakdown] = []
        for index in 0 ..< 400 {
            var stages: [Double] = []
            for stage in LatencyStage.allCases.indices {
                stages.append(index < edges.count ? edges[(index + stage) % edges.count] : Double.random(in: -10...90_000, using: &random))
            }
            let sender: Int? = index % 3 == 0 ? nil : index * 7
            let start = index < edges.count ? edges[index] : Double.random(in: 0...3_600, using: &random)
            var row = MessageBreakdown(
                message: index == 1 ? Int64.max : (index == 2 ? Int64.min : Int64(index) * 1_000_003), chat: Int64(index % 9) - 4,
                sender: sender, receiver: index % 100, startSeconds: start, stages: index == 3 ? [] : stages,
                carrier: index % 2 == 0 ? "push" : "login", attempts: index % 4)
            if index % 5 == 1 { row.note = index % 10 == 1 ? "its push waited on connection 7, then \"timed out\"" : "plain note" }
            rows.append(row)
        }
        #expect(BreakdownTable.render(rows) == Self.reference(rows))
        let sameBytes = BreakdownTable.renderUTF8(rows) == Array(Self.reference(rows).utf8)
        #expect(sameBytes)
        let sameEmpty = BreakdownTable.renderUTF8([]) == Array(Self.reference([]).utf8)
        #expect(sameEmpty)
    }

    /// The rounding itself, on values exact in binary, against text written by hand: the
    /// reference above shares its arithmetic, this does not.
    @Test func fixedDecimalsRoundHalfAwayFromZeroAndNeverWriteMinusZero() {
        let row = MessageBreakdown(
            message: 5, chat: 1, sender: nil, receiver: 2, startSeconds: 2.5,
            stages: [-0.5, 12.5, 0.0625, -0.0625, -0.0001, 0, 0, 0, 0, 0, 1_000_000], carrier: "push", attempts: 0)
        let lines = BreakdownTable.render([row]).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.last == "5,1,,2,2.500000,push,0,1000012.000,-0.500,12.500,0.063,-0.063,0.000,0.000,0.000,0.000,0.000,0.000,1000000.000,")
    }
}
