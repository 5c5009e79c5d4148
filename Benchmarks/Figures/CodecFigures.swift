public import LowbandReports

/// The codec suite's derived figures: every codec against Foundation's JSON on the same fixture,
/// and the targets issue 5 promises for MessagePack.
///
/// Reads the benchmarks `<fixture>/<codec>/encode|decode` with `wall_clock`, `instructions`,
/// `encoded_bytes` and `lz4_bytes`; adds, per `<fixture>/<codec>` other than `json`,
/// `speedup_vs_json` and `instructions_speedup_vs_json` (JSON's encode + decode over the
/// codec's: higher is better), `bytes_vs_json` and `lz4_bytes_vs_json` (the codec's bytes, raw and
/// after LZ4, over JSON's raw bytes: lower is better); and per `<fixture>/<codec>` other than
/// `json` and `protobuf`, against protobuf on the same fixture (wire format v2's targets, issue
/// 13): `speedup_vs_protobuf`, `bytes_vs_protobuf` and `lz4_bytes_vs_protobuf` (LZ4 size over
/// protobuf's LZ4 size).
public enum CodecFigures {
    public static let declared = DerivedFigures(ratios: ratios, targets: targets, summaries: summaries)

    static let suite = "codec"

    public static let ratios: [DerivedRatio] = [
        speedup("speedup_vs_json", of: "wall_clock", summary: "JSON's encode + decode time over the codec's (p50)"),
        speedup("instructions_speedup_vs_json", of: "instructions", summary: "JSON's encode + decode instructions over the codec's"),
        DerivedRatio(suite: suite, metric: "bytes_vs_json", direction: .lowerIsBetter, summary: "the codec's encoded bytes over JSON's") { report in
            pairs(report).map { .init(benchmark: $0.pair, numerator: report.value(suite, "\($0.pair)/encode", "encoded_bytes"), denominator: report.value(suite, "\($0.json)/encode", "encoded_bytes")) }
        },
        DerivedRatio(suite: suite, metric: "lz4_bytes_vs_json", direction: .lowerIsBetter, summary: "the codec's bytes after LZ4 over JSON's raw bytes") { report in
            pairs(report).map { .init(benchmark: $0.pair, numerator: report.value(suite, "\($0.pair)/encode", "lz4_bytes"), denominator: report.value(suite, "\($0.json)/encode", "encoded_bytes")) }
        },
        DerivedRatio(suite: suite, metric: "speedup_vs_protobuf", direction: .higherIsBetter, summary: "protobuf's encode + decode time over the codec's (p50)") { report in
            protobufPairs(report).map { .init(benchmark: $0.pair, numerator: roundTrip(report, $0.protobuf, "wall_clock"), denominator: roundTrip(report, $0.pair, "wall_clock")) }
        },
        DerivedRatio(suite: suite, metric: "bytes_vs_protobuf", direction: .lowerIsBetter, summary: "the codec's encoded bytes over protobuf's") { report in
            protobufPairs(report).map { .init(benchmark: $0.pair, numerator: report.value(suite, "\($0.pair)/encode", "encoded_bytes"), denominator: report.value(suite, "\($0.protobuf)/encode", "encoded_bytes")) }
        },
        DerivedRatio(suite: suite, metric: "lz4_bytes_vs_protobuf", direction: .lowerIsBetter, summary: "the codec's bytes after LZ4 over protobuf's after LZ4") { report in
            protobufPairs(report).map { .init(benchmark: $0.pair, numerator: report.value(suite, "\($0.pair)/encode", "lz4_bytes"), denominator: report.value(suite, "\($0.protobuf)/encode", "lz4_bytes")) }
        },
    ]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "codable-3x-json", promise: "MessagePack Codable encode+decode >= 3x faster than JSON", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/msgpack-codable", metric: "speedup_vs_json", comparison: .atLeast, goal: 3
        ),
        BenchmarkTarget(
            name: "fast-path-10x-json", promise: "MessagePack fast path encode+decode >= 10x faster than JSON", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/msgpack-fast", metric: "speedup_vs_json", comparison: .atLeast, goal: 10
        ),
        BenchmarkTarget(
            name: "msgpack-0.7x-json-bytes", promise: "MessagePack bytes <= 0.7x JSON bytes", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/msgpack-codable", metric: "bytes_vs_json", comparison: .atMost, goal: 0.7
        ),
        BenchmarkTarget(
            name: "msgpack-v2-bytes-le-protobuf", promise: "MessagePack v2 bytes <= protobuf's bytes", reason: "issue 13",
            suite: suite, benchmarkSuffix: "/msgpack-fast", metric: "bytes_vs_protobuf", comparison: .atMost, goal: 1
        ),
        BenchmarkTarget(
            name: "msgpack-v2-lz4-le-protobuf", promise: "LZ4(MessagePack v2) <= LZ4(protobuf)", reason: "issue 13",
            suite: suite, benchmarkSuffix: "/msgpack-fast", metric: "lz4_bytes_vs_protobuf", comparison: .atMost, goal: 1
        ),
        BenchmarkTarget(
            name: "fast-path-1.5x-protobuf", promise: "MessagePack fast path encode+decode >= 1.5x protobuf's speed", reason: "issue 13",
            suite: suite, benchmarkSuffix: "/msgpack-fast", metric: "speedup_vs_protobuf", comparison: .atLeast, goal: 1.5
        ),
    ]

    /// Codec × fixture: speed and size against JSON.
    public static let summaries: [PivotTable] = [
        PivotTable(title: "codec speed-up against JSON (encode + decode, p50 wall clock; higher is better)", suite: suite, metric: "speedup_vs_json", rowLabel: "fixture"),
        PivotTable(title: "codec size against JSON (bytes; lower is better)", suite: suite, metric: "bytes_vs_json", rowLabel: "fixture"),
        PivotTable(title: "codec size against JSON after LZ4 (lower is better)", suite: suite, metric: "lz4_bytes_vs_json", rowLabel: "fixture"),
    ]

    /// JSON's encode + decode over the codec's, for `measured` (`wall_clock` or `instructions`).
    static func speedup(_ metric: String, of measured: String, summary: String) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: metric, direction: .higherIsBetter, summary: summary) { report in
            pairs(report).map { .init(benchmark: $0.pair, numerator: roundTrip(report, $0.json, measured), denominator: roundTrip(report, $0.pair, measured)) }
        }
    }

    /// Every `<fixture>/<codec>` with encode or decode rows, but JSON itself, with its fixture's JSON.
    static func pairs(_ report: ReportRows) -> [(pair: String, json: String)] {
        report.groups(suite: suite, operations: ["encode", "decode"]).compactMap { pair in
            let parts = pair.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1] != "json" else { return nil }
            return (pair, "\(parts[0])/json")
        }
    }

    /// Every `<fixture>/<codec>` with encode or decode rows, but JSON and protobuf, with its
    /// fixture's protobuf.
    static func protobufPairs(_ report: ReportRows) -> [(pair: String, protobuf: String)] {
        pairs(report).compactMap { pair, _ in
            let parts = pair.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts[1] != "protobuf" else { return nil }
            return (pair, "\(parts[0])/protobuf")
        }
    }

    /// Encode plus decode of `pair` in `metric`, or nil when either is missing.
    static func roundTrip(_ report: ReportRows, _ pair: String, _ metric: String) -> Double? {
        guard let encode = report.value(suite, "\(pair)/encode", metric), let decode = report.value(suite, "\(pair)/decode", metric) else { return nil }
        return encode + decode
    }
}
