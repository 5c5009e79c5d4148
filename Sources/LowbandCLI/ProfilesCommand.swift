import ArgumentParser
import Foundation
import LowbandBasics
import LowbandProfiles
import LowbandShaper

/// `lowband profiles`: the network profiles on the search path, and what each one sets.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List network profiles and show their figures with sources.",
        discussion: """
            Profiles are YAML files (profiles/README.md). They are looked up in $LOWBAND_PROFILES \
            (colon-separated directories), then ./profiles, then among the profiles shipped \
            inside lowband (Lowband's own and the presets of Network Link Conditioner, Chrome \
            DevTools, sitespeed.io throttle, comcast and Facebook ATC). Wherever a name is \
            expected, a file path (containing '/' or ending in .yaml/.yml) works too.
            """,
        subcommands: [List.self, Show.self]
    )

    init() {}

    /// `lowband profiles list`: one line per profile, sorted by name.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the profiles on the search path with a one-line description each."
        )

        init() {}

        func run() throws {
            let name = "lowband profiles list"
            let files = NetworkProfile.available(in: ProfileDirectory.searchPath())
            var rows: [Row] = []
            var failures: [ProfileError] = []
            for file in files {
                do {
                    let profile = try file.load()
                    rows.append(Row(name: file.name, summary: profile.summary, group: Self.group(of: profile, file)))
                } catch {
                    failures.append(error)
                }
            }
            do {
                try CommandIO.write(Self.render(rows))
            } catch {
                throw CommandIO.failure(error, command: name)
            }
            for failure in failures { CommandIO.reportError(failure, command: name) }
            if !failures.isEmpty { throw ExitCode.failure }
        }

        /// One profile as the list shows it.
        struct Row: Sendable, Hashable {
            var name: String
            var summary: String
            var group: String

            init(name: String, summary: String, group: String) {
                self.name = name
                self.summary = summary
                self.group = group
            }
        }

        /// Lowband's own profiles first, then each tool's presets, then the user's own files;
        /// inside a group by name.
        static func group(of profile: NetworkProfile, _ file: ProfileFile) -> String {
            if let group = profile.group { return group }
            // ./profiles in a checkout holds the shipped files themselves.
            let isShippedCopy = ShippedProfiles.yaml(named: file.name).map { shipped in
                FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) } == shipped
            } ?? false
            return file.isShipped || isShippedCopy ? ownGroup : "Your profiles"
        }

        static let ownGroup = "Lowband"

        /// A heading per group, then names padded to one column and the descriptions.
        static func render(_ rows: [Row]) -> String {
            let width = rows.map(\.name.count).max() ?? 0
            let groups = Set(rows.map(\.group)).sorted { first, second in
                if (first == ownGroup) != (second == ownGroup) { return first == ownGroup }
                if (first == "Your profiles") != (second == "Your profiles") { return second == "Your profiles" }
                return first < second
            }
            var text = ""
            for (index, group) in groups.enumerated() {
                if index > 0 { text += "\n" }
                text += group + ":\n"
                for row in rows where row.group == group {
                    text += "  " + row.name + String(repeating: " ", count: width - row.name.count + 2) + row.summary + "\n"
                }
            }
            return text
        }
    }

    /// `lowband profiles show NAME|FILE [--json]`: the resolved figures and their sources.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a profile's resolved figures, each with its source.",
            discussion: "Figures not in the file show their defaults; a source on a section covers the figures in it."
        )

        @Argument(help: "A profile name (see 'lowband profiles list') or the path of a profile file.")
        var profile: String

        @Flag(help: "Print one JSON document instead of a table.")
        var json = false

        init() {}

        func run() throws {
            let name = "lowband profiles show"
            do {
                let loaded = try NetworkProfile.load(named: profile)
                try CommandIO.write(json ? Self.renderJSON(loaded) : Self.render(loaded))
            } catch {
                throw CommandIO.failure(error, command: name)
            }
        }

        /// A readable table: figure, value, source.
        static func render(_ profile: NetworkProfile) -> String {
            var text = "\(profile.name): \(profile.summary)\n"
            if let file = profile.file { text += "file: \(file)\n" }
            text += "\n"
            let rows = [("figure", "value", "source")] + profile.figures.map { ($0.key, $0.value, $0.source ?? "(none given)") }
            let keyWidth = rows.map(\.0.count).max() ?? 0
            let valueWidth = rows.map(\.1.count).max() ?? 0
            for (key, value, source) in rows {
                text += key + String(repeating: " ", count: keyWidth - key.count + 2)
                text += value + String(repeating: " ", count: valueWidth - value.count + 2)
                text += source + "\n"
            }
            return text
        }

        /// One JSON document, keys in a fixed order: name, description, file, figures
        /// (each key, value, source).
        static func renderJSON(_ profile: NetworkProfile) -> String {
            var text = "{\n"
            text += "  \"name\": \(JSONString.quoted(profile.name)),\n"
            text += "  \"description\": \(JSONString.quoted(profile.summary)),\n"
            text += "  \"file\": \(profile.file.map { JSONString.quoted($0) } ?? "null"),\n"
            text += "  \"figures\": ["
            let figures = profile.figures.map { figure in
                "\n    {\"key\": \(JSONString.quoted(figure.key)), \"value\": \(JSONString.quoted(figure.value)), \"source\": \(figure.source.map { JSONString.quoted($0) } ?? "null")}"
            }
            text += figures.joined(separator: ",")
            text += figures.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
            return text
        }
    }
}
