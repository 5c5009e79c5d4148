/// The codecs the benchmark compares.
public enum CodecRegistry {
    /// Every codec the suite measures, in report order. Add yours with one line, e.g.
    /// `builtIn + [SortedKeysJSONCodec()]`; see "Adding your own codec" in Benchmarks/README.md.
    public static let all: [any BenchmarkCodec] = builtIn + [
        // YourCodec(),
    ]

    /// The six codecs of the comparison. Their names are part of the report schema: the CSV
    /// converter and the committed baseline refer to them.
    public static let builtIn: [any BenchmarkCodec] = [
        JSONCodec(),
        PropertyListCodec(),
        ProtobufCodec(),
        MessagePackCodableCodec(),
        MessagePackFastCodec(),
        MessagePackV1Codec(),
    ]

    /// Checks that every name is usable in a benchmark name and appears once.
    public static func validate(_ codecs: [any BenchmarkCodec]) throws(CodecBenchError) {
        var seen: Set<String> = []
        for codec in codecs {
            let name = codec.name
            guard !name.isEmpty, !name.contains("/") else {
                throw CodecBenchError(.invalidCodecName, "codec \(type(of: codec)) has the name \"\(name)\"; a name must be non-empty and contain no \"/\"")
            }
            guard seen.insert(name).inserted else {
                throw CodecBenchError(.invalidCodecName, "two codecs are named \"\(name)\" (one is \(type(of: codec))); rename one so benchmark names stay unique")
            }
        }
    }
}
