public import LowbandReports

/// Ratios between benchmarks of one run, added to a report as rows of their own.
///
/// Comparisons are only fair within one run on one machine, so every ratio here is computed from
/// rows of the same report (p50 over p50, or the suite's own same-method figures) and never
/// against a committed number. Each ratio row has one sample, unit `x`. Which way is better follows
/// ``MetricDirection``: names with `speedup` are higher-better, the rest (sizes, growth, time over
/// a floor) lower-better. The naming conventions of the benchmark targets (Benchmarks/README.md)
/// are what this reads:
/// - codec: `<fixture>/<codec>/encode|decode` with `wall_clock`, `instructions`, `encoded_bytes`,
///   `lz4_bytes` → `<fixture>/<codec>` `speedup_vs_json`, `instructions_speedup_vs_json`,
///   `bytes_vs_json`, `lz4_bytes_vs_json`, and against protobuf on the same fixture
///   `speedup_vs_protobuf`, `bytes_vs_protobuf`, `lz4_bytes_vs_protobuf` (LZ4 size over LZ4 size);
/// - compression: `<input>/<method>/compress|decompress` with `input_bytes`, `compressed_bytes`
///   and, on `lz4-a1`, lz4 -b's and our same-method speeds → `<input>/<method>` `size_vs_input`,
///   `compress_throughput`, `decompress_throughput` (MB/s), `compress_speedup_vs_lz4_cli`,
///   `decompress_speedup_vs_lz4_cli`;
/// - startup: `<graph>/hand|swinject` → `<graph>` `hand_speedup_vs_container` (and by
///   instructions); `synthetic-N/hand` → `synthetic/hand` and `synthetic/swinject`
///   `growth_100_to_1000` (1000-service time over 100-service time: 10 is linear);
///   `cold-start/engine|raw-sqlite` → `cold-start` `engine_vs_raw_query`;
/// - push-to-visible: `<profile>/push-to-visible` with `floor_us` → `p50_vs_floor`, `p99_vs_floor`.
public enum DerivedFigures {
    public static func rows(from rows: [BenchmarkRow], environment: RunEnvironment) -> [BenchmarkRow] {
        var index: [BenchmarkRow.Key: BenchmarkRow] = [:]
        for row in rows { index[row.key] = row }
        func value(_ suite: String, _ benchmark: String, _ metric: String, _ statistic: BenchmarkRow.Statistic = .p50) -> Double? {
            index[BenchmarkRow.Key(suite: suite, benchmark: benchmark, metric: metric)]?.value(of: statistic)
        }
        var derived: [BenchmarkRow] = []
        func add(_ suite: String, _ benchmark: String, _ metric: String, _ number: Double?, unit: String = "x") {
            guard let number, number.isFinite else { return }
            derived.append(BenchmarkRow(suite: suite, benchmark: benchmark, metric: metric, unit: unit, value: number, environment: environment))
        }
        func ratio(_ numerator: Double?, _ denominator: Double?) -> Double? {
            guard let numerator, let denominator, denominator > 0 else { return nil }
            return numerator / denominator
        }
        func sum(_ a: Double?, _ b: Double?) -> Double? {
            guard let a, let b else { return nil }
            return a + b
        }

        // Codec: every codec against Foundation's JSON on the same fixture.
        let codecPairs = Set(rows.filter { $0.suite == "codec" }.compactMap { pairName($0.benchmark, operations: ["encode", "decode"]) })
        for pair in codecPairs.sorted() {
            let parts = pair.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1] != "json" else { continue }
            let json = "\(parts[0])/json"
            for (metric, name) in [("wall_clock", "speedup_vs_json"), ("instructions", "instructions_speedup_vs_json")] {
                add("codec", pair, name, ratio(
                    sum(value("codec", "\(json)/encode", metric), value("codec", "\(json)/decode", metric)),
                    sum(value("codec", "\(pair)/encode", metric), value("codec", "\(pair)/decode", metric))
                ))
            }
            add("codec", pair, "bytes_vs_json", ratio(value("codec", "\(pair)/encode", "encoded_bytes"), value("codec", "\(json)/encode", "encoded_bytes")))
            add("codec", pair, "lz4_bytes_vs_json", ratio(value("codec", "\(pair)/encode", "lz4_bytes"), value("codec", "\(json)/encode", "encoded_bytes")))
            // Wire format v2's targets are set against protobuf (issue 13).
            let protobuf = "\(parts[0])/protobuf"
            guard parts[1] != "protobuf" else { continue }
            add("codec", pair, "speedup_vs_protobuf", ratio(
                sum(value("codec", "\(protobuf)/encode", "wall_clock"), value("codec", "\(protobuf)/decode", "wall_clock")),
                sum(value("codec", "\(pair)/encode", "wall_clock"), value("codec", "\(pair)/decode", "wall_clock"))
            ))
            add("codec", pair, "bytes_vs_protobuf", ratio(value("codec", "\(pair)/encode", "encoded_bytes"), value("codec", "\(protobuf)/encode", "encoded_bytes")))
            add("codec", pair, "lz4_bytes_vs_protobuf", ratio(value("codec", "\(pair)/encode", "lz4_bytes"), value("codec", "\(protobuf)/encode", "lz4_bytes")))
        }

        // Compression: ratio and speed per input and method; our LZ4 against lz4 -b.
        let compressionPairs = Set(rows.filter { $0.suite == "compression" }.compactMap { pairName($0.benchmark, operations: ["compress", "decompress"]) })
        for pair in compressionPairs.sorted() {
            let compress = "\(pair)/compress"
            let input = value("compression", compress, "input_bytes")
            add("compression", pair, "size_vs_input", ratio(value("compression", compress, "compressed_bytes"), input))
            // bytes per microsecond = MB/s (10^6 bytes per second).
            add("compression", pair, "compress_throughput", ratio(input, value("compression", compress, "wall_clock")), unit: "MB/s")
            add("compression", pair, "decompress_throughput", ratio(input, value("compression", "\(pair)/decompress", "wall_clock")), unit: "MB/s")
            add("compression", pair, "compress_speedup_vs_lz4_cli", ratio(value("compression", compress, "ours_compress_mbps"), value("compression", compress, "lz4_cli_compress_mbps")))
            add("compression", pair, "decompress_speedup_vs_lz4_cli", ratio(value("compression", compress, "ours_decompress_mbps"), value("compression", compress, "lz4_cli_decompress_mbps")))
        }

        // Start-up: hand wiring against the container on the same graph, and growth with size.
        let graphs = Set(rows.filter { $0.suite == "startup" }.compactMap { pairName($0.benchmark, operations: ["hand", "swinject"]) })
        for graph in graphs.sorted() {
            add("startup", graph, "hand_speedup_vs_container", ratio(value("startup", "\(graph)/swinject", "wall_clock"), value("startup", "\(graph)/hand", "wall_clock")))
            add("startup", graph, "hand_instructions_speedup_vs_container", ratio(value("startup", "\(graph)/swinject", "instructions"), value("startup", "\(graph)/hand", "instructions")))
        }
        for wiring in ["hand", "swinject"] {
            add("startup", "synthetic/\(wiring)", "growth_100_to_1000", ratio(value("startup", "synthetic-1000/\(wiring)", "wall_clock"), value("startup", "synthetic-100/\(wiring)", "wall_clock")))
            add("startup", "synthetic/\(wiring)", "instructions_growth_100_to_1000", ratio(value("startup", "synthetic-1000/\(wiring)", "instructions"), value("startup", "synthetic-100/\(wiring)", "instructions")))
        }
        add("startup", "cold-start", "engine_vs_raw_query", ratio(value("startup", "cold-start/engine", "wall_clock"), value("startup", "cold-start/raw-sqlite", "wall_clock")))
        add("startup", "cold-start", "engine_vs_raw_query_instructions", ratio(value("startup", "cold-start/engine", "instructions"), value("startup", "cold-start/raw-sqlite", "instructions")))

        // Push-to-visible: the measured time over the profile's physical floor.
        for row in rows where row.suite == "push-to-visible" && row.metric == "wall_clock" {
            let floor = value("push-to-visible", row.benchmark, "floor_us")
            add("push-to-visible", row.benchmark, "p50_vs_floor", ratio(row.p50, floor))
            add("push-to-visible", row.benchmark, "p99_vs_floor", ratio(row.p99, floor))
        }
        return derived
    }

    /// `login-reply-50/json/encode` → `login-reply-50/json` when the last component is one of
    /// `operations`.
    static func pairName(_ benchmark: String, operations: Set<String>) -> String? {
        guard let slash = benchmark.lastIndex(of: "/"), operations.contains(String(benchmark[benchmark.index(after: slash)...])) else { return nil }
        return String(benchmark[..<slash])
    }
}
