import Benchmark
import StartupBench

// Start-up wiring and cold start; see Benchmarks/README.md.
//
// Wiring samples build `graphsPerSample` graphs each: with `.instructions` on, package-benchmark
// reads the perf counters inside every measured window, which costs about 1.7 µs, 16
// allocations and 500 instructions per sample on a 2-core VM (measured with an empty body),
// more than wiring the client graph by hand (0.4 µs, 12 allocations). A hundred graphs per
// sample keep that under 1 % of the smallest figure, so hand/container ratios and growth are
// the code's, not the harness's. Each wiring benchmark records `iterations_per_sample`, and
// `lowband bench import` divides its time, allocations and instructions by it, so the report
// shows the cost of one graph.
let graphsPerSample = 100

let benchmarks: @Sendable () -> Void = {
    // Instruction counts are stable on shared machines; the CI gate uses their ratios.
    let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, .instructions]
    // Ten benchmarks of about 2 s plus two 10,000-message caches: the suite runs in about a minute.
    let configuration = Benchmark.Configuration(metrics: metrics, warmupIterations: 3, maxDuration: .seconds(2), maxIterations: 5_000)
    let wiring = Benchmark.Configuration(
        metrics: metrics + [.custom("iterations_per_sample")], warmupIterations: 3, maxDuration: .seconds(2), maxIterations: 5_000
    )
    let seed: UInt64 = 7

    Benchmark("client-graph/hand", configuration: wiring) { benchmark, inputs in
        measureWiring(benchmark) { ClientGraph.wiredByHand(inputs) }
    } setup: {
        try ClientGraphInputs.inMemory(seed: seed)
    }

    Benchmark("client-graph/swinject", configuration: wiring) { benchmark, inputs in
        measureWiring(benchmark) { ClientGraph.wiredBySwinject(inputs) }
    } setup: {
        try ClientGraphInputs.inMemory(seed: seed)
    }

    for size in [30, 100, 1000] {
        Benchmark("synthetic-\(size)/hand", configuration: wiring) { benchmark, graph in
            measureWiring(benchmark) { graph.wiredByHand() }
        } setup: {
            SyntheticGraph(size: size, seed: seed)
        }

        Benchmark("synthetic-\(size)/swinject", configuration: wiring) { benchmark, graph in
            measureWiring(benchmark) { graph.wiredBySwinject() }
        } setup: {
            SyntheticGraph(size: size, seed: seed)
        }
    }

    // Cold start, one launch per sample: the cache file is built in setup and deleted in
    // teardown; the measured body opens it, migrates, restores the outbox and reads the first
    // screen. The raw query's time includes closing its read-only connection (no journal to
    // checkpoint), which only makes the raw figure slower.
    let engineCache = CacheHolder()
    Benchmark("cold-start/engine", configuration: configuration) { benchmark in
        guard let engine = engineCache.engine else { return benchmark.error("the cold-start cache was not built in setup") }
        // Open, migrate, restore the outbox, first screen; the clock stops before the engine is
        // released, since closing the file is not on the way to the first screen.
        let launch = try engine.launch()
        benchmark.stopMeasurement()
        blackHole(launch)
    } setup: {
        try engineCache.build()
    } teardown: {
        engineCache.remove()
    }

    let rawCache = CacheHolder()
    Benchmark("cold-start/raw-sqlite", configuration: configuration) { benchmark in
        guard let query = rawCache.query else { return benchmark.error("the cold-start cache was not built in setup") }
        for _ in benchmark.scaledIterations {
            blackHole(try query.run())
        }
    } setup: {
        try rawCache.build()
    } teardown: {
        rawCache.remove()
    }
}

/// Measures building `graphsPerSample` graphs. They are released after the measurement: an
/// app keeps its graph (and its container), so teardown is not start-up work.
func measureWiring<Graph>(_ benchmark: Benchmark, _ wire: () -> Graph) {
    for _ in benchmark.scaledIterations {
        var graphs: [Graph] = []
        graphs.reserveCapacity(graphsPerSample)
        benchmark.startMeasurement()
        for _ in 0 ..< graphsPerSample {
            graphs.append(wire())
        }
        benchmark.stopMeasurement()
        blackHole(graphs)
    }
    benchmark.measurement(.custom("iterations_per_sample"), graphsPerSample)
}

/// The cache a cold-start benchmark's setup built, for its body and its teardown.
final class CacheHolder {
    private(set) var cache: ColdStartCache?
    private(set) var engine: EngineColdStart?
    private(set) var query: RawChatListQuery?

    func build() throws {
        let cache = try ColdStartCache.create()
        self.cache = cache
        engine = EngineColdStart(databasePath: cache.path)
        query = RawChatListQuery(path: cache.path)
    }

    func remove() {
        cache?.remove()
        cache = nil
    }
}
