// swift-tools-version: 6.1
import PackageDescription

// An example of Lowband used from another package: a little TCP echo service of its own, and a
// test that puts the EDGE profile in front of it with Lowband's one-call shaped link and
// asserts the delay the link adds. It depends on Lowband by path and uses one product,
// LowbandProxy; scripts/test.sh builds and tests it.
let package = Package(
    name: "ShapedEcho",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "lowband", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "EchoService",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "EchoServiceTests",
            dependencies: [
                "EchoService",
                .product(name: "LowbandProxy", package: "lowband"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
