import Foundation
@testable import LowbandCLI
import LowbandTestSupport
import Testing

/// `lowband run --compression-dictionary on|off|both`: the engines offer the wire dictionary or
/// not, and `both` sets each profile's runs without and with it side by side, as ratios of one
/// command's runs.
@Suite struct RunDictionaryOptionTests {
    @Test func parsesOnOffAndBoth() throws {
        #expect(try RunCommand.parse([]).dictionaryVariants == [true], "on by default: the product's default")
        #expect(try RunCommand.parse(["--compression-dictionary", "off"]).dictionaryVariants == [false])
        #expect(try RunCommand.parse(["--compression-dictionary", "both"]).dictionaryVariants == [false, true])
        #expect(throws: (any Error).self) { try RunCommand.parse(["--compression-dictionary", "maybe"]) }
    }

    @Test func bothRunsEachProfileWithoutAndWithTheDictionaryAndGivesTheRatios() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-dictionary")
        let out = directory.path
        let child = try await LowbandBinary.start([
            "run", "--profiles", "gprs,edge", "--duration", "120s", "--virtual-time", "--compression-dictionary", "both", "--out", out,
        ])
        let (heading, _) = try await child.lines { $0.hasPrefix("the wire dictionary against plain LZ4") }
        #expect(heading.contains("measured in this run"))
        #expect(try await child.exitStatus(timeout: .seconds(120)) == 0)
        let csv = try String(contentsOfFile: "\(out)/results.csv", encoding: .utf8)
        for profile in ["gprs", "edge"] {
            #expect(csv.contains("\nrun.push-to-visible,\(profile)-plain-lz4,bytes_per_message,bytes,"))
            #expect(csv.contains("\nrun.push-to-visible,\(profile)-dictionary,bytes_per_message,bytes,"))
            let row = try #require(csv.split(separator: "\n").first { $0.hasPrefix("run.push-to-visible,\(profile),bytes_per_message_dictionary_vs_plain,x,") })
            let ratio = try #require(Double(row.split(separator: ",")[4]))
            #expect(ratio < 0.8, "\(profile): bytes per delivered message, dictionary over plain LZ4: \(ratio)")
            #expect(csv.contains("\nrun.push-to-visible,\(profile),push_to_visible_p50_dictionary_vs_plain,x,"))
            #expect(FileManager.default.fileExists(atPath: "\(out)/trace-\(profile)-dictionary.jsonl"))
        }
        let command = try String(contentsOfFile: "\(out)/record.json", encoding: .utf8)
        #expect(command.contains("--compression-dictionary both"), "the reproducing command keeps the option")
    }
}
