// swift-tools-version: 6.1
import PackageDescription

// Targets are split by dependency weight, as in swift-nio (NIOCore vs NIOPosix):
// - LowbandMessagePack: the codec, standard library and Foundation only.
// - LowbandLZ4: the liblz4 wrapper, no NIO.
// - LowbandWire: frames, compression policy and the message catalogue (adds SwiftNIO).
// - LowbandDeterminism: the seeded generator every random choice comes from.
// - LowbandFixtures: seeded, realistic messenger payloads shared by the CLI, tests and benchmarks.
// - LowbandShaper: network profiles and the pure, clock-driven link model (no I/O).
// - LowbandProxyCore: the sans-I/O shaped flow — connections, toxics, faults, the shaper,
//   back-pressure — that both the socket proxy and the in-memory network drive (NIOCore only).
// - LowbandProxy: the shaping TCP proxy and its toxiproxy-compatible control API (SwiftNIO).
// - LowbandTransport: frame links (the transport seam) and their SwiftNIO sockets.
// - LowbandSimulation: the in-memory network on virtual time, for tests and virtual-time runs.
// - LowbandServer: the in-process messenger server. LowbandClient: the client engine (GRDB).
// - LowbandReports: the one benchmark CSV schema (rows, strict reader, writer), on LowbandRunReport.
// - LowbandTesting: the virtual world (server + engines + in-memory network on a VirtualScheduler)
//   for users' tests; LowbandTestSupport is Lowband's own test helpers and is no product.
// - LowbandCLI: the `lowband` command tree; `lowband` itself is a one-line main.
// Benchmark-only packages (package-benchmark, Swinject, swift-protobuf) never enter a library product.

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "lowband",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LowbandMessagePack", targets: ["LowbandMessagePack"]),
        .library(name: "LowbandLZ4", targets: ["LowbandLZ4"]),
        .library(name: "LowbandWire", targets: ["LowbandWire"]),
        .library(name: "LowbandFixtures", targets: ["LowbandFixtures"]),
        .library(name: "LowbandDeterminism", targets: ["LowbandDeterminism"]),
        .library(name: "LowbandShaper", targets: ["LowbandShaper"]),
        .library(name: "LowbandProxyCore", targets: ["LowbandProxyCore"]),
        .library(name: "LowbandProxy", targets: ["LowbandProxy"]),
        .library(name: "LowbandTransport", targets: ["LowbandTransport"]),
        .library(name: "LowbandSimulation", targets: ["LowbandSimulation"]),
        .library(name: "LowbandServer", targets: ["LowbandServer"]),
        .library(name: "LowbandServerStore", targets: ["LowbandServerStore"]),
        .library(name: "LowbandClient", targets: ["LowbandClient"]),
        .library(name: "LowbandRunReport", targets: ["LowbandRunReport"]),
        .library(name: "LowbandReports", targets: ["LowbandReports"]),
        .library(name: "LowbandScenarios", targets: ["LowbandScenarios"]),
        .library(name: "LowbandTesting", targets: ["LowbandTesting"]),
        .executable(name: "lowband", targets: ["lowband"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Benchmark-only: used by the targets under Benchmarks/, never by a library product.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/Swinject/Swinject.git", from: "2.10.0"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        .target(
            name: "LowbandLZ4",
            dependencies: ["CLZ4"],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandMessagePack",
            swiftSettings: strict
        ),
        .target(
            name: "LowbandWire",
            dependencies: [
                "LowbandMessagePack",
                "LowbandLZ4",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandDeterminism",
            swiftSettings: strict
        ),
        .target(
            name: "LowbandFixtures",
            dependencies: ["LowbandWire", "LowbandDeterminism"],
            swiftSettings: strict
        ),
        // The link model: profiles, a pure clock-driven shaper, the decision trace. No I/O.
        .target(
            name: "LowbandShaper",
            dependencies: ["LowbandDeterminism", .product(name: "Yams", package: "Yams")],
            exclude: ["Profiles/README.md"],
            // The shipped profiles are compiled into the library: a program using it finds them by
            // name wherever it runs, with no files to install and no directory walking.
            resources: [.embedInCode("Profiles")],
            swiftSettings: strict
        ),
        // Frame links: the transport seam and its SwiftNIO sockets. No link model, no YAML: the
        // client engine depends on this.
        .target(
            name: "LowbandTransport",
            dependencies: [
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The in-process messenger server: seeded data, sessions, pushes, uploads.
        .target(
            name: "LowbandServer",
            dependencies: [
                "LowbandTransport",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The server's durable data (`lowband server --data`): SQLite (GRDB) behind the server's
        // store seam, so the server itself knows no SQLite.
        .target(
            name: "LowbandServerStore",
            dependencies: [
                "LowbandServer",
                "LowbandWire",
                "LowbandFixtures",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // The offline-first client engine: connection, SQLite cache, chunks, outbox, chat screen.
        .target(
            name: "LowbandClient",
            dependencies: [
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The sans-I/O shaped flow: one state machine for connections, toxics, faults, the
        // shaper and back-pressure, driven by the socket proxy and by the in-memory network.
        .target(
            name: "LowbandProxyCore",
            dependencies: [
                "LowbandShaper",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The in-memory network on a virtual clock: frame links through the shaped flow, for
        // tests and virtual-time runs.
        .target(
            name: "LowbandSimulation",
            dependencies: [
                "LowbandProxyCore",
                "LowbandShaper",
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The shaping TCP proxy and its toxiproxy-compatible control API, on SwiftNIO.
        .target(
            name: "LowbandProxy",
            dependencies: [
                "LowbandProxyCore",
                "LowbandTransport",
                "LowbandShaper",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandCLI",
            dependencies: [
                "LowbandMessagePack",
                "LowbandLZ4",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandShaper",
                "LowbandProxy",
                "LowbandServer",
                "LowbandServerStore",
                "LowbandClient",
                "LowbandTransport",
                "LowbandScenarios",
                "LowbandRunReport",
                "LowbandReports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The record of a `lowband run` and its self-contained HTML report (SVG charts).
        .target(
            name: "LowbandRunReport",
            swiftSettings: strict
        ),
        // The one benchmark CSV schema: rows, the strict reader and the writer, the metric rules.
        // A library of its own so the fuzz targets (Fuzz/) and other tools read reports as
        // `lowband compare` does.
        .target(
            name: "LowbandReports",
            dependencies: ["LowbandRunReport"],
            swiftSettings: strict
        ),
        // `lowband run`'s scenarios: server, proxy and client engines in one process, on sockets
        // and the wall clock or in memory on a virtual clock.
        .target(
            name: "LowbandScenarios",
            dependencies: [
                "LowbandRunReport",
                "LowbandServer",
                "LowbandClient",
                "LowbandProxy",
                "LowbandShaper",
                "LowbandTransport",
                "LowbandSimulation",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lowband",
            dependencies: ["LowbandCLI"],
            swiftSettings: strict
        ),
        // The test-support product: server, client engines and in-memory network on one
        // virtual clock, for users testing their own code against Lowband's server.
        // (LowbandTestSupport below is Lowband's own test helpers and stays internal.)
        .target(
            name: "LowbandTesting",
            dependencies: [
                "LowbandClient",
                "LowbandServer",
                "LowbandSimulation",
                "LowbandProxyCore",
                "LowbandShaper",
                "LowbandFixtures",
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandTestingTests", dependencies: ["LowbandTesting"], swiftSettings: strict),
        .target(
            name: "LowbandTestSupport",
            dependencies: [
                "LowbandMessagePack",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandShaper",
                "LowbandTransport",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandDeterminismTests",
            dependencies: ["LowbandDeterminism"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandTransportTests",
            dependencies: [
                "LowbandTransport",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandSimulationTests",
            dependencies: [
                "LowbandSimulation",
                "LowbandProxyCore",
                "LowbandShaper",
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandServerTests",
            dependencies: [
                "LowbandServer",
                "LowbandTransport",
                "LowbandSimulation",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandServerStoreTests",
            dependencies: [
                "LowbandServerStore",
                "LowbandServer",
                "LowbandFixtures",
                "LowbandDeterminism",
                "LowbandClient",
                "LowbandTransport",
                "LowbandWire",
                "LowbandTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandClientTests",
            dependencies: [
                "LowbandClient",
                "LowbandTesting",
                "LowbandServer",
                "LowbandTransport",
                "LowbandSimulation",
                "LowbandProxy",
                "LowbandShaper",
                "LowbandTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandShaperTests",
            dependencies: ["LowbandShaper", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandProxyTests",
            dependencies: [
                "LowbandProxy",
                "LowbandProxyCore",
                "LowbandTransport",
                "LowbandShaper",
                "LowbandDeterminism",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandLZ4Tests",
            dependencies: ["LowbandLZ4", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandMessagePackTests",
            dependencies: ["LowbandMessagePack", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandWireTests",
            dependencies: [
                "LowbandWire",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOTestUtils", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandFixturesTests",
            dependencies: ["LowbandFixtures", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandCLITests",
            dependencies: [
                "LowbandCLI",
                "LowbandReports",
                "LowbandServer",
                "LowbandTestSupport",
                "LowbandTransport",
                "LowbandWire",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // MARK: Benchmarks (package-benchmark). Each suite is a library of workloads under
        // Benchmarks/Kits (tested like any other code) and a thin benchmark executable that
        // registers them. Run with `make bench`; see Benchmarks/README.md.
        .systemLibrary(
            name: "CZlib",
            path: "Benchmarks/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(
            name: "CodecBench",
            dependencies: [
                "LowbandMessagePack",
                "LowbandLZ4",
                "LowbandWire",
                "LowbandFixtures",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            path: "Benchmarks/Kits/CodecBench",
            exclude: ["Proto/catalogue.proto"],
            swiftSettings: strict
        ),
        .target(
            name: "CompressionBench",
            dependencies: ["LowbandLZ4", "LowbandWire", "LowbandFixtures", "CZlib"],
            path: "Benchmarks/Kits/CompressionBench",
            swiftSettings: strict
        ),
        .target(
            name: "StartupBench",
            dependencies: [
                "LowbandClient",
                "LowbandTransport",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandDeterminism",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            path: "Benchmarks/Kits/StartupBench",
            swiftSettings: strict
        ),
        .target(
            name: "PushBench",
            dependencies: [
                "LowbandServer",
                "LowbandClient",
                "LowbandProxy",
                "LowbandShaper",
                "LowbandTransport",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Benchmarks/Kits/PushBench",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: ["CodecBench", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Codec",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "CompressionBenchmarks",
            dependencies: ["CompressionBench", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Compression",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "StartupBenchmarks",
            dependencies: ["StartupBench", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/Startup",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PushToVisibleBenchmarks",
            dependencies: ["PushBench", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/PushToVisible",
            swiftSettings: strict,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(name: "CodecBenchTests", dependencies: ["CodecBench", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(name: "CompressionBenchTests", dependencies: ["CompressionBench", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "StartupBenchTests",
            dependencies: ["StartupBench", "LowbandClient", "LowbandDeterminism", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PushBenchTests",
            dependencies: ["PushBench", "LowbandClient", "LowbandWire", "LowbandShaper", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandRunReportTests", dependencies: ["LowbandRunReport", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(name: "LowbandReportsTests", dependencies: ["LowbandReports"], swiftSettings: strict),
        .testTarget(
            name: "LowbandScenariosTests",
            dependencies: [
                "LowbandScenarios", "LowbandRunReport", "LowbandTestSupport", "LowbandClient", "LowbandWire", "LowbandShaper",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
    ]
)
