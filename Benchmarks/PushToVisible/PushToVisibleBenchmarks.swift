import Benchmark
import PushBench

// `<profile>/push-to-visible` for perfect, 3g, edge and gprs: the real server pushes one message
// through the real shaping proxy (profiles/<profile>.yaml, shaper seed 1) to a real client engine
// with the chat open; one iteration is one push, measured from the benchmark's task around the
// push until the row is in the chat screen's list. Server, proxy and client are started once per
// profile (setup) and stopped after its last push (teardown). Before each push, outside the
// measurement, the harness waits for the previous push's list animation to end.
// `floor_us` and `median_us` (the least time the profile allows for the frame and the time it
// implies for the median one: LowbandShaper's `PhysicalFloor`, docs/BENCHMARKS.md) and
// `frame_bytes` (the push frame as the proxy delivered it, header included) are recorded with
// every sample: package-
// benchmark's influx export gives one sample count per benchmark, taken from its last metric, so
// a figure recorded once would make the report say the latency had one sample.
let benchmarks: @Sendable () -> Void = {
    for plan in PushBenchPlan.standard {
        let run = PushBenchRun(plan: plan, shaperSeed: 1)
        let configuration = Benchmark.Configuration(
            metrics: [
                .wallClock, .custom("push_to_visible_us"), .custom("client_us"), .custom("floor_us"), .custom("median_us"), .custom("frame_bytes"),
            ],
            warmupIterations: 1,
            maxDuration: plan.maxDuration,
            maxIterations: plan.maxIterations
        )
        Benchmark(
            plan.benchmarkName, configuration: configuration,
            closure: { benchmark in
                let harness = try run.current()
                let ticket = try await harness.prepare()
                benchmark.startMeasurement()
                let push = try await harness.push(ticket)
                benchmark.stopMeasurement()
                let sample = try await harness.sample(of: push)
                benchmark.measurement(.custom("push_to_visible_us"), microseconds(sample.pushToVisible))
                benchmark.measurement(.custom("client_us"), microseconds(push.clientShare ?? .zero))
                benchmark.measurement(.custom("floor_us"), microseconds(sample.floor.least))
                benchmark.measurement(.custom("median_us"), microseconds(sample.floor.median ?? .zero))
                benchmark.measurement(.custom("frame_bytes"), sample.frameBytes)
            },
            setup: { try await run.start() },
            teardown: { try await run.stop() }
        )
    }
}

/// Whole microseconds, rounded to the nearest.
private func microseconds(_ duration: Duration) -> Int {
    Int((duration / .microseconds(1)).rounded())
}
