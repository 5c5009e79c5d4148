import Foundation
package import LowbandReports

/// What `lowband startup` writes: CSV rows over the measured runs, the table it prints, and
/// the progress line.
package enum StartupSummary {
    package static let suite = "startup"

    package static func rows(benchmark: String, samples: [ProgramLaunch.Sample], environment: RunEnvironment) -> [BenchmarkRow] {
        // Every run's value goes with its row (REPORT.samples.csv), so `compare` tests them.
        var times = BenchmarkRow(
            suite: suite, benchmark: benchmark, metric: "time_to_marker", unit: "ms",
            samples: samples.map { milliseconds($0.timeToMarker) },
            environment: environment
        )
        times.sampleValues = samples.map { milliseconds($0.timeToMarker) }
        var rows = [times]
        // Only when every run could read it: a partial column would summarise other runs.
        let peaks = samples.compactMap(\.peakResidentBytes)
        if peaks.count == samples.count {
            var peak = BenchmarkRow(suite: suite, benchmark: benchmark, metric: "peak_rss_at_marker", unit: "bytes", samples: peaks.map(Double.init), environment: environment)
            peak.sampleValues = peaks.map(Double.init)
            rows.append(peak)
        }
        return rows
    }

    package static func progressLine(index: Int, warmup: Int, runs: Int, sample: ProgramLaunch.Sample) -> String {
        let time = String(format: "%.1f ms", milliseconds(sample.timeToMarker))
        if index < warmup { return "warm-up \(index + 1)/\(warmup): \(time)" }
        return "run \(index - warmup + 1)/\(runs): \(time)"
    }

    /// `program: time to 'listening on' over 20 runs: p50 41.2 ms, p90 …` and where the CSV went.
    package static func report(benchmark: String, samples: [ProgramLaunch.Sample], rows: [BenchmarkRow], out: String) -> String {
        "\(benchmark): \(samples.count) runs\n" + lines(samples: samples, rows: rows) + "wrote \(out)\n"
    }

    /// The figures of each row, and the marker line.
    package static func lines(samples: [ProgramLaunch.Sample], rows: [BenchmarkRow]) -> String {
        var text = ""
        for row in rows {
            let format: (Double) -> String = row.unit == "bytes"
                ? { String(format: "%.1f MB", $0 / 1_048_576) }
                : { String(format: "%.1f ms", $0) }
            let figures = [("p50", row.p50), ("p90", row.p90), ("p99", row.p99), ("min", row.min), ("max", row.max)]
                .map { "\($0.0) \(format($0.1))" }.joined(separator: ", ")
            text += "  \(row.metric.padding(toLength: 20, withPad: " ", startingAt: 0)) \(figures)\n"
        }
        if let line = samples.last?.line {
            text += "  marker line: \(line.count > 120 ? String(line.prefix(120)) + "…" : line)\n"
        }
        return text
    }

    package static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
    }
}

/// The progress line on stderr: rewritten in place on a terminal, a line per run otherwise.
package struct StartupProgress {
    private let isTerminal = isatty(STDERR_FILENO) == 1

    package init() {}

    package func show(_ line: String) {
        write(isTerminal ? "\r\u{1B}[K" + line : line + "\n")
    }

    /// Ends the in-place line before other output.
    package func finish() {
        if isTerminal { write("\r\u{1B}[K") }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
