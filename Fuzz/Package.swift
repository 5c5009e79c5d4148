// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for Lowband's decoders: every parser that reads bytes from a peer, a file or
// an HTTP body. A nested package, as swift-nio keeps its benchmarks, so that the root package's
// `swift build` never sees fuzz-only settings; the targets can only use the root's public API.
//
// Build and run them with scripts/fuzz.sh (docs/FUZZING.md): it passes
// `-sanitize=fuzzer,address` to every Swift target and the matching flags to the C ones.
// Without them the executables do not link (libFuzzer's driver comes with the sanitizer).
//
// Only control-body needs a socket-level product (LowbandProxy, thus NIOPosix and NIOHTTP1);
// nothing needs GRDB, the server or the client engine.

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]
// Each target is a `main.swift` handing its `LLVMFuzzerTestOneInput` to libFuzzer's driver
// (FuzzDriver) through a closure, plus the file holding that function. (Passing the `@_cdecl`
// function itself from another file makes a debug build define the symbol twice.)
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, swiftSettings: strict)
}

let package = Package(
    name: "lowband-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "lowband", path: ".."),
        // Only for `ByteBuffer`, which FrameDecoder reads from; resolves to the root's copy.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // Reading choices out of the input, splitting it into chunks, reporting a finding.
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], swiftSettings: strict),
        // libFuzzer's driver entry, declared for Swift.
        .target(name: "CLibFuzzer"),
        // Runs a network shaper over a parsed profile, so an accepted profile is a usable one.
        .target(
            name: "FuzzShaping",
            dependencies: ["FuzzSupport", .product(name: "LowbandShaper", package: "lowband")],
            swiftSettings: strict
        ),
        fuzzTarget("msgpack-reader", [.product(name: "LowbandMessagePack", package: "lowband")]),
        fuzzTarget("msgpack-json", [.product(name: "LowbandMessagePack", package: "lowband")]),
        fuzzTarget("cbor-reader", [.product(name: "LowbandCBOR", package: "lowband"), .product(name: "LowbandMessagePack", package: "lowband")]),
        fuzzTarget("msgpack-codable", [
            .product(name: "LowbandMessagePack", package: "lowband"),
            .product(name: "LowbandWire", package: "lowband"),
        ]),
        fuzzTarget("frame-stream", [
            .product(name: "LowbandWire", package: "lowband"),
            .product(name: "LowbandLZ4", package: "lowband"),
            .product(name: "NIOCore", package: "swift-nio"),
        ]),
        fuzzTarget("lz4-block", [.product(name: "LowbandLZ4", package: "lowband")]),
        fuzzTarget("lz4-frame", [.product(name: "LowbandLZ4", package: "lowband")]),
        fuzzTarget("profile-yaml", ["FuzzShaping", .product(name: "LowbandShaper", package: "lowband"), .product(name: "LowbandProfiles", package: "lowband")]),
        fuzzTarget("mahimahi-trace", ["FuzzShaping", .product(name: "LowbandShaper", package: "lowband")]),
        fuzzTarget("benchmark-csv", [.product(name: "LowbandReports", package: "lowband")]),
        fuzzTarget("app-events", [.product(name: "LowbandAppEvents", package: "lowband")]),
        fuzzTarget("control-body", [.product(name: "LowbandProxy", package: "lowband"), .product(name: "LowbandProxyCore", package: "lowband")]),
        fuzzTarget("proxy-door", [.product(name: "LowbandProxyCore", package: "lowband")]),
    ]
)
