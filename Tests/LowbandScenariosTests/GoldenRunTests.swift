import Foundation
import LowbandBasics
import LowbandReports
import LowbandRunReport
import LowbandScenarios
import Testing

/// The safety net of the consolidation (issue 23): virtual-time runs of every scenario, on three
/// profiles, with and without swarm faults, give the same trace, `record.json`, `breakdown.csv`
/// and `results.csv` (provenance fixed) to the byte as when `Tests/Goldens/virtual-runs.tsv` was
/// written.
///
/// A change that alters the model, the workload or an output on purpose rewrites the file
/// (`LOWBAND_WRITE_GOLDENS=1 swift test --filter GoldenRunTests`) and says why in its commit;
/// a refactoring never does. On a mismatch the run's files are written to a temporary folder
/// (named in the failure) to compare, with `lowband trace diff`, against the same
/// `lowband run … --virtual-time` at the commit that wrote the goldens.
@Suite struct GoldenRunTests {
    /// One run of the matrix.
    struct Case: CustomStringConvertible {
        var scenario: ScenarioName
        var profile = "edge"
        var seed: UInt64
        var clients: Int?
        var seconds: Int64?
        var faults = "none"

        var description: String {
            var name = "\(scenario.rawValue) \(profile) seed \(seed)"
            if let clients { name += " clients \(clients)" }
            if let seconds { name += " \(seconds)s" }
            if faults != "none" { name += " faults \(faults)" }
            return name
        }
    }

    /// Every scenario with `lowband run`'s defaults on seeds 1–3; on gprs and 3g; with swarm
    /// faults for ten minutes on seeds 1–3; and one larger crowd with every fault kind.
    static let cases: [Case] = {
        var cases: [Case] = []
        for scenario in ScenarioName.allCases {
            for seed: UInt64 in 1...3 { cases.append(Case(scenario: scenario, seed: seed)) }
            for profile in ["gprs", "3g"] { cases.append(Case(scenario: scenario, profile: profile, seed: 1)) }
            for seed: UInt64 in 1...3 { cases.append(Case(scenario: scenario, seed: seed, seconds: 600, faults: "swarm")) }
        }
        cases.append(Case(scenario: .crowd, seed: 7, clients: 30, seconds: 900, faults: FaultKind.allCases.map(\.rawValue).joined(separator: ",")))
        return cases
    }()

    static let goldens = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens/virtual-runs.tsv")

    static let header = "run\ttrace_lines\ttrace_bytes\ttrace_fnv1a\trecord_bytes\trecord_fnv1a\tbreakdown_bytes\tbreakdown_fnv1a\tresults_bytes\tresults_fnv1a"

    /// What a run wrote, as `lowband run` writes it.
    struct Files {
        var trace: [UInt8]
        var traceLines: Int
        var record: [UInt8]
        var breakdown: [UInt8]
        /// `results.csv` with fixed provenance columns (commit, compiler, host, time).
        var results: [UInt8]

        func line(_ name: String) -> String {
            [name, String(traceLines), String(trace.count), FNV1a.of(trace).hexDigits, String(record.count), FNV1a.of(record).hexDigits, String(breakdown.count), FNV1a.of(breakdown).hexDigits,
             String(results.count), FNV1a.of(results).hexDigits]
                .joined(separator: "\t")
        }
    }

    static func run(_ golden: Case) async throws -> Files {
        let plan = try FaultPlan(parsing: golden.faults)
        let profile = try ScenarioFixtures.profile(golden.profile)
        let clients = golden.clients ?? (golden.scenario == .crowd ? 10 : 1)
        var command = "lowband run --scenario \(golden.scenario) --profile \(golden.profile) --seed \(golden.seed) --clients \(clients)"
        if let seconds = golden.seconds { command += " --duration \(seconds)s" }
        if golden.faults != "none" { command += " --faults \(golden.faults)" }
        command += " --virtual-time"
        let options = ScenarioOptions(
            scenario: golden.scenario, profile: profile, profileName: golden.profile, seed: golden.seed, clients: clients,
            duration: golden.seconds.map { .seconds($0) }, virtualTime: true, command: command, faults: plan)
        try options.validate()
        let output = try await ScenarioFixtures.run(options)
        let environment = RunEnvironment(commit: "golden", swiftVersion: "6", host: "golden", timestamp: "2026-01-01T00:00:00Z", command: command)
        let results = try BenchmarkCSV.render(rows: RunOutputs.rows(for: [output.record], environment: environment))
        return Files(
            trace: Array(output.traceText.utf8), traceLines: output.trace.count,
            record: try RunRecord.prettyJSON([output.record]), breakdown: BreakdownTable.renderUTF8(output.breakdowns),
            results: Array(results.utf8))
    }

    @Test func everyVirtualRunIsByteIdenticalToItsGolden() async throws {
        var lines: [String] = []
        var runs: [(Case, Files)] = []
        for golden in Self.cases {
            let files = try await Self.run(golden)
            lines.append(files.line(golden.description))
            runs.append((golden, files))
        }
        let text = ([Self.header] + lines).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["LOWBAND_WRITE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: Self.goldens)
            return
        }
        let expected = try String(contentsOf: Self.goldens, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(expected.first == Self.header)
        let byName = Dictionary(expected.dropFirst().map { ($0.split(separator: "\t", maxSplits: 1).first.map(String.init) ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(byName.count == Self.cases.count, "the goldens list \(byName.count) runs, the matrix has \(Self.cases.count)")
        var folder: URL?
        for ((golden, files), line) in zip(runs, lines) where byName[golden.description] != line {
            let directory = try folder ?? Self.failureFolder()
            folder = directory
            let runFolder = directory.appendingPathComponent(golden.description.replacingOccurrences(of: " ", with: "-"))
            try FileManager.default.createDirectory(at: runFolder, withIntermediateDirectories: true)
            try Data(files.trace).write(to: runFolder.appendingPathComponent("trace.jsonl"))
            try Data(files.record).write(to: runFolder.appendingPathComponent("record.json"))
            try Data(files.breakdown).write(to: runFolder.appendingPathComponent("breakdown.csv"))
            try Data(files.results).write(to: runFolder.appendingPathComponent("results.csv"))
            Issue.record("\(golden) differs from its golden:\n  expected \(byName[golden.description] ?? "(none)")\n  got      \(line)\n  files in \(runFolder.path)")
        }
    }

    private static func failureFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-goldens-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
