// swift-tools-version: 6.1
import PackageDescription

// An example of Lowband's codec comparison used from another package: a codec of its own
// (JSON with sorted keys) registered beside the six built-in codecs, measured on every fixture,
// and printed as rows of Lowband's CSV schema with the codec suite's ratios against JSON. It
// depends on the Benchmarks package by path (the CodecBench kit and the suites' BenchFigures)
// and on Lowband for LowbandReports; scripts/test.sh builds and tests it.
let package = Package(
    name: "CustomCodec",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "lowband", path: "../.."),
        .package(name: "lowband-benchmarks", path: "../../Benchmarks"),
    ],
    targets: [
        .target(
            name: "SortedJSON",
            dependencies: [
                .product(name: "CodecBench", package: "lowband-benchmarks"),
                .product(name: "BenchFigures", package: "lowband-benchmarks"),
                .product(name: "LowbandReports", package: "lowband"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "codec-compare",
            dependencies: [
                "SortedJSON",
                .product(name: "CodecBench", package: "lowband-benchmarks"),
                .product(name: "BenchFigures", package: "lowband-benchmarks"),
                .product(name: "LowbandReports", package: "lowband"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "SortedJSONTests",
            dependencies: [
                "SortedJSON",
                .product(name: "CodecBench", package: "lowband-benchmarks"),
                .product(name: "LowbandReports", package: "lowband"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
