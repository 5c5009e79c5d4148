/// Reads the Influx CSV that package-benchmark writes (`swift package benchmark --format influx`)
/// and turns it into rows of the one benchmark schema (``BenchmarkRow``), for any package's
/// benchmarks; ``PackageBenchmarkSamples`` adds the raw samples from `--format histogramSamples`.
///
/// package-benchmark has no CSV export of its own; its Influx export carries, per target,
/// benchmark and metric, the raw values at percentiles 0, 25, 50, 75, 90, 99 and 100 and the
/// number of samples, which is everything a row needs. Mapping:
/// - suite: the target's name without `Benchmarks`, in kebab case (`PushToVisibleBenchmarks` →
///   `push-to-visible`); benchmark: the benchmark's name as registered;
/// - `Time (wall clock)` → `wall_clock` in `us` (the export holds nanoseconds whatever unit the
///   table would print, so one unit is used always and `lowband compare` never sees it change);
/// - `Malloc (total)` → `allocations`, `Instructions` → `instructions`, both `count`;
/// - a custom metric keeps its name; its unit comes from the name's suffix: `_bytes` → `bytes`,
///   `_us`/`_ns`/`_ms` → that time unit, `_mbps` → `MB/s`, anything else `count`;
/// - percentile 0 → min, 100 → max; samples = the export's iteration count;
/// - a benchmark that repeats its operation inside each sample (to keep package-benchmark's own
///   per-sample cost, such as reading the instruction counter, out of the figures) records the
///   custom metric `iterations_per_sample`; its time, allocation, instruction and CPU figures are
///   divided by it, so every row describes one operation.
public enum PackageBenchmarkImport {
    /// The export's header record, checked so a wrong file fails with a clear message.
    static let columns = [
        "measurement", "hostName", "processoryType", "processors", "memory", "kernelVersion",
        "metric", "unit", "test", "percentile", "value", "test_average", "iterations",
        "warmup_iterations", "time",
    ]

    /// The rows of the Influx export `bytes` (read from `file`, named in errors), stamped with
    /// `environment`, sorted by suite, benchmark and metric.
    public static func rows(fromInflux bytes: [UInt8], file: String, environment: RunEnvironment) throws(BenchmarkCSVError) -> [BenchmarkRow] {
        guard bytes.count <= BenchmarkCSV.maximumFileBytes else {
            throw BenchmarkCSVError(code: .tooLarge, file: file, line: nil, message: "file is larger than \(BenchmarkCSV.maximumFileBytes / (1024 * 1024)) MiB")
        }
        // Say what the file is not before the strict CSV reader complains about its details.
        guard bytes.starts(with: Array("#datatype".utf8)) || bytes.starts(with: Array("measurement,".utf8)) else {
            throw BenchmarkCSVError(code: .badHeader, file: file, line: 1, message: "not package-benchmark's influx export (swift package benchmark --format influx): it starts with neither #datatype nor measurement,")
        }
        let records = try CSVRecords.split(bytes, file: file)
        var sawHeader = false
        var collected: [BenchmarkRow.Key: Collected] = [:]
        for record in records {
            let fields = record.fields
            if fields.first?.hasPrefix("#") == true { continue }
            if fields.first == "measurement" {
                guard fields == columns else {
                    throw BenchmarkCSVError(code: .badHeader, file: file, line: record.line, message: "not package-benchmark's influx export: header is \"\(fields.joined(separator: ","))\"")
                }
                sawHeader = true
                continue
            }
            guard sawHeader else {
                throw BenchmarkCSVError(code: .badHeader, file: file, line: record.line, message: "data before the header; expected package-benchmark's influx export (swift package benchmark --format influx)")
            }
            guard fields.count == columns.count else {
                throw BenchmarkCSVError(code: .wrongFieldCount, file: file, line: record.line, message: "\(fields.count) fields, expected \(columns.count)")
            }
            func number(_ index: Int) throws(BenchmarkCSVError) -> Double {
                guard let value = Double(fields[index]), value.isFinite else {
                    throw BenchmarkCSVError(code: .invalidValue, file: file, line: record.line, message: "column '\(columns[index])' is not a number: \"\(fields[index])\"")
                }
                return value
            }
            let metric = MetricMapping(packageBenchmarkMetric: fields[6])
            let key = BenchmarkRow.Key(suite: suiteName(target: fields[0]), benchmark: fields[8], metric: metric.name)
            let percentile = try number(9)
            let value = try number(10) / metric.divisor
            let iterations = try number(12)
            guard iterations >= 1, iterations == iterations.rounded() else {
                throw BenchmarkCSVError(code: .invalidValue, file: file, line: record.line, message: "column 'iterations' is not a positive whole number: \"\(fields[12])\"")
            }
            var entry = collected[key] ?? Collected(unit: metric.unit, line: record.line)
            entry.values[percentile] = value
            entry.samples = Int(iterations)
            collected[key] = entry
        }
        guard sawHeader else {
            throw BenchmarkCSVError(code: .badHeader, file: file, line: nil, message: "no header; expected package-benchmark's influx export (swift package benchmark --format influx)")
        }
        var rows: [BenchmarkRow] = []
        for (key, entry) in collected.sorted(by: { $0.key < $1.key }) {
            var divisor = 1.0
            if MetricMapping.perOperation.contains(key.metric),
               let repeats = collected[BenchmarkRow.Key(suite: key.suite, benchmark: key.benchmark, metric: "iterations_per_sample")]?.values[50] {
                guard repeats >= 1 else {
                    throw BenchmarkCSVError(code: .invalidValue, file: file, line: entry.line, message: "\(key.suite)/\(key.benchmark) iterations_per_sample is \(repeats); it must be at least 1")
                }
                divisor = repeats
            }
            func at(_ percentile: Double) throws(BenchmarkCSVError) -> Double {
                guard let value = entry.values[percentile] else {
                    throw BenchmarkCSVError(code: .malformed, file: file, line: entry.line, message: "\(key) has no value at percentile \(percentile)")
                }
                return value / divisor
            }
            rows.append(BenchmarkRow(
                suite: key.suite, benchmark: key.benchmark, metric: key.metric, unit: entry.unit,
                p50: try at(50), p90: try at(90), p99: try at(99), min: try at(0), max: try at(100),
                samples: entry.samples,
                commit: environment.commit, swiftVersion: environment.swiftVersion,
                host: environment.host, timestamp: environment.timestamp
            ))
        }
        return rows
    }

    /// `PushToVisibleBenchmarks` → `push-to-visible`.
    package static func suiteName(target: String) -> String {
        var name = target
        if name.hasSuffix("Benchmarks"), name != "Benchmarks" { name.removeLast("Benchmarks".count) }
        var result = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0 { result.append("-") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }

    private struct Collected {
        var unit: String
        var line: Int
        var values: [Double: Double] = [:]
        var samples = 0
    }
}

/// How one of package-benchmark's metric names maps onto the schema's metric, unit and scale.
struct MetricMapping: Hashable {
    var name: String
    var unit: String
    /// What the export's raw value is divided by to be in `unit` (dividing, not multiplying by
    /// 0.001, keeps 1910 ns exactly 1.91 us).
    var divisor: Double

    /// The metrics that describe a sample's operations together and are divided by
    /// `iterations_per_sample` to describe one.
    static let perOperation: Set<String> = ["wall_clock", "cpu_total", "cpu_user", "cpu_system", "allocations", "instructions"]

    init(packageBenchmarkMetric metric: String) {
        switch metric {
        case "Time(wallclock)": self.init(name: "wall_clock", unit: "us", divisor: 1000)
        case "Time(totalCPU)": self.init(name: "cpu_total", unit: "us", divisor: 1000)
        case "Time(userCPU)": self.init(name: "cpu_user", unit: "us", divisor: 1000)
        case "Time(systemCPU)": self.init(name: "cpu_system", unit: "us", divisor: 1000)
        case "Malloc(total)": self.init(name: "allocations", unit: "count", divisor: 1)
        case "Instructions": self.init(name: "instructions", unit: "count", divisor: 1)
        case "Memory(residentpeak)": self.init(name: "peak_resident", unit: "bytes", divisor: 1)
        default:
            let name = Self.snakeCase(metric)
            let suffixes: [(String, String)] = [("_bytes", "bytes"), ("_us", "us"), ("_ns", "ns"), ("_ms", "ms"), ("_mbps", "MB/s")]
            let unit = suffixes.first { name.hasSuffix($0.0) }?.1 ?? "count"
            self.init(name: name, unit: unit, divisor: 1)
        }
    }

    init(name: String, unit: String, divisor: Double) {
        self.name = name
        self.unit = unit
        self.divisor = divisor
    }

    /// `Malloc(small)` → `malloc_small`; custom names in snake case stay as they are.
    static func snakeCase(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isLetter || character.isNumber {
                result.append(contentsOf: character.lowercased())
            } else if !result.isEmpty, result.last != "_" {
                result.append("_")
            }
        }
        while result.last == "_" { result.removeLast() }
        return result.isEmpty ? "metric" : result
    }
}
