import CodecBench
import Foundation

// The codec suite's workloads as one short program, for profiling them under callgrind, where
// instruction counts hold still on a loaded machine (docs/BENCHMARKS.md, "Codec speed: where the
// time went"):
//
//   lowband-codec-probe FIXTURE CODEC encode|decode [--repeat N]
//
// Builds the workload (the same `CodecWorkload` the benchmark runs), encodes it once, warms the
// operation once, then runs it N times (default 1000) inside `measured(_:_:)`, which callgrind
// counts alone with `--collect-atstart=no --toggle-collect='*measured*'`:
//
//   strip -g -o /tmp/probe lowband-codec-probe    # valgrind 3.19 cannot read Swift 6.3's DWARF
//   SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measured*' \
//       /tmp/probe contacts-500 msgpack-codable decode --repeat 5

func fail(_ text: String) -> Never {
    print("lowband-codec-probe: \(text)")
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, ["encode", "decode"].contains(arguments[2]) else {
    fail("usage: lowband-codec-probe FIXTURE CODEC encode|decode [--repeat N]")
}
var repeats = 1000
if let index = arguments.firstIndex(of: "--repeat"), index + 1 < arguments.count, let count = Int(arguments[index + 1]) {
    repeats = count
}

let workload: CodecWorkload
do {
    guard let found = try CodecWorkload.all().first(where: { $0.fixture == arguments[0] && $0.codec == arguments[1] }) else {
        fail("no workload \(arguments[0])/\(arguments[1])")
    }
    workload = found
} catch {
    fail("\(error)")
}

/// The operation `count` times: the only function callgrind counts.
@inline(never)
func measured(_ count: Int, _ body: () throws -> Void) rethrows {
    for _ in 0 ..< count { try body() }
}

do {
    let bytes = try workload.verifiedEncoding()
    if arguments[2] == "encode" {
        var size = 0
        try workload.encode().withUnsafeBufferPointer { size = $0.count }
        try measured(repeats) { size &+= try workload.encode().count }
        print("\(workload.fixture)/\(workload.codec)/encode × \(repeats): \(bytes.count) bytes")
    } else {
        try workload.decode(bytes)
        try measured(repeats) { try workload.decode(bytes) }
        print("\(workload.fixture)/\(workload.codec)/decode × \(repeats): \(bytes.count) bytes")
    }
} catch {
    fail("\(error)")
}
