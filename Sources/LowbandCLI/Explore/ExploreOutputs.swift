import Foundation
import LowbandRunReport
import LowbandScenarios
import Synchronization
import LowbandReports

/// What `lowband explore` writes and prints.
enum ExploreOutputs {
    /// explore.csv, explore.html and results.csv (the benchmark schema: seeds, failing seeds,
    /// failing seeds per invariant, wall time per seed) into `directory`.
    static func write(_ outcomes: [SeedOutcome], to directory: String, title: String, suite: String, benchmark: String, elapsed: Duration? = nil) throws {
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

    static func rows(_ outcomes: [SeedOutcome], suite: String, benchmark: String, environment: RunEnvironment) -> [BenchmarkRow] {
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

    static func summary(_ outcomes: [SeedOutcome], total: Int) -> String {
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
        return text + "\n"
    }

    /// The value after `option` in a command line.
    static func option(_ option: String, in command: String) -> String? {
        let words = command.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }
}

/// The live line of `lowband explore` on stderr: seeds done and failing, rate, time left.
final class ExploreStatus: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let state = Mutex<(last: ContinuousClock.Instant?, shown: Bool)>((nil, false))

    func update(_ progress: ExploreProgress) {
        let now = ContinuousClock.now
        let due = state.withLock { state -> Bool in
            let wait: Duration = isTerminal ? .milliseconds(200) : .seconds(5)
            if progress.done < progress.total, let last = state.last, now - last < wait { return false }
            state.last = now
            state.shown = true
            return true
        }
        guard due else { return }
        let seconds = progress.elapsed / .seconds(1)
        let rate = seconds > 0 ? Double(progress.done) / seconds : 0
        let left = rate > 0 ? Double(progress.total - progress.done) / rate : 0
        let line = String(format: "explore: %d/%d seeds, %d failing, %.1f seeds/s, ETA %dm%02ds", progress.done, progress.total, progress.failed, rate, Int(left) / 60, Int(left) % 60)
        RunCommand.log(isTerminal ? "\r\u{1B}[K" + line : line, newline: !isTerminal)
    }

    /// Clears the in-place line before other output.
    func interrupt() {
        guard isTerminal else { return }
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { RunCommand.log("\r\u{1B}[K", newline: false) }
    }

    func finish() {
        if isTerminal { RunCommand.log("") }
    }
}
