// swift-tools-version: 6.1
import PackageDescription

// Lowband's benchmark suites on package-benchmark: a nested package, as swift-nio keeps its
// benchmarks, so that a package depending on Lowband never resolves package-benchmark, Swinject
// or swift-protobuf. The kits can only use the root's public API.
//
// Each suite is a library of workloads under Kits/ (tested like any other code, in Tests/), a thin
// benchmark executable that registers them, and its ratios, targets and summary tables under
// Figures/ (LowbandReports' `DerivedFigures`), which `lowband-bench-derive` applies to a report
// written by `lowband bench import`. Run them with `make bench` (scripts/bench.sh); see README.md.

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

func lowband(_ product: String) -> Target.Dependency { .product(name: product, package: "lowband") }

func benchmarkExecutable(_ name: String, kit: String, path: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.target(name: kit), .product(name: "Benchmark", package: "benchmark")],
        path: path,
        swiftSettings: strict,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "lowband-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        // For packages comparing their own codec with Lowband's (Examples/CustomCodec): the
        // codec kit with its registry and fixtures, and the suites' ratios and targets.
        .library(name: "CodecBench", targets: ["CodecBench"]),
        .library(name: "BenchFigures", targets: ["BenchFigures"]),
    ],
    dependencies: [
        .package(name: "lowband", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject.git", from: "2.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        // Used by the kits directly; both resolve to the root's copies.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CZlib",
            path: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // zstd for the compression suite's trained-dictionary rows; the benchmarks' only, not the
        // library's (the wire speaks LZ4).
        .systemLibrary(
            name: "CZstd",
            path: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .target(
            name: "CodecBench",
            dependencies: [
                lowband("LowbandMessagePack"),
                lowband("LowbandLZ4"),
                lowband("LowbandWire"),
                lowband("LowbandFixtures"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Kits/CodecBench",
            exclude: ["Proto/catalogue.proto"],
            swiftSettings: strict
        ),
        .target(
            name: "CompressionBench",
            dependencies: [lowband("LowbandLZ4"), lowband("LowbandWire"), lowband("LowbandFixtures"), "CZlib", "CZstd"],
            path: "Kits/CompressionBench",
            swiftSettings: strict
        ),
        .target(
            name: "StartupBench",
            dependencies: [
                lowband("LowbandClient"),
                lowband("LowbandTransport"),
                lowband("LowbandWire"),
                lowband("LowbandFixtures"),
                lowband("LowbandDeterminism"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Kits/StartupBench",
            swiftSettings: strict
        ),
        .target(
            name: "PushBench",
            dependencies: [
                lowband("LowbandProfiles"),
                lowband("LowbandTesting"),
                lowband("LowbandServer"),
                lowband("LowbandClient"),
                lowband("LowbandProxy"),
                lowband("LowbandShaper"),
                lowband("LowbandWire"),
                lowband("LowbandFixtures"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Kits/PushBench",
            swiftSettings: strict
        ),
        benchmarkExecutable("CodecBenchmarks", kit: "CodecBench", path: "Codec"),
        benchmarkExecutable("CompressionBenchmarks", kit: "CompressionBench", path: "Compression"),
        benchmarkExecutable("StartupBenchmarks", kit: "StartupBench", path: "Startup"),
        benchmarkExecutable("PushToVisibleBenchmarks", kit: "PushBench", path: "PushToVisible"),
        // Every suite's ratios, targets and summary tables, apart from the workloads: applying
        // them needs LowbandReports only, not a release build of every kit.
        .target(name: "BenchFigures", dependencies: [lowband("LowbandReports")], path: "Figures", swiftSettings: strict),
        // The start-up suite's workloads as one short program whose instructions
        // scripts/bench.sh counts under callgrind where the CPU has no performance counters.
        .executableTarget(
            name: "lowband-startup-probe",
            dependencies: ["StartupBench"],
            path: "StartupProbe",
            swiftSettings: strict
        ),
        // The codec suite's workloads as one short program, to profile one codec's encode or
        // decode on one fixture under callgrind (docs/BENCHMARKS.md, "Codec speed: where the time went").
        .executableTarget(
            name: "lowband-codec-probe",
            dependencies: ["CodecBench"],
            path: "CodecProbe",
            swiftSettings: strict
        ),
        // Adds the suites' ratios and targets to a report of `lowband bench import`.
        .executableTarget(
            name: "lowband-bench-derive",
            dependencies: ["BenchFigures", lowband("LowbandReports")],
            path: "Derive",
            swiftSettings: strict
        ),
        .testTarget(
            name: "CodecBenchTests",
            dependencies: [
                "CodecBench", lowband("LowbandTestSupport"), lowband("LowbandBasics"), lowband("LowbandMessagePack"), lowband("LowbandWire"), lowband("LowbandFixtures"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "CompressionBenchTests",
            dependencies: ["CompressionBench", lowband("LowbandTestSupport"), lowband("LowbandProcess"), lowband("LowbandLZ4"), lowband("LowbandWire"), lowband("LowbandFixtures")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "StartupBenchTests",
            dependencies: ["StartupBench", lowband("LowbandClient"), lowband("LowbandDeterminism")],
            swiftSettings: strict
        ),
        // The kits' ratios and targets together, as lowband-bench-derive applies them.
        .testTarget(
            name: "BenchFiguresTests",
            dependencies: ["BenchFigures", lowband("LowbandReports")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushBenchTests",
            dependencies: [
                "PushBench", lowband("LowbandClient"), lowband("LowbandWire"), lowband("LowbandShaper"),
            ],
            swiftSettings: strict
        ),
    ]
)
