import Foundation
import LowbandRunReport
import LowbandScenarios
import Testing

/// The records of real virtual runs are written by `RunRecord.prettyJSON` exactly as
/// `JSONEncoder` writes them (`record.json`).
@Suite struct RecordJSONRunTests {
    @Test(arguments: ScenarioName.allCases)
    func aRunsRecordIsEncodedAsJSONEncoderEncodesIt(_ scenario: ScenarioName) async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(scenario, seed: 3, clients: 3, seconds: 90))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let reference = Array(try encoder.encode([output.record]))
        let mine = try RunRecord.prettyJSON([output.record])
        let index = (0..<min(mine.count, reference.count)).first { mine[$0] != reference[$0] } ?? min(mine.count, reference.count)
        let same = mine == reference
        #expect(same, "they part at byte \(index) of \(reference.count)")
        #expect(reference.count > 1_000)
    }
}
