import Foundation
import LowbandBasics
package import LowbandReports
import LowbandRunReport

/// What `lowband explore` writes and prints.
package enum ExploreOutputs {
    /// explore.csv, explore.html and results.csv (the benchmark schema: seeds, failing seeds,
    /// failing seeds per invariant, wall time per seed) into `directory`.
    package static func write(_ outcomes: [SeedOutcome], to directory: String, title: String, suite: String, benchmark: String, elapsed: Duration? = nil) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(ExploreTable.render(outcomes).utf8).write(to: URL(fileURLWithPath: "\(directory)/explore.csv"))
        try Data(ExploreReportHTML.render(outcomes, title: title).utf8).write(to: URL(fileURLWithPath: "\(directory)/explore.html"))
        let environment = RunEnvironment.current()
        var measured = rows(outcomes, suite: suite, benchmark: benchmark, environment: environment)
        if let elapsed, !outcomes.isEmpty {
            let seconds = elapsed / .seconds(1)
            measured.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "wall_total", unit: "s", samples: [seconds], environment: environment))
            measured.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "seconds_per_1000_seeds", unit: "s", samples: [seconds / Double(outcomes.count) * 1000], environment: environment))
        }
        let outcomesOfTargets = BenchmarkTarget.evaluate(ExploreTargets.all, rows: measured)
        try BenchmarkCSV.write(rows: measured + BenchmarkTarget.rows(outcomesOfTargets, environment: environment), to: "\(directory)/results.csv")
    }

    package static func rows(_ outcomes: [SeedOutcome], suite: String, benchmark: String, environment: RunEnvironment) -> [BenchmarkRow] {
        var rows = [
            BenchmarkRow(suite: suite, benchmark: benchmark, metric: "seeds", unit: "count", samples: [Double(outcomes.count)], environment: environment),
            BenchmarkRow(suite: suite, benchmark: benchmark, metric: "failing_seeds", unit: "count", samples: [Double(outcomes.filter(\.failed).count)], environment: environment),
        ]
        var names: [String] = []
        for outcome in outcomes { for (name, _) in outcome.broken where !names.contains(name) { names.append(name) } }
        for name in names {
            let count = outcomes.filter { $0.broken.contains { $0.name == name } }.count
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "invariant.\(name)", unit: "count", samples: [Double(count)], environment: environment))
        }
        let nondeterministic = outcomes.filter { $0.determinism.hasPrefix("differs") }.count
        if outcomes.contains(where: { !$0.determinism.isEmpty }) {
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "nondeterministic_seeds", unit: "count", samples: [Double(nondeterministic)], environment: environment))
        }
        if !outcomes.isEmpty {
            rows.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: "wall_per_seed", unit: "ms", samples: outcomes.map(\.wallMilliseconds), environment: environment))
        }
        return rows
    }

    /// The sweep's times in one line, the per-seed figure named as explore.html and results.csv
    /// (`wall_per_seed`) name it: `median wall time per seed 20.2 s (each seed's own run); 44.4 s
    /// of wall time in all, 3 seeds at a time, 740 s per 1,000 seeds`.
    package static func timeLine(_ outcomes: [SeedOutcome], elapsed: Double, jobs: Int) -> String {
        var line = ""
        if let median = Percentile.median(outcomes.map(\.wallMilliseconds)) {
            line += String(format: "median wall time per seed %.1f s (each seed's own run); ", median / 1000)
        }
        line += String(format: "%.1f s of wall time in all, %d seed%@ at a time", elapsed, jobs, jobs == 1 ? "" : "s")
        if !outcomes.isEmpty { line += String(format: ", %.0f s per 1,000 seeds", elapsed / Double(outcomes.count) * 1000) }
        return line
    }

    package static func summary(_ outcomes: [SeedOutcome], total: Int) -> String {
        let failed = outcomes.filter(\.failed)
        var text = "\n\(outcomes.count) of \(total) seeds run, \(failed.count) failing"
        if !failed.isEmpty {
            var counts: [(String, Int)] = []
            for outcome in failed {
                for (name, _) in outcome.broken {
                    if let index = counts.firstIndex(where: { $0.0 == name }) { counts[index].1 += 1 } else { counts.append((name, 1)) }
                }
            }
            text += ": " + counts.map { "\($0.0) in \($0.1)" }.joined(separator: ", ")
            let nondeterministic = failed.filter { $0.determinism.hasPrefix("differs") }.count
            if nondeterministic > 0 { text += ", not deterministic in \(nondeterministic)" }
        }
        if let judged = judged(outcomes) { text += "\n" + judged }
        return text + "\n"
    }

    /// Which promises had no case on some seeds (each run drains after its traffic, so what
    /// is left is what the seed's traffic and faults never made: no kill, no send).
    static func judged(_ outcomes: [SeedOutcome]) -> String? {
        guard !outcomes.isEmpty, outcomes.allSatisfy({ $0.unchecked != nil }) else { return nil }
        var names: [String] = []
        for outcome in outcomes { for name in outcome.unchecked ?? [] where !names.contains(name) { names.append(name) } }
        guard !names.isEmpty else { return "promises: every one judged on every seed" }
        let counts = names.map { name in "\(name) on \(outcomes.count { $0.unchecked?.contains(name) == true })" }
        return "promises with no case on some seeds: " + counts.joined(separator: ", ") + " of \(outcomes.count)"
    }

    /// The value after `option` in a command line.
    package static func option(_ option: String, in command: String) -> String? {
        let words = command.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }
}
