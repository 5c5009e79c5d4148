import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandTestSupport
import Testing

/// `lowband profiles list` and `show`: parsing, and the built binary on the shipped profiles and
/// on users' own files.
@Suite struct ProfilesCommandTests {
    private let lowband = LowbandBinary.path
    private static let ownNames = ["3g", "edge", "flapping", "gprs", "handover", "lte-radio", "offline", "perfect", "subway"]
    private static let groups = [
        "Lowband", "Chrome DevTools", "Facebook ATC", "Network Link Conditioner", "comcast", "sitespeed.io throttle",
    ]

    /// This process's environment with `LOWBAND_PROFILES` set (or removed when nil).
    private func environment(profiles: String?) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LOWBAND_PROFILES"] = profiles
        return environment
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private func profileText(description: String = "my own link", downlinkLoss: String = "1%") -> String {
        """
        description: \(description)
        downlink:
          rate: {value: 100kbit, source: "measured on my phone"}
          delay: 300ms
          loss: \(downlinkLoss)
          queue: 20KB
        uplink:
          rate: 50kbit
          delay: 300ms
          queue: 20KB

        """
    }

    // MARK: Parsing

    @Test func parsesListAndShow() throws {
        #expect(try Lowband.parseAsRoot(["profiles", "list"]) is ProfilesCommand.List)
        let show = try #require(try Lowband.parseAsRoot(["profiles", "show", "edge", "--json"]) as? ProfilesCommand.Show)
        #expect(show.profile == "edge")
        #expect(show.json)
        let plain = try #require(try ProfilesCommand.parseAsRoot(["show", "./mine.yaml"]) as? ProfilesCommand.Show)
        #expect(plain.profile == "./mine.yaml" && !plain.json)
        #expect(throws: (any Error).self) { try ProfilesCommand.parseAsRoot(["show"]) }
    }

    // MARK: The binary

    /// The profile lines of `list`'s output under each group heading.
    private func grouped(_ output: String) -> [(group: String, lines: [String])] {
        var groups: [(group: String, lines: [String])] = []
        for line in output.split(separator: "\n") {
            if !line.hasPrefix(" ") {
                groups.append((String(line.dropLast()), []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].lines.append(String(line.dropFirst(2)))
            }
        }
        return groups
    }

    @Test func listsTheShippedProfilesGroupedBySourceWithDescriptions() async throws {
        let result = try await LowbandBinary.run(["profiles", "list"], environment: environment(profiles: nil))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderr.isEmpty)
        let groups = grouped(result.stdoutText)
        #expect(groups.map(\.group) == Self.groups, "Lowband's own first, then each tool's presets")
        let names = groups.map { $0.lines.map { String($0.split(separator: " ")[0]) } }
        #expect(names.first == Self.ownNames)
        #expect(names.allSatisfy { $0 == $0.sorted() })
        #expect(names[3] == ["lte", "nlc-3g", "nlc-edge", "very-bad-network"])
        let lines = groups.flatMap(\.lines)
        #expect(lines.allSatisfy { $0.split(separator: " ", omittingEmptySubsequences: true).count > 3 }, "each has a description")
        #expect(lines.contains { $0.hasPrefix("edge") && $0.contains("150/60 kbit/s") })
        // Descriptions start in one column.
        let columns = lines.map { line in
            let name = line.prefix { $0 != " " }
            return name.count + line.dropFirst(name.count).prefix { $0 == " " }.count
        }
        #expect(Set(columns) == ["very-bad-network  ".count])
    }

    @Test func listIncludesTheUsersDirectoryFirstAndReportsBrokenFiles() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-profiles")
        try write(profileText(description: "my own edge"), to: directory.file("edge.yaml"))
        try write(profileText(), to: directory.file("mine.yaml"))
        try write(profileText(downlinkLoss: "150%"), to: directory.file("broken.yaml"))
        let result = try await LowbandBinary.run(["profiles", "list"], environment: environment(profiles: directory.path))
        #expect(result.status == 1)
        let groups = grouped(result.stdoutText)
        let own = try #require(groups.last)
        #expect(own.group == "Your profiles")
        #expect(own.lines.contains { $0.hasPrefix("edge ") && $0.hasSuffix("my own edge") }, "the user's edge hides the shipped one")
        #expect(own.lines.contains { $0.hasPrefix("mine ") })
        #expect(groups.first?.lines.contains { $0.hasPrefix("gprs ") } == true, "the shipped profiles are still listed")
        #expect(!groups.flatMap(\.lines).contains { $0.hasPrefix("broken") })
        #expect(result.stderrText == "lowband profiles list: error: \(directory.file("broken.yaml")):5: downlink.loss: 150% is above 100%; a percentage lies between 0% and 100%\n")
    }

    @Test func showsFiguresWithTheirSources() async throws {
        let result = try await LowbandBinary.run(["profiles", "show", "edge"], environment: environment(profiles: nil))
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("edge: EDGE (2.5G)") == true)
        #expect(lines[1].hasPrefix("file: ") && lines[1].hasSuffix("/edge.yaml"))
        let rate = try #require(lines.first { $0.hasPrefix("downlink.rate ") })
        #expect(rate.contains("150 kbit/s") && rate.contains("3GPP TS 43.064"))
        let loss = try #require(lines.first { $0.hasPrefix("downlink.loss.rto ") })
        #expect(loss.contains("1 s") && loss.contains("RFC 6298"))
        #expect(lines.contains { $0.hasPrefix("outages[0].duration ") && $0.contains("1 s..3 s") })
        #expect(lines.contains { $0.hasPrefix("radio.states[1].promotion ") && $0.contains("300 ms..500 ms") })
    }

    @Test func showsAUsersFileByPath() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-profiles")
        let path = directory.file("mine.yaml")
        try write(profileText(), to: path)
        let result = try await LowbandBinary.run(["profiles", "show", path], environment: environment(profiles: nil))
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasPrefix("mine: my own link\nfile: \(path)\n"))
        let rate = try #require(result.stdoutText.split(separator: "\n").first { $0.hasPrefix("downlink.rate ") })
        #expect(rate.contains("100 kbit/s") && rate.hasSuffix("measured on my phone"))
        let delay = try #require(result.stdoutText.split(separator: "\n").first { $0.hasPrefix("downlink.delay ") })
        #expect(delay.hasSuffix("(none given)"))
    }

    @Test func showsJSON() async throws {
        let result = try await LowbandBinary.run(["profiles", "show", "--json", "handover"], environment: environment(profiles: nil))
        #expect(result.status == 0, "\(result.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        #expect(object["name"] as? String == "handover")
        #expect((object["file"] as? String)?.hasSuffix("/handover.yaml") == true)
        let figures = try #require(object["figures"] as? [[String: Any]])
        #expect(figures.first?["key"] as? String == "mtu")
        let edgeRate = try #require(figures.first { $0["key"] as? String == "timeline.segments[1].downlink.rate" })
        #expect(edgeRate["value"] as? String == "150 kbit/s")
        #expect((edgeRate["source"] as? String)?.contains("as edge") == true)
        #expect(figures.allSatisfy { $0["source"] is String }, "every shipped figure has a source")
        // Keys come out in a fixed order, never a dictionary's.
        #expect(result.stdoutText.hasPrefix("{\n  \"name\": \"handover\",\n  \"description\": "))
    }

    @Test func badFileGivesOneErrorLineNamingFileKeyAndReason() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-profiles")
        let path = directory.file("broken.yaml")
        try write(profileText(downlinkLoss: "150%"), to: path)
        let result = try await LowbandBinary.run(["profiles", "show", path], environment: environment(profiles: nil))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText == "lowband profiles show: error: \(path):5: downlink.loss: 150% is above 100%; a percentage lies between 0% and 100%\n")

        try write(profileText().replacingOccurrences(of: "queue: 20KB\nuplink", with: "queue: 20 parsecs\nuplink"), to: path)
        let unit = try await LowbandBinary.run(["profiles", "show", path], environment: environment(profiles: nil))
        #expect(unit.status == 1)
        #expect(unit.stderrText.hasPrefix("lowband profiles show: error: \(path):6: downlink.queue: '20 parsecs' has unknown size unit 'parsecs'"))
    }

    @Test func unknownNameListsTheKnownOnes() async throws {
        let result = try await LowbandBinary.run(["profiles", "show", "edgy"], environment: environment(profiles: nil))
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband profiles show: error: edgy: no profile named 'edgy'; did you mean 'edge'?"))
        #expect(result.stderrText.contains("known profiles: 3g, atc-2g-rural, atc-2g-urban"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func renderingIsPureAndAligned() {
        let rows = [
            ProfilesCommand.List.Row(name: "a", summary: "first", group: "Your profiles"),
            ProfilesCommand.List.Row(name: "long-name", summary: "second", group: "Lowband"),
            ProfilesCommand.List.Row(name: "b", summary: "third", group: "comcast"),
        ]
        #expect(ProfilesCommand.List.render(rows) == "Lowband:\n  long-name  second\n\ncomcast:\n  b          third\n\nYour profiles:\n  a          first\n")
    }
}
