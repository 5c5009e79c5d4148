import Foundation
import LowbandBasics
package import LowbandReports

/// The comparison as the command prints it and as benchmark rows.
///
/// Rows (suite `codecs`): per file × format, benchmark `FORMAT@FILE` with `bytes`, `encode_ns`
/// and `decode_ns` and, when counted, `encode_instructions`, `decode_instructions`,
/// `encode_allocations` and `decode_allocations`, every payload's value beside them in the
/// samples file (so each sample names its payload file); per format, benchmark `FORMAT` with
/// `total_bytes`, `total_encode_ns` and `total_decode_ns` (and `total_` of each count: sums,
/// never a median across unlike payloads); per format and profile, benchmark `FORMAT@PROFILE`
/// with `median_delivery_ms`, `largest_delivery_ms` and, where the profile has power figures,
/// `median_energy_mj` and `largest_energy_mj`.
package struct CodecReport: Sendable {
    package let comparison: CodecComparison
    package let air: AirCostTable
    package let counts: CodecCounts

    package init(_ comparison: CodecComparison, air: AirCostTable, counts: CodecCounts = CodecCounts(unmeasured: "not asked for")) {
        self.comparison = comparison
        self.air = air
        self.counts = counts
    }

    package func rows(environment: RunEnvironment) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for cell in comparison.cells {
            let name = "\(cell.format)@\(cell.file)"
            for (metric, unit, values) in [("bytes", "bytes", cell.sizes), ("encode_ns", "ns", cell.encodeNanoseconds), ("decode_ns", "ns", cell.decodeNanoseconds)] where !values.isEmpty {
                var row = BenchmarkRow(suite: "codecs", benchmark: name, metric: metric, unit: unit, samples: values, environment: environment)
                row.sampleValues = values
                rows.append(row)
            }
            guard let counted = counts.cell(cell.file, cell.format) else { continue }
            for (metric, values) in Self.countMetrics(counted) {
                var row = BenchmarkRow(suite: "codecs", benchmark: name, metric: metric, unit: "count", samples: values, environment: environment)
                row.sampleValues = values
                rows.append(row)
            }
        }
        for format in comparison.formats {
            let cells = comparison.cells.filter { $0.format == format }
            var totals = [
                ("total_bytes", "bytes", comparison.totalBytes(format)), ("total_encode_ns", "ns", cells.reduce(0) { $0 + $1.encodeTotal }),
                ("total_decode_ns", "ns", cells.reduce(0) { $0 + $1.decodeTotal }),
            ]
            for (metric, value) in [
                ("total_encode_instructions", counts.total(format, \.encodeInstructions)), ("total_decode_instructions", counts.total(format, \.decodeInstructions)),
                ("total_encode_allocations", counts.total(format, \.encodeAllocations)), ("total_decode_allocations", counts.total(format, \.decodeAllocations)),
            ] {
                if let value { totals.append((metric, "count", value)) }
            }
            for (metric, unit, value) in totals {
                rows.append(BenchmarkRow(suite: "codecs", benchmark: "\(format)", metric: metric, unit: unit, value: value, environment: environment))
            }
        }
        for entry in air.entries {
            let name = "\(entry.format)@\(entry.profile)"
            for (metric, cost) in [("median", entry.median.cost), ("largest", entry.largest.cost)] {
                guard let cost else { continue }
                rows.append(BenchmarkRow(suite: "codecs", benchmark: name, metric: "\(metric)_delivery_ms", unit: "ms", value: Double(cost.time.nanosecondsClamped) / 1e6, environment: environment))
                if let joules = cost.joules {
                    rows.append(BenchmarkRow(suite: "codecs", benchmark: name, metric: "\(metric)_energy_mj", unit: "mJ", value: joules * 1e3, environment: environment))
                }
            }
        }
        return rows
    }

    /// The tables and the summary the command prints.
    package func text() -> String {
        let files = comparison.files.count
        var text = "codecs: \(comparison.payloads) payload\(comparison.payloads == 1 ? "" : "s") from \(files) file\(files == 1 ? "" : "s"); times: median of \(comparison.repeats) after \(CodecComparison.warmUp) warm-up calls\n"
        var lines: [[String]] = [["payload", "format", "bytes", "× json", "encode", "enc instr", "enc allocs", "decode", "dec instr", "dec allocs"]]
        for file in comparison.files {
            let json = comparison.cell(file, CodecFormat(.json))?.bytes ?? 0
            for format in comparison.formats {
                guard let cell = comparison.cell(file, format) else { continue }
                let counted = counts.cell(file, format)
                lines.append([
                    Self.name(file), "\(format)", String(Int(cell.bytes)), Self.ratio(cell.bytes, json),
                    Self.time(cell.encodeTotal), Self.count(counted?.encodeInstructions), Self.allocations(counted?.encodeAllocations),
                    Self.time(cell.decodeTotal), Self.count(counted?.decodeInstructions), Self.allocations(counted?.decodeAllocations),
                ])
            }
        }
        let totalJSON = comparison.totalBytes(CodecFormat(.json))
        for format in comparison.formats {
            let cells = comparison.cells.filter { $0.format == format }
            lines.append([
                "total", "\(format)", String(Int(comparison.totalBytes(format))), Self.ratio(comparison.totalBytes(format), totalJSON),
                Self.time(cells.reduce(0) { $0 + $1.encodeTotal }), Self.count(counts.total(format, \.encodeInstructions)),
                Self.allocations(counts.total(format, \.encodeAllocations)),
                Self.time(cells.reduce(0) { $0 + $1.decodeTotal }), Self.count(counts.total(format, \.decodeInstructions)),
                Self.allocations(counts.total(format, \.decodeAllocations)),
            ])
        }
        text += Self.table(lines)
        text += countsLine()
        if files < 2 { text += "lz4+dict, zstd+dict: left out; a file's dictionary is built from the other files only, and there is one\n" }
        text += summary()
        text += airText()
        return text
    }

    /// What the instruction and allocation columns are, or why they are empty.
    func countsLine() -> String {
        if let reason = counts.unmeasured {
            return "instructions, allocations: not measured: \(reason)\n"
        }
        let ran = counts.elapsed.map { String(format: " (%.0f s)", Double($0.nanosecondsClamped) / 1e9) } ?? ""
        return "instructions, allocations (calls to malloc, calloc, realloc, …): one call after a warm-up call, counted by valgrind's callgrind in one run\(ran); "
            + "the same build counts the same on the same files, whatever the machine's load\n"
    }

    /// `encode_instructions`, … of `cell`, each counted payload's value.
    static func countMetrics(_ cell: CodecCounts.Cell) -> [(String, [Double])] {
        [
            ("encode_instructions", cell.encode.map { Double($0.instructions) }), ("decode_instructions", cell.decode.map { Double($0.instructions) }),
            ("encode_allocations", cell.encode.map { Double($0.allocations) }), ("decode_allocations", cell.decode.map { Double($0.allocations) }),
        ]
    }

    /// Ranks by total bytes, by time and by instructions and allocations, and the files where the
    /// ranking by bytes, time or instructions flips.
    func summary() -> String {
        let bySize = comparison.formats.sorted { comparison.totalBytes($0) < comparison.totalBytes($1) }
        let byTime = comparison.formats.sorted { comparison.totalNanoseconds($0) < comparison.totalNanoseconds($1) }
        var text = "smallest in total: " + bySize.prefix(5).map { "\($0) \(Int(comparison.totalBytes($0))) B" }.joined(separator: ", ") + "\n"
        text += "fastest in total (encode + decode): " + byTime.prefix(5).map { "\($0) \(Self.time(comparison.totalNanoseconds($0)))" }.joined(separator: ", ") + "\n"
        let byInstructions = comparison.formats.compactMap { format in counts.totalInstructions(format).map { (format, $0) } }.sorted { $0.1 < $1.1 }
        if !byInstructions.isEmpty {
            text += "fewest instructions in total (encode + decode): " + byInstructions.prefix(5).map { "\($0.0) \(Self.count($0.1))" }.joined(separator: ", ") + "\n"
        }
        let byAllocations = comparison.formats.compactMap { format in counts.totalAllocations(format).map { (format, $0) } }.sorted { $0.1 < $1.1 }
        if !byAllocations.isEmpty {
            text += "fewest allocations in total (encode + decode): " + byAllocations.prefix(5).map { "\($0.0) \(Self.allocations($0.1))" }.joined(separator: ", ") + "\n"
        }
        let best = bySize.first
        for file in comparison.files where comparison.files.count > 1 {
            var flips: [String] = []
            let here = comparison.formats.compactMap { format in comparison.cell(file, format).map { (format, $0.bytes) } }
            if let best, let smallest = here.min(by: { $0.1 < $1.1 }), smallest.0 != best, let bestHere = comparison.cell(file, best)?.bytes {
                flips.append("smallest here \(smallest.0) \(Int(smallest.1)) B, not \(best) (\(Int(bestHere)) B)")
            }
            // Wire formats under the same compression, in the order of their totals.
            for compression in Compression.allCases {
                let wires = WireFormat.allCases.map { CodecFormat($0, compression) }.filter(comparison.formats.contains)
                let total = wires.sorted { comparison.totalBytes($0) < comparison.totalBytes($1) }
                for (better, worse) in zip(total, total.dropFirst()) {
                    guard let a = comparison.cell(file, better)?.bytes, let b = comparison.cell(file, worse)?.bytes, a > b else { continue }
                    flips.append("\(worse) \(Int(b)) B < \(better) \(Int(a)) B")
                }
            }
            if !flips.isEmpty { text += "ranking by bytes flips on \(Self.name(file)): " + flips.joined(separator: "; ") + "\n" }
            // Only a flip by more than a tenth: wall clock on a shared machine moves by percents.
            let times = comparison.formats.compactMap { format in comparison.cell(file, format).map { (format, $0.encodeTotal + $0.decodeTotal) } }
            if let fastest = byTime.first, let quickest = times.min(by: { $0.1 < $1.1 }), quickest.0 != fastest,
               let fastestHere = comparison.cell(file, fastest).map({ $0.encodeTotal + $0.decodeTotal }), quickest.1 < fastestHere * 0.9 {
                text += "ranking by time flips on \(Self.name(file)): fastest here \(quickest.0) \(Self.time(quickest.1)), not \(fastest) (\(Self.time(fastestHere)))\n"
            }
            // Counts are exact: any flip is one.
            let executed = comparison.formats.compactMap { format in counts.cell(file, format).map { (format, $0.encodeInstructions + $0.decodeInstructions) } }
            if let fewest = byInstructions.first?.0, let least = executed.min(by: { $0.1 < $1.1 }), least.0 != fewest,
               let fewestHere = counts.cell(file, fewest).map({ $0.encodeInstructions + $0.decodeInstructions }) {
                text += "ranking by instructions flips on \(Self.name(file)): fewest here \(least.0) \(Self.count(least.1)), not \(fewest) (\(Self.count(fewestHere)))\n"
            }
        }
        return text
    }

    /// Per profile: each format's median and largest payload delivered, and the winner.
    func airText() -> String {
        var text = ""
        for profile in air.profiles {
            let entries = air.entries(profile)
            guard !entries.isEmpty else { continue }
            text += "on \(profile) (request to last byte, radio idle before; energy until the radio is idle again):\n"
            var lines: [[String]] = [["format", "median B", "time", "energy", "largest B", "time", "energy"]]
            for entry in entries {
                lines.append([
                    "\(entry.format)", String(entry.median.bytes), Self.duration(entry.median.cost), Self.energy(entry.median.cost),
                    String(entry.largest.bytes), Self.duration(entry.largest.cost), Self.energy(entry.largest.cost),
                ])
            }
            text += Self.table(lines)
            text += verdict(profile, entries, \.largest, "largest")
            text += verdict(profile, entries, \.median, "median")
        }
        return text
    }

    /// Which format delivers the `which` payload first on `profile`, and by how much against
    /// plain JSON and plain MessagePack.
    private func verdict(_ profile: String, _ entries: [AirCostTable.Entry], _ path: KeyPath<AirCostTable.Entry, (bytes: Int, cost: AirCost?)>, _ which: String) -> String {
        let timed = entries.compactMap { entry in entry[keyPath: path].cost.map { (entry.format, $0) } }
        guard let best = timed.min(by: { $0.1.time < $1.1.time }) else { return "" }
        var against: [String] = []
        for plain in [CodecFormat(.json), CodecFormat(.msgpack)] where plain != best.0 {
            guard let cost = timed.first(where: { $0.0 == plain })?.1, cost.time > .zero else { continue }
            let saved = cost.time - best.1.time
            let percent = Double(saved.nanosecondsClamped) / Double(cost.time.nanosecondsClamped) * 100
            against.append(String(format: "%@ less than %@'s %@ (%.0f %%)", Self.milliseconds(saved), "\(plain)", Self.milliseconds(cost.time), percent))
        }
        return "on \(profile), the \(which) payload: \(best.0) first, \(Self.milliseconds(best.1.time))" + (against.isEmpty ? "" : ", " + against.joined(separator: ", ")) + "\n"
    }

    static func table(_ lines: [[String]]) -> String {
        guard let header = lines.first else { return "" }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for line in lines {
            text += line.enumerated().map { column, cell in
                column < 2 && header[0] != "format" || column == 0 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }
        return text
    }

    static func name(_ file: String) -> String {
        (file as NSString).lastPathComponent
    }

    static func ratio(_ bytes: Double, _ json: Double) -> String {
        json > 0 ? String(format: "%.2f", bytes / json) : "-"
    }

    static func duration(_ cost: AirCost?) -> String {
        cost.map { milliseconds($0.time) } ?? "never"
    }

    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.0f ms", Double(duration.nanosecondsClamped) / 1e6)
    }

    static func energy(_ cost: AirCost?) -> String {
        cost?.joules.map { String(format: "%.2f J", $0) } ?? "-"
    }

    /// Instructions: `812`, `41.2 k`, `5.123 M`; `-` when not counted.
    static func count(_ value: Double?) -> String {
        guard let value else { return "-" }
        return value >= 1_000_000 ? String(format: "%.3f M", value / 1e6) : value >= 10_000 ? String(format: "%.1f k", value / 1e3) : String(format: "%.0f", value)
    }

    /// Allocations, whole (a mean when not every payload was counted); `-` when not counted.
    static func allocations(_ value: Double?) -> String {
        value.map { String(format: "%.0f", $0) } ?? "-"
    }

    static func time(_ nanoseconds: Double) -> String {
        nanoseconds >= 1_000_000 ? String(format: "%.2f ms", nanoseconds / 1e6) : nanoseconds >= 1_000 ? String(format: "%.1f µs", nanoseconds / 1e3) : String(format: "%.0f ns", nanoseconds)
    }
}
