// swift-tools-version: 6.1
import PackageDescription

// Targets are split by dependency weight, as in swift-nio (NIOCore vs NIOPosix):
// - LowbandMessagePack: the codec, standard library and Foundation only.
// - LowbandLZ4: the liblz4 wrapper, no NIO.
// - LowbandWire: frames, compression policy and the message catalogue (adds SwiftNIO).
// - LowbandDeterminism: the seeded generator every random choice comes from.
// - LowbandFixtures: seeded, realistic messenger payloads shared by the CLI, tests and benchmarks.
// - LowbandShaper: the pure, clock-driven link model and the profile types (no I/O).
// - LowbandProfiles: profiles from YAML files and the environment, and the shipped ones.
// - LowbandProxyCore: the sans-I/O shaped flow — connections, toxics, faults, the shaper,
//   back-pressure — that both the socket proxy and the in-memory network drive (NIOCore only).
// - LowbandProxy: the shaping TCP proxy and its toxiproxy-compatible control API (SwiftNIO).
// - LowbandTransport: frame links, the transport seam (NIOCore only, no sockets).
// - LowbandTransportSockets: the seam's TCP sockets on NIOPosix.
// - LowbandSimulation: the in-memory network on virtual time, for tests and virtual-time runs.
// - LowbandServer: the in-process messenger server. LowbandClient: the client engine (GRDB).
// - LowbandBasics: the small jobs every target shares (FNV-1a, JSON strings, CSV, durations,
//   percentiles); standard library only.
// - LowbandReports: the one benchmark CSV schema (rows, strict reader, writer); no run record.
// - LowbandTesting: the virtual world (server + engines + in-memory network on a VirtualScheduler)
//   for users' tests, the one umbrella that re-exports modules. LowbandTestSupport is Lowband's own
//   test helpers: a product only so the nested Benchmarks/ package's tests can share them.
// - LowbandCLI: the `lowband` command tree, internal but its entry point; `lowband` itself is a
//   one-line main. scripts/check-imports.py keeps every import and dependency below in step.
// The benchmark suites are the nested package Benchmarks/ (as swift-nio keeps its benchmarks), so a
// package depending on Lowband never resolves package-benchmark, Swinject or swift-protobuf.

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "lowband",
    platforms: [.macOS(.v15)],
    // For users (stable, documented public API): MessagePack, LZ4, Wire, Shaper, Profiles, Proxy,
    // AppEvents, Testing, Reports. The other libraries are products because those name their types
    // or because Benchmarks/, Fuzz/ and Examples/ use them, and are public only that far; all else
    // in Sources/ is `package` (README.md, Layout; issue 38).
    products: [
        .library(name: "LowbandBasics", targets: ["LowbandBasics"]),
        .library(name: "LowbandMessagePack", targets: ["LowbandMessagePack"]),
        .library(name: "LowbandLZ4", targets: ["LowbandLZ4"]),
        .library(name: "LowbandCBOR", targets: ["LowbandCBOR"]),
        .library(name: "LowbandWire", targets: ["LowbandWire"]),
        .library(name: "LowbandFixtures", targets: ["LowbandFixtures"]),
        .library(name: "LowbandDeterminism", targets: ["LowbandDeterminism"]),
        .library(name: "LowbandShaper", targets: ["LowbandShaper"]),
        .library(name: "LowbandProfiles", targets: ["LowbandProfiles"]),
        .library(name: "LowbandProxyCore", targets: ["LowbandProxyCore"]),
        .library(name: "LowbandProxy", targets: ["LowbandProxy"]),
        .library(name: "LowbandAppEvents", targets: ["LowbandAppEvents"]),
        .library(name: "LowbandTransport", targets: ["LowbandTransport"]),
        .library(name: "LowbandTransportSockets", targets: ["LowbandTransportSockets"]),
        .library(name: "LowbandSimulation", targets: ["LowbandSimulation"]),
        .library(name: "LowbandServer", targets: ["LowbandServer"]),
        .library(name: "LowbandClient", targets: ["LowbandClient"]),
        .library(name: "LowbandFindings", targets: ["LowbandFindings"]),
        .library(name: "LowbandReports", targets: ["LowbandReports"]),
        .library(name: "LowbandTesting", targets: ["LowbandTesting"]),
        .library(name: "LowbandProcess", targets: ["LowbandProcess"]),
        .executable(name: "lowband", targets: ["lowband"]),
        // The helpers Lowband's tests share, for the benchmark kits' tests in Benchmarks/.
        .library(name: "LowbandTestSupport", targets: ["LowbandTestSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.14.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess.git", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // zlib, a row of `lowband codecs compare` (what HTTP's gzip does to JSON).
        .systemLibrary(
            name: "CLowbandZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // zstd, rows of `lowband codecs compare` beside LZ4 (with and without a dictionary).
        .systemLibrary(
            name: "CLowbandZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // The one C function `lowband codecs compare` has callgrind count each encode and decode
        // inside: a plain symbol, never inlined (no valgrind header needed to build it).
        .target(name: "CLowbandCountedRegion"),
        // SQLite's process-wide settings `lowband run` and `explore` make before their first
        // database opens (sqlite3_config is variadic: C only).
        .target(name: "CLowbandSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libslirp, the user-mode TCP/IP stack `lowband shell` carries the namespace's frames to.
        .systemLibrary(
            name: "CLowbandSlirp",
            pkgConfig: "slirp",
            providers: [.apt(["libslirp-dev", "libglib2.0-dev"])]
        ),
        // `lowband shell`'s process side in C: the clone into new user, network, mount and PID
        // namespaces, the TAP device, and init — what must follow fork() without Swift's runtime.
        .target(name: "CLowbandNamespace"),
        // `lowband shell`: a command's every frame through the packet link model and libslirp.
        .target(
            name: "LowbandShell",
            dependencies: [
                "CLowbandNamespace", "CLowbandSlirp", "LowbandShaper", "LowbandBasics", "LowbandDeterminism", "LowbandProxy", "LowbandProxyCore", "LowbandAppEvents",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandShellTests", dependencies: ["LowbandShell", "LowbandShaper", "LowbandProxyCore", "LowbandProcess", "LowbandTestSupport"], swiftSettings: strict),
        // `lowband codecs compare`: a user's own payloads sized, timed and counted in each
        // format, and priced on a profile's air by the shaper.
        .target(
            name: "LowbandCodecs",
            dependencies: [
                "LowbandBasics", "LowbandMessagePack", "LowbandCBOR", "LowbandLZ4", "LowbandReports", "LowbandShaper", "CLowbandZlib", "CLowbandZstd",
                "CLowbandCountedRegion",
            ],
            swiftSettings: strict
        ),
        // The small jobs every other target shares (hashes, CSV, JSON text, durations,
        // percentiles): standard library only, so any target may use it.
        .target(
            name: "LowbandBasics",
            swiftSettings: strict
        ),
        // CBOR from the MessagePack value model: a format `lowband codecs compare` weighs, a
        // product only so that Fuzz/ can drive its reader.
        .target(
            name: "LowbandCBOR",
            dependencies: ["LowbandMessagePack"],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandLZ4",
            dependencies: ["CLZ4"],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandMessagePack",
            dependencies: ["LowbandBasics"],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandWire",
            dependencies: [
                "LowbandMessagePack",
                "LowbandLZ4",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // The catalogue's one description; scripts/catalogue.py writes the Swift from it.
            exclude: ["Catalogue/Catalogue.schema"],
            // The shipped wire dictionaries, compiled into the library (WireDictionary.shipped).
            resources: [.embedInCode("Dictionaries")],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandDeterminism",
            swiftSettings: strict
        ),
        .target(
            name: "LowbandFixtures",
            dependencies: [
                "LowbandServer", "LowbandTransportSockets", "LowbandTransport", "LowbandWire", "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The link model: profile types, a pure clock-driven shaper, the decision trace. No I/O:
        // no files, no environment, no YAML.
        .target(
            name: "LowbandShaper",
            dependencies: ["LowbandBasics", "LowbandDeterminism"],
            swiftSettings: strict
        ),
        // Network profiles from YAML files, search paths and the environment, and the shipped
        // ones, compiled into the library: a program using it finds them by name wherever it
        // runs, with no files to install and no directory walking.
        .target(
            name: "LowbandProfiles",
            dependencies: ["LowbandShaper", "LowbandBasics", .product(name: "Yams", package: "Yams")],
            exclude: ["Profiles/README.md"],
            resources: [.embedInCode("Profiles")],
            swiftSettings: strict
        ),
        // Frame links: the transport seam (protocols, flow control, the event-loop scheduler).
        // NIOCore only, no sockets: the in-memory network builds on it, as NIOEmbedded on NIOCore.
        .target(
            name: "LowbandTransport",
            dependencies: [
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The transport's TCP sockets on NIOPosix: connector, listener and the socket link.
        .target(
            name: "LowbandTransportSockets",
            dependencies: [
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The in-process messenger server: its own data types, sessions, pushes, uploads (seeded
        // worlds come from LowbandFixtures, which depends on it).
        .target(
            name: "LowbandServer",
            dependencies: [
                "LowbandTransportSockets",
                "LowbandBasics",
                "LowbandTransport",
                "LowbandWire",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        // The server's durable data (`lowband server --data`): SQLite (GRDB) behind the server's
        // store seam, so the server itself knows no SQLite.
        .target(
            name: "LowbandServerStore",
            dependencies: [
                "LowbandBasics",
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
                "LowbandTransportSockets",
                "LowbandTransport",
                "LowbandWire",
                "LowbandMessagePack",
                "LowbandDeterminism",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API: the cache's hot statements (Cache/Statement+Steps.swift) and
                // sqlite3_file_control, to keep the cache's WAL file between launches.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
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
                "LowbandBasics",
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
        // What an outside app says it did (JSON lines), what the proxies did, and the checker
        // of a messenger's promises over both (docs/APP-EVENTS.md).
        .target(
            name: "LowbandAppEvents",
            dependencies: ["LowbandBasics", "LowbandProxyCore", "LowbandShaper", "LowbandFindings"],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandAppEventsTests", dependencies: ["LowbandAppEvents", "LowbandProxyCore", "LowbandFindings", "LowbandShaper", "LowbandTestSupport"], swiftSettings: strict),
        // The shaping TCP proxy and its toxiproxy-compatible control API, on SwiftNIO.
        .target(
            name: "LowbandProxy",
            dependencies: [
                "LowbandAppEvents",
                "LowbandProfiles",
                "LowbandBasics",
                "LowbandProxyCore",
                "LowbandTransport",
                "LowbandShaper",
                "LowbandDeterminism",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "LowbandCLI",
            dependencies: [
                "LowbandAppEvents",
                "LowbandSoak",
                "LowbandProcess",
                "LowbandStartup",
                "LowbandCodecs",
                "LowbandProfiles",
                "LowbandTransportSockets",
                "LowbandProxyCore",
                "LowbandDeterminism",
                "LowbandBasics",
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
                "LowbandShell",
                "CLowbandSQLiteSettings",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The start-up time of any program (`lowband startup`): launch to the first output line
        // that matches a marker, N times, as benchmark CSV rows. No product: the CLI's library.
        // Lowband's one process launcher (swift-subprocess): a program run to its end, or a
        // long-running child read line by line, signalled and awaited with deadlines.
        .target(
            name: "LowbandProcess",
            dependencies: [
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandProcessTests", dependencies: ["LowbandProcess", "LowbandTestSupport"], swiftSettings: strict),
        // `lowband soak`'s chaos soak of real processes and its audit; the command only parses.
        .target(
            name: "LowbandSoak",
            dependencies: [
                "LowbandFindings",
                "LowbandProcess",
                "LowbandBasics",
                "LowbandDeterminism",
                "LowbandFixtures",
                "LowbandReports",
                "LowbandRunReport",
                "LowbandServerStore",
                "LowbandWire",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandSoakTests", dependencies: ["LowbandSoak", "LowbandWire", "LowbandRunReport"], swiftSettings: strict),
        .target(
            name: "LowbandStartup",
            dependencies: ["LowbandReports"],
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandStartupTests", dependencies: ["LowbandStartup", "LowbandReports", "LowbandProcess"], swiftSettings: strict),
        // The findings any producer of verdicts shares, with no HTML: the promises' judges and
        // their book, connected stretches, a recorded session's timeline. The proxy's event
        // checker and `lowband run` both judge through it.
        .target(
            name: "LowbandFindings",
            swiftSettings: strict
        ),
        .testTarget(name: "LowbandFindingsTests", dependencies: ["LowbandFindings"], swiftSettings: strict),
        // The record of a `lowband run` and its self-contained HTML report (SVG charts).
        .target(
            name: "LowbandRunReport",
            dependencies: ["LowbandBasics", "LowbandFindings"],
            swiftSettings: strict
        ),
        // The one benchmark CSV schema: rows, the strict reader and the writer, the metric rules.
        // It knows no run record: `lowband run`'s CSV rows are made from the record by the CLI.
        // A library of its own so the fuzz targets (Fuzz/) and other tools read reports as
        // `lowband compare` does.
        .target(
            name: "LowbandReports",
            dependencies: ["LowbandBasics"],
            swiftSettings: strict
        ),
        // `lowband run`'s scenarios: server, proxy and client engines in one process, on sockets
        // and the wall clock or in memory on a virtual clock.
        .target(
            name: "LowbandScenarios",
            dependencies: [
                "LowbandAppEvents",
                "LowbandFindings",
                "LowbandProcess",
                "LowbandTesting",
                "LowbandMessagePack",
                "LowbandTransportSockets",
                "LowbandReports",
                "LowbandProxyCore",
                "LowbandBasics",
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
        // The test-support product: one world description (server, network, engines) run in
        // memory on one virtual clock (VirtualWorld) or on loopback sockets through the shaping
        // proxy (SocketHarness), for users testing their own code against Lowband's server.
        // (LowbandTestSupport below is Lowband's own test helpers, a product for Benchmarks/ only.)
        .target(
            name: "LowbandTesting",
            dependencies: [
                "LowbandProxy",
                "LowbandTransportSockets",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                "LowbandProfiles",
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
        .testTarget(name: "LowbandTestingTests", dependencies: ["LowbandTesting", "LowbandFixtures", "LowbandTestSupport"], swiftSettings: strict),
        .target(
            name: "LowbandTestSupport",
            dependencies: [
                "LowbandProcess",
                "LowbandProfiles",
                "LowbandTransportSockets",
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
        .testTarget(name: "LowbandBasicsTests", dependencies: ["LowbandBasics", "LowbandDeterminism", "LowbandProcess", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LowbandDeterminismTests",
            dependencies: ["LowbandDeterminism"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandTransportTests",
            dependencies: [
                "LowbandTransportSockets",
                "LowbandWire",
                "LowbandDeterminism",
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
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandServerTests",
            dependencies: [
                "LowbandLZ4",
                "LowbandTesting",
                "LowbandWire",
                "LowbandShaper",
                "LowbandMessagePack",
                "LowbandFixtures",
                "LowbandDeterminism",
                "LowbandServer",
                "LowbandTransport",
                "LowbandSimulation",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandServerStoreTests",
            dependencies: [
                "LowbandProcess",
                "LowbandBasics",
                "LowbandServerStore",
                "LowbandServer",
                "LowbandFixtures",
                "LowbandDeterminism",
                "LowbandWire",
                "LowbandTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandClientTests",
            dependencies: [
                "LowbandProcess",
                "LowbandWire",
                "LowbandFixtures",
                "LowbandDeterminism",
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
            dependencies: ["LowbandDeterminism", "LowbandProfiles", "LowbandShaper", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandProxyTests",
            dependencies: [
                "LowbandAppEvents",
                "LowbandProcess",
                "LowbandProxy",
                "LowbandProxyCore",
                "LowbandTransport",
                "LowbandShaper",
                "LowbandDeterminism",
                "LowbandTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandLZ4Tests",
            dependencies: [
                // CLZ4: liblz4 called directly, the reference a dictionary's blocks are held to.
                "LowbandProcess", "LowbandDeterminism", "LowbandLZ4", "LowbandTestSupport", "CLZ4"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandMessagePackTests",
            dependencies: [
                "LowbandProcess", "LowbandMessagePack", "LowbandTestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandWireTests",
            dependencies: [
                "LowbandProcess",
                "LowbandMessagePack",
                "LowbandLZ4",
                "LowbandFixtures",
                "LowbandDeterminism",
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
            dependencies: ["LowbandWire", "LowbandMessagePack", "LowbandFixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "LowbandCLITests",
            dependencies: [
                "LowbandProcess",
                "LowbandProxy",
                "LowbandProxyCore",
                "LowbandTransportSockets",
                "LowbandMessagePack",
                "LowbandFixtures",
                "LowbandDeterminism",
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
        .testTarget(name: "LowbandRunReportTests", dependencies: [
                "LowbandDeterminism", "LowbandFindings", "LowbandRunReport", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(name: "LowbandCBORTests", dependencies: [
                "LowbandCBOR", "LowbandMessagePack", "LowbandProcess", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(name: "LowbandCodecsTests", dependencies: [
                "LowbandCodecs", "LowbandMessagePack", "LowbandProcess", "LowbandProfiles", "LowbandReports", "LowbandShaper", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(name: "LowbandReportsTests", dependencies: [
                "LowbandProcess", "LowbandReports", "LowbandTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "LowbandScenariosTests",
            dependencies: [
                "LowbandFixtures",
                "LowbandDeterminism",
                "LowbandScenarios", "LowbandFindings", "LowbandRunReport", "LowbandTestSupport", "LowbandClient", "LowbandServer", "LowbandWire", "LowbandShaper", "LowbandBasics", "LowbandReports",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
    ]
)
