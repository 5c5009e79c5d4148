import Foundation
import LowbandRunReport
import LowbandScenarios
import Testing

/// Virtual time replays to the byte: the seed fixes the network's decisions and the workload.
@Suite struct DeterminismTests {
    private static func encoded(_ record: RunRecord) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(record)
    }

    @Test(arguments: ScenarioName.allCases)
    func theSameSeedGivesTheSameRecordAndTrace(_ scenario: ScenarioName) async throws {
        let options = try ScenarioFixtures.virtualOptions(scenario, seed: 42, clients: 3, seconds: 90)
        let first = try await ScenarioFixtures.run(options)
        let second = try await ScenarioFixtures.run(options)
        #expect(try Self.encoded(first.record) == Self.encoded(second.record))
        #expect(first.trace == second.trace)
        // A pocket's phone is quiet by design: a login and little else in 90 s.
        #expect(first.trace.count > (scenario == .pocket ? 20 : 100))
        #expect(first.record.metrics.contains { !$0.values.isEmpty })
    }

    @Test func anotherSeedGivesAnotherRun() async throws {
        let first = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.pushToVisible, seed: 1, seconds: 30))
        let second = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.pushToVisible, seed: 2, seconds: 30))
        #expect(first.trace != second.trace)
        #expect(first.record.values("push_to_visible") != second.record.values("push_to_visible"))
    }

    @Test func traceLinesHaveAFixedKeyOrderAndAscendingRunTimes() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.subway, seconds: 200))
        let shaperKeys = ["t_ns", "event", "conn", "dir", "bytes", "delay_ns", "queued", "detail"]
        let clientKeys = ["t_ns", "event", "client", "chat", "message", "value_ns", "detail"]
        var sawShaper = false
        var sawClient = false
        for line in output.trace {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let keys = Self.keys(of: line)
            if object["conn"] != nil {
                #expect(keys == shaperKeys)
                sawShaper = true
            } else {
                #expect(keys == clientKeys, "\(line)")
                sawClient = true
            }
        }
        #expect(sawShaper && sawClient)
        #expect(output.trace.contains { $0.contains("\"event\":\"outage-start\"") })
        #expect(output.trace.contains { $0.contains("\"event\":\"reconnect\"") })
    }

    /// The keys of a flat JSON object in the order written.
    private static func keys(of line: String) -> [String] {
        var keys: [String] = []
        // Keys are the strings directly followed by a colon.
        let scalars = Array(line.unicodeScalars)
        var index = 0
        var inString = false
        var current = ""
        var escaped = false
        while index < scalars.count {
            let scalar = scalars[index]
            if inString {
                if escaped {
                    escaped = false
                    current.unicodeScalars.append(scalar)
                } else if scalar == "\\" {
                    escaped = true
                } else if scalar == "\"" {
                    inString = false
                    if index + 1 < scalars.count, scalars[index + 1] == ":" { keys.append(current) }
                } else {
                    current.unicodeScalars.append(scalar)
                }
            } else if scalar == "\"" {
                inString = true
                current = ""
            }
            index += 1
        }
        return keys
    }
}
