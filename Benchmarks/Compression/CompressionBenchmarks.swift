import Benchmark
import CompressionBench

/// `<input>/<method>/compress` and `<input>/<method>/decompress` for every input and method of
/// CompressionBench, plus `lz4 -b` next to our wrapper as `<input>/lz4-a1/vs-lz4-cli`.
///
/// One iteration compresses (or decompresses) every payload of the input — all 1,000 pushes
/// for `small-messages` — so `input_bytes` and `compressed_bytes` are per-iteration totals.
/// Buffers are allocated in setup; only the codec runs between start and stop of a measurement.
///
/// The `lz4 -b` comparison is a benchmark of its own with one sample, one comparison: recorded
/// on `<input>/lz4-a1/compress` with every compress sample, its speeds said 2,000 samples
/// (package-benchmark's export gives one sample count per benchmark) for one measurement.
let benchmarks: @Sendable () -> Void = {
    let inputs: [CompressionInput]
    let methods: [CompressionMethod]
    do {
        inputs = try CompressionInput.catalogue()
        methods = CompressionMethod.catalogue(dictionary: try CompressionDictionary.make(), zstdDictionary: try ZstdDictionary.make())
    } catch {
        fatalError("CompressionBenchmarks: the fixture payloads do not encode: \(error)")
    }

    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]
    let sizeMetrics: [BenchmarkMetric] = [.custom("input_bytes"), .custom("compressed_bytes")]
    let configuration = Benchmark.Configuration(metrics: metrics, maxDuration: .milliseconds(300), maxIterations: 2_000)
    // Bytes and MB/s are shown as they are, not as "21 K".
    let exactUnits = Dictionary(uniqueKeysWithValues: (sizeMetrics + LZ4Comparison.metrics).map { ($0, BenchmarkUnits.count) })
    // One comparison takes about 6 s (three rounds of a second a side) and is recorded once.
    var comparisonConfiguration = Benchmark.Configuration(
        metrics: LZ4Comparison.metrics, warmupIterations: 0, maxDuration: .seconds(60), maxIterations: 1
    )
    comparisonConfiguration.units = exactUnits

    for input in inputs {
        for method in methods {
            let slot = WorkloadSlot(input: input, method: method)
            let name = "\(input.id)/\(method.id)"
            var compressConfiguration = configuration
            compressConfiguration.metrics += sizeMetrics
            compressConfiguration.units = exactUnits

            Benchmark("\(name)/compress", configuration: compressConfiguration) { benchmark in
                let workload = try slot.workload()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try workload.compress())
                }
                benchmark.stopMeasurement()
                benchmark.measurement(.custom("input_bytes"), workload.inputBytes)
                benchmark.measurement(.custom("compressed_bytes"), workload.compressedBytes)
            } setup: {
                try slot.prepare()
            } teardown: {
                slot.release()
            }

            Benchmark("\(name)/decompress", configuration: configuration) { benchmark in
                let workload = try slot.workload()
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations {
                    blackHole(try workload.decompress())
                }
                benchmark.stopMeasurement()
            } setup: {
                try slot.prepare()
            } teardown: {
                slot.release()
            }

            // lz4 -b next to our wrapper, on the whole-payload inputs.
            if method.id == "lz4-a1" && input.payloads.count == 1 {
                Benchmark("\(name)/\(LZ4Comparison.operation)", configuration: comparisonConfiguration) { benchmark in
                    LZ4Comparison.record(try LZ4Comparison.run(input), in: benchmark)
                }
            }
        }
    }
}
