import Foundation
import StartupBench

// The start-up suite's workloads as one short program, for counting their instructions under
// callgrind (`lowband startup --measure instructions`) where CPU performance counters are
// missing and package-benchmark writes no `instructions` rows (scripts/bench.sh --suite startup).
//
//   lowband-startup-probe prepare FILE                      builds the cold-start cache into FILE
//   lowband-startup-probe BENCHMARK|none --cache FILE --work DIR [--repeat N]
//
// A run sets up every benchmark's inputs (the cold-start cache copied from FILE into DIR, the
// same path every run), runs each benchmark once to warm it, then BENCHMARK `N` more times,
// prints `ready` and exits. `none` does all but the last step, so (count(BENCHMARK) −
// count(none)) / N is one warm wiring or cold start, as package-benchmark measures it. The
// 1000-service graph is not wired through Swinject to warm it: at 60 % of a run's 72 M
// instructions it would cost every run of the suite; the 30- and 100-service graphs wired
// through Swinject warm the same code.

let seed: UInt64 = 7
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ text: String) -> Never {
    FileHandle.standardError.write(Data("lowband-startup-probe: \(text)\n".utf8))
    exit(2)
}

func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}

if arguments.first == "prepare" {
    guard arguments.count == 2 else { fail("usage: lowband-startup-probe prepare FILE") }
    do {
        let cache = try ColdStartCache.create()
        try? FileManager.default.removeItem(atPath: arguments[1])
        try FileManager.default.copyItem(atPath: cache.path, toPath: arguments[1])
        cache.remove()
    } catch {
        fail("cannot build the cold-start cache: \(error)")
    }
    exit(0)
}

guard let name = arguments.first, let source = option("--cache"), let work = option("--work") else {
    fail("usage: lowband-startup-probe BENCHMARK|none --cache FILE --work DIR [--repeat N]")
}
let repeats = option("--repeat").flatMap(Int.init) ?? 1

let path = work + "/cache.sqlite"
let inputs: ClientGraphInputs
do {
    // The same steps whatever the last run left: a count that depends on whether a file was
    // there moves from the first run to the next (the caller runs `none` once unmeasured).
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try FileManager.default.copyItem(atPath: source, toPath: path)
    inputs = try ClientGraphInputs.inMemory(seed: seed)
} catch {
    fail("cannot set up: \(error)")
}
let graphs = Dictionary(uniqueKeysWithValues: [30, 100, 1000].map { ($0, SyntheticGraph(size: $0, seed: seed)) })
let engine = EngineColdStart(databasePath: path)
let query = RawChatListQuery(path: path)

/// Each benchmark's body, as Benchmarks/Startup/StartupBenchmarks.swift measures it.
let bodies: [(String, () throws -> Void)] = [
    ("client-graph/hand", { withExtendedLifetime(ClientGraph.wiredByHand(inputs)) {} }),
    ("client-graph/swinject", { withExtendedLifetime(ClientGraph.wiredBySwinject(inputs)) {} }),
] + [30, 100, 1000].flatMap { size -> [(String, () throws -> Void)] in
    let graph = graphs[size]!
    return [
        ("synthetic-\(size)/hand", { withExtendedLifetime(graph.wiredByHand()) {} }),
        ("synthetic-\(size)/swinject", { withExtendedLifetime(graph.wiredBySwinject()) {} }),
    ]
} + [
    ("cold-start/engine", { withExtendedLifetime(try engine.launch()) {} }),
    ("cold-start/raw-sqlite", { withExtendedLifetime(try query.run()) {} }),
]

guard name == "none" || bodies.contains(where: { $0.0 == name }) else {
    fail("no benchmark '\(name)'; known: none, \(bodies.map(\.0).joined(separator: ", "))")
}
do {
    for (benchmark, body) in bodies where benchmark != "synthetic-1000/swinject" { try body() }
    for (benchmark, body) in bodies where benchmark == name {
        for _ in 0 ..< repeats { try body() }
    }
} catch {
    fail("\(name): \(error)")
}
print("ready")
