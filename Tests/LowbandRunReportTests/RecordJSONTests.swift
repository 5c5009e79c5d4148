import Foundation
import LowbandDeterminism
import LowbandTestSupport
import Testing

@testable import LowbandRunReport
import LowbandFindings

/// `RunRecord.prettyJSON` writes the bytes `JSONEncoder` writes for `record.json`: `lowband
/// explain`, the report and the byte-identical virtual-time runs depend on it.
@Suite struct RecordJSONTests {
    private static func reference(_ records: [RunRecord]) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return Array(try encoder.encode(records))
    }

    /// Nil when `mine` is `reference` byte for byte, else where they part and the text around it.
    static func difference(_ mine: [UInt8], _ reference: [UInt8]) -> String? {
        guard mine != reference else { return nil }
        let index = (0..<min(mine.count, reference.count)).first { mine[$0] != reference[$0] } ?? min(mine.count, reference.count)
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, index - 80)..<min(bytes.count, index + 80)], as: UTF8.self)
        }
        return "byte \(index) of \(reference.count): wrote …\(around(mine))… JSONEncoder wrote …\(around(reference))…"
    }

    @Test(arguments: [UInt64(1), 2, 3, 42])
    func seededRecordsAreEncodedAsJSONEncoderEncodesThem(seed: UInt64) throws {
        let records = SyntheticRuns.records(seed: seed, clients: 4, samples: 300, durationSeconds: 200)
            .enumerated().map { index, record in Self.filled(record, variant: index, seed: seed) }
        let difference = Self.difference(try RunRecord.prettyJSON(records), try Self.reference(records))
        #expect(difference == nil)
    }

    @Test func doublesIntegersAndEscapesMatch() throws {
        let doubles: [Double] = [
            0, -0.0, 0.1, 1e-7, 123456789.125, 3, -2.5, 1e15, 1.5e15, 9_007_199_254_740_992, 1e16, 1e300,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.000123, 12_345_678_901_234_568, 1.0 / 3, -1e-300,
        ]
        let texts = [
            "", "plain", "quote \" backslash \\ slash / end", "lines\n\r\ttab", "\u{8}\u{c}\u{1}\u{1f}\u{7f}",
            "é ü 😀 \u{2028} 中文", "a\u{0}b",
        ]
        var record = SyntheticRuns.records(seed: 7, clients: 2, samples: 3, durationSeconds: 3)[0]
        record.command = texts.joined(separator: "|")
        record.metrics = [RunMetric(name: "doubles", unit: "x", values: doubles, startSeconds: doubles.map { -$0 })]
        record.metrics += texts.map { RunMetric(name: $0, unit: $0, values: []) }
        record.timeline = texts.map { TimelineEvent(seconds: 1, kind: .note, detail: $0) }
        record.violations = [
            InvariantViolation(invariant: "x", seconds: 0.1, client: Int.max, chat: Int64.min, message: -1, clientID: UInt64.max, detail: "d", traceLines: texts),
        ]
        let records = [record]
        let difference = Self.difference(try RunRecord.prettyJSON(records), try Self.reference(records))
        #expect(difference == nil)
        let empty = Self.difference(try RunRecord.prettyJSON([]), try Self.reference([]))
        #expect(empty == nil)
    }

    /// JSON holds no NaN or infinity: `JSONEncoder` threw on one, and so does the writer, naming
    /// how many, instead of writing `nan` into a file every JSON reader then refuses.
    @Test func aNaNOrInfiniteFigureIsAnErrorAsWithJSONEncoder() throws {
        var record = SyntheticRuns.records(seed: 7, clients: 2, samples: 3, durationSeconds: 3)[0]
        record.metrics = [RunMetric(name: "broken", unit: "x", values: [1, .nan, .infinity], startSeconds: [0, 1, 2])]
        #expect(throws: (any Error).self) { try Self.reference([record]) }
        let error = #expect(throws: RecordJSONError.self) { try RunRecord.prettyJSON([record]) }
        #expect(error?.nonFiniteNumbers == 2)
        #expect(error?.description.contains("2 figure(s) of the run are NaN or infinite") == true)
    }

    /// `record` with every optional and every list of a record set or left out by `variant`.
    private static func filled(_ record: RunRecord, variant: Int, seed: UInt64) -> RunRecord {
        var random = SeededGenerator(seed: seed).derived(UInt64(variant))
        var record = record
        let some = variant % 2 == 0
        record.medianMilliseconds = some ? Double.random(in: 50...900, using: &random) : nil
        record.samplesBelowFloor = some ? variant : nil
        record.settleSeconds = some ? 30 : nil
        record.livenessSeconds = some ? nil : 12.5
        record.floorMilliseconds = variant % 3 == 0 ? nil : record.floorMilliseconds
        record.invariants = variant % 3 == 1 ? [] : [
            InvariantCheck(name: "acknowledged_lost", promise: "An acknowledged message is never \"lost\"", checked: 1_204, violations: variant),
            InvariantCheck(name: "liveness", promise: "sent within 12 s / online", checked: 0, violations: 0),
        ]
        record.violations = []
        for index in 0..<variant {
            let client: Int? = index % 2 == 0 ? index : nil
            let chat: Int64? = index % 3 == 0 ? Int64(index) * 67 : nil
            let message: Int64? = index % 4 == 0 ? nil : Int64(index) + 2_051
            let clientID: UInt64? = index % 2 == 1 ? random.next() : nil
            let traceLines: [String] = index % 2 == 0 ? [] : ["{\"t_ns\":1,\"event\":\"send\"}", "é"]
            let seconds = Double.random(in: 0...200, using: &random)
            record.violations.append(InvariantViolation(
                invariant: "liveness", seconds: seconds, client: client, chat: chat, message: message, clientID: clientID,
                detail: "expected \(index), found \\none", traceLines: traceLines))
        }
        record.stages = []
        for stage in LatencyStage.allCases {
            var values: [Double] = []
            for _ in 0..<(variant * 3) { values.append(Double.random(in: 0...5_000, using: &random)) }
            record.stages.append(RunMetric(name: "stage.\(stage.rawValue)", unit: "ms", values: values))
        }
        record.slowest = []
        for index in 0..<(2 * variant) {
            var stages: [Double] = []
            for _ in LatencyStage.allCases { stages.append((Double.random(in: 0...900, using: &random) * 1_000).rounded() / 1_000) }
            let sender: Int? = index % 2 == 0 ? nil : index
            record.slowest.append(MessageBreakdown(
                message: Int64(index), chat: Int64(index % 5), sender: sender, receiver: index + 1, startSeconds: Double(index) * 1.25,
                stages: stages, carrier: index % 3 == 0 ? "login" : "push", attempts: 1 + index % 3))
        }
        return record
    }
}
