import Benchmark
import CodecBench

// Every fixture × registered codec (CodecRegistry.all): `<fixture>/<codec>/encode` and
// `<fixture>/<codec>/decode`. The encode benchmark also records the encoded size and its size as
// one LZ4 block, after the measured part. A codec that does not round-trip a fixture is reported
// as a failed benchmark instead of measured.
//
// A sample repeats the operation `repetitions(for:)` times: with `.instructions` on,
// package-benchmark reads the perf counters inside every measured window (about 1.5 µs and 16
// allocations per sample here, measured with an empty body), as much as encoding a whole push.
// The benchmark records `iterations_per_sample`, and `lowband bench import` divides time,
// allocations and instructions by it, so the report shows one operation.
let benchmarks: @Sendable () -> Void = {
    let timing: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .instructions, .custom("iterations_per_sample")]
    let encodeConfiguration = Benchmark.Configuration(
        metrics: timing + [.custom("encoded_bytes"), .custom("lz4_bytes")],
        maxDuration: .seconds(1),
        maxIterations: 10_000
    )
    let decodeConfiguration = Benchmark.Configuration(metrics: timing, maxDuration: .seconds(1), maxIterations: 10_000)

    let workloads: [CodecWorkload]
    do {
        workloads = try CodecWorkload.all()
    } catch {
        fatalError("The codec registry is invalid: \(error)")
    }

    for workload in workloads {
        let bytes: [UInt8]
        do {
            bytes = try workload.verifiedEncoding()
        } catch {
            for name in [workload.encodeBenchmarkName, workload.decodeBenchmarkName] {
                Benchmark(name, configuration: decodeConfiguration) { benchmark in
                    benchmark.error("\(workload.codec) cannot be measured on \(workload.fixture): \(error)")
                }
            }
            continue
        }

        let repeats = repetitions(for: workload.fixture)
        Benchmark(workload.encodeBenchmarkName, configuration: encodeConfiguration) { benchmark in
            var encoded: [UInt8] = []
            for _ in benchmark.scaledIterations {
                for _ in 0 ..< repeats {
                    encoded = try workload.encode()
                    blackHole(encoded)
                }
            }
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("iterations_per_sample"), repeats)
            benchmark.measurement(.custom("encoded_bytes"), encoded.count)
            benchmark.measurement(.custom("lz4_bytes"), try CodecWorkload.lz4Size(of: encoded))
        }

        Benchmark(workload.decodeBenchmarkName, configuration: decodeConfiguration) { benchmark in
            for _ in benchmark.scaledIterations {
                for _ in 0 ..< repeats {
                    try workload.decode(bytes)
                }
            }
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("iterations_per_sample"), repeats)
        }
    }
}

/// How many operations one sample measures: enough that the counter reads are under about 1 %
/// of the fast path's time on the fixture.
func repetitions(for fixture: String) -> Int {
    switch fixture {
    case "push-1": 500
    case "history-page-50": 50
    default: 10
    }
}
