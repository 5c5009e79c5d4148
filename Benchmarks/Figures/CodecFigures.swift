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
        speedup("speedup_vs_json", of: "wall_clock", against: "json", summary: "JSON's encode + decode time over the codec's (p50)"),
        speedup("instructions_speedup_vs_json", of: "instructions", against: "json", summary: "JSON's encode + decode instructions over the codec's"),
        size("bytes_vs_json", of: "encoded_bytes", over: "encoded_bytes", against: "json", summary: "the codec's encoded bytes over JSON's"),
        size("lz4_bytes_vs_json", of: "lz4_bytes", over: "encoded_bytes", against: "json", summary: "the codec's bytes after LZ4 over JSON's raw bytes"),
        speedup("speedup_vs_protobuf", of: "wall_clock", against: "protobuf", summary: "protobuf's encode + decode time over the codec's (p50)"),
        size("bytes_vs_protobuf", of: "encoded_bytes", over: "encoded_bytes", against: "protobuf", summary: "the codec's encoded bytes over protobuf's"),
        size("lz4_bytes_vs_protobuf", of: "lz4_bytes", over: "lz4_bytes", against: "protobuf", summary: "the codec's bytes after LZ4 over protobuf's after LZ4"),
    ]

    public static let targets: [BenchmarkTarget] = [
        BenchmarkTarget(
            name: "codable-3x-json", promise: "MessagePack Codable encode+decode >= 3x faster than JSON", reason: "issue 5",
            suite: suite, benchmarkSuffix: "/msgpack-codable", metric: "speedup_vs_json", comparison: .atLeast, goal: 3
        ),
        BenchmarkTarget(
            name: "codable-5x-json", promise: "MessagePack Codable encode+decode >= 5x faster than JSON", reason: "issue 13",
            suite: suite, benchmarkSuffix: "/msgpack-codable", metric: "speedup_vs_json", comparison: .atLeast, goal: 5
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

    /// `reference`'s encode + decode over the codec's, for `measured` (`wall_clock` or
    /// `instructions`): higher is better.
    static func speedup(_ metric: String, of measured: String, against reference: String, summary: String) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: metric, direction: .higherIsBetter, summary: summary) { report in
            pairs(report, against: reference).map {
                .init(benchmark: $0.pair, numerator: roundTrip(report, $0.reference, measured), denominator: roundTrip(report, $0.pair, measured))
            }
        }
    }

    /// The codec's `measured` bytes over `reference`'s `referenceMetric` bytes, from the encode
    /// benchmarks: lower is better.
    static func size(_ metric: String, of measured: String, over referenceMetric: String, against reference: String, summary: String) -> DerivedRatio {
        DerivedRatio(suite: suite, metric: metric, direction: .lowerIsBetter, summary: summary) { report in
            pairs(report, against: reference).map {
                .init(
                    benchmark: $0.pair, numerator: report.value(suite, "\($0.pair)/encode", measured),
                    denominator: report.value(suite, "\($0.reference)/encode", referenceMetric)
                )
            }
        }
    }

    /// Every `<fixture>/<codec>` with encode or decode rows, but JSON and `reference` themselves,
    /// with its fixture's `reference` codec.
    static func pairs(_ report: ReportRows, against reference: String) -> [(pair: String, reference: String)] {
        report.groups(suite: suite, operations: ["encode", "decode"]).compactMap { pair in
            let parts = pair.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1] != "json", parts[1] != reference else { return nil }
            return (pair, "\(parts[0])/\(reference)")
        }
    }

    /// Encode plus decode of `pair` in `metric`, or nil when either is missing.
    static func roundTrip(_ report: ReportRows, _ pair: String, _ metric: String) -> Double? {
        guard let encode = report.value(suite, "\(pair)/encode", metric), let decode = report.value(suite, "\(pair)/decode", metric) else { return nil }
        return encode + decode
    }
}
