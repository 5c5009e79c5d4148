import Foundation
package import LowbandReports

/// The rows and lines of instrumented runs: `instructions` (and `estimated_cycles`), unit
/// `count`, every run's count kept as a sample so `compare` sees the spread.
extension StartupSummary {
    package static func instructionRows(benchmark: String, samples: [InstrumentedLaunch.Sample], environment: RunEnvironment) -> [BenchmarkRow] {
        var figures = [("instructions", samples.map { Double($0.instructions) })]
        let cycles = samples.compactMap(\.cycles)
        if !cycles.isEmpty, cycles.count == samples.count { figures.append(("estimated_cycles", cycles.map(Double.init))) }
        return figures.map { metric, values in
            var row = BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric, unit: "count", samples: values, environment: environment)
            row.sampleValues = values
            return row
        }
    }

    package static func instrumentedProgressLine(index: Int, warmup: Int, runs: Int, sample: InstrumentedLaunch.Sample) -> String {
        let figures = "\(grouped(sample.instructions)) instructions, \(ProgramLaunch.format(sample.elapsed)) under callgrind"
        if index < warmup { return "instrumented warm-up \(index + 1)/\(warmup): \(figures)" }
        return "instrumented run \(index - warmup + 1)/\(runs): \(figures)"
    }

    /// The largest difference between two runs' counts, absolute and over the smallest.
    package static func spread(_ counts: [Int]) -> (count: Int, fraction: Double) {
        guard let low = counts.min(), let high = counts.max() else { return (0, 0) }
        return (high - low, low == 0 ? 0 : Double(high - low) / Double(low))
    }

    /// `  instructions  150,685,537 in every run (3 runs, 4 process images)` or the range.
    package static func instructionLines(samples: [InstrumentedLaunch.Sample]) -> String {
        var text = ""
        for (metric, counts) in [("instructions", samples.map(\.instructions)), ("estimated_cycles", samples.compactMap(\.cycles))] where !counts.isEmpty {
            let (difference, fraction) = spread(counts)
            let figures = difference == 0
                ? "\(grouped(counts[0])) in every run"
                : "p50 \(grouped(counts.sorted()[counts.count / 2])), min \(grouped(counts.min() ?? 0)), max \(grouped(counts.max() ?? 0)), spread \(grouped(difference)) (\(percent(fraction)))"
            text += "  \(metric.padding(toLength: 20, withPad: " ", startingAt: 0)) \(figures)\n"
        }
        if let first = samples.first {
            let times = samples.map(\.elapsed).sorted()
            text += "  instrumented         \(samples.count) run\(samples.count == 1 ? "" : "s"), \(first.images) process image\(first.images == 1 ? "" : "s") each, "
                + "p50 \(ProgramLaunch.format(times[(times.count - 1) / 2])), max \(ProgramLaunch.format(times[times.count - 1])) under callgrind\n"
        }
        return text
    }

    /// The warning when counts differ between runs, with what usually moves them.
    package static func spreadWarning(samples: [InstrumentedLaunch.Sample]) -> String? {
        let (difference, fraction) = spread(samples.map(\.instructions))
        guard difference != 0 else { return nil }
        return "instruction counts differ between runs by \(grouped(difference)) (\(percent(fraction))); " + movers
    }

    /// What makes counts move and how to remove it.
    package static let movers = "what moves them: a hash seed (--env PYTHONHASHSEED=0, SWIFT_DETERMINISTIC_HASHING=1), the time or date, "
        + "random numbers, the network, files the program writes on its first run (a cache: --warmup), the process id, "
        + "the working directory when the program lists it (Python does: run from a quiet directory, not /tmp), "
        + "a wrapper that reads the clock (a version manager's shim: count the program it runs); see --check-determinism"

    /// `150,685,537`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (value < 0 ? "-" : "") + text
    }

    /// `0.0018%`, `1.2%`.
    package static func percent(_ fraction: Double) -> String {
        String(format: "%.2g%%", fraction * 100)
    }
}
