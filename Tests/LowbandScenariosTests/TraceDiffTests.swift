import Foundation
import LowbandScenarios
import LowbandTestSupport
import Testing

/// `lowband trace diff` as a library: two traces compared decision by decision, clock readings
/// ignored unless asked for, the first divergence named by decision, line and field.
@Suite struct TraceDiffTests {
    private func write(_ lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    private func compare(_ a: [String], _ b: [String], keepTime: Bool = false) throws -> TraceDiff.Outcome {
        let directory = try TemporaryDirectory(prefix: "lowband-trace")
        let (pathA, pathB) = (directory.file("a.jsonl"), directory.file("b.jsonl"))
        try write(a, to: pathA)
        try write(b, to: pathB)
        return try TraceDiff.compare(try TraceLineReader(path: pathA), try TraceLineReader(path: pathB), keepTime: keepTime)
    }

    static let line1 = #"{"t_ns":100,"event":"deliver","conn":0,"dir":"down","bytes":40,"delay_ns":5,"queued":0,"detail":null}"#
    static let line2 = #"{"t_ns":200,"event":"deliver","conn":1,"dir":"up","bytes":52,"delay_ns":5,"queued":0,"detail":null}"#

    @Test func theSameDecisionsAtOtherTimesAreIdenticalUnlessTimesCount() throws {
        let later = Self.line1.replacingOccurrences(of: "\"t_ns\":100", with: "\"t_ns\":150")
        #expect(try compare([Self.line1, Self.line2], [later, Self.line2]) == .identical(decisions: 2))
        guard case .diverged(let divergence) = try compare([Self.line1, Self.line2], [later, Self.line2], keepTime: true) else {
            Issue.record("times kept, yet no divergence")
            return
        }
        #expect(divergence.decision == 1 && divergence.field == "t_ns")
    }

    @Test func theFirstDifferingFieldAndAnEarlyEndAreNamed() throws {
        let other = Self.line2.replacingOccurrences(of: "\"bytes\":52", with: "\"bytes\":53")
        let outcome = try compare([Self.line1, Self.line2], [Self.line1, other])
        #expect(TraceDiff.report(outcome, "a", "b").hasPrefix("first divergence at decision 2: a line 2, b line 2: field 'bytes' differs\na:2: {"))
        let short = try compare([Self.line1], [Self.line1, Self.line2])
        #expect(TraceDiff.report(short, "a", "b").hasPrefix("first divergence at decision 2: a ends after 1 decisions; b goes on at line 2"))
    }

    @Test func decisionsOfOneInstantInAnotherOrderAreTheSameDecisions() throws {
        // One seed, two runs: an outage began in the very nanosecond a piece was delivered, and
        // the two were written the other way round.
        let outage = #"{"t_ns":200,"event":"outage-start","conn":null,"dir":null,"bytes":null,"delay_ns":1000,"queued":null,"detail":"handover"}"#
        for keepTime in [false, true] {
            #expect(try compare([Self.line1, outage, Self.line2], [Self.line1, Self.line2, outage], keepTime: keepTime) == .identical(decisions: 3))
        }
        // A real difference inside the instant is still named, with the line it is on.
        let other = Self.line2.replacingOccurrences(of: "\"bytes\":52", with: "\"bytes\":99")
        guard case .diverged(let divergence) = try compare([Self.line1, outage, Self.line2], [Self.line1, other, outage], keepTime: true) else {
            Issue.record("a changed decision went unnoticed")
            return
        }
        #expect(divergence.field == "bytes" && divergence.lineA == 3 && divergence.lineB == 2)
    }

    @Test func aLineThatIsNoJSONObjectNamesItsFileAndLine() throws {
        #expect(throws: TraceDiffError.self) { try compare([Self.line1, "not json"], [Self.line1, Self.line2]) }
    }
}
