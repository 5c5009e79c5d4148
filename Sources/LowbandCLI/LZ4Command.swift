import ArgumentParser
import LowbandLZ4

/// `lowband lz4`: LZ4 frame compression from stdin to stdout, interchangeable with the `lz4` tool.
///
/// Both directions stream in 64 KiB reads, so memory stays bounded (by the 4 MiB block size at most)
/// whatever the input size.
struct LZ4Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lz4",
        abstract: "Compress or decompress stdin to stdout in the LZ4 frame format (like lz4 -c / lz4 -d -c).",
        subcommands: [Compress.self, Decompress.self]
    )

    init() {}

    /// `lowband lz4 compress`: stdin → one LZ4 frame on stdout.
    struct Compress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compress",
            abstract: "Compress stdin into an LZ4 frame on stdout (like lz4 -c)."
        )

        @Option(help: "Compression level like lz4 -N: 1-2 fast, 3-12 high compression (HC).")
        var level: Int?

        @Option(help: "Faster, weaker compression like lz4 --fast=N (1-65536; LZ4 acceleration N+1).")
        var fast: Int?

        @Option(help: "Largest block in the frame: 64K, 256K, 1M or 4M (like lz4 -B4 ... -B7).")
        var blockSize = BlockSizeArgument(.max4MB)

        @Flag(help: "Omit the content checksum (like lz4 --no-frame-crc).")
        var noContentChecksum = false

        init() {}

        /// The frame settings the options select.
        ///
        /// - Throws: `LZ4Error` with code `invalidLevel` for a level that ``validate()`` rejects.
        func frameConfiguration() throws(LZ4Error) -> LZ4FrameConfiguration {
            var selected = LZ4Level.default
            if let fast {
                // `lz4 --fast=N` is liblz4's acceleration N + 1.
                selected = .fast(acceleration: fast &+ 1)
            } else if let level {
                selected = try LZ4Level(commandLineLevel: level)
            }
            return LZ4FrameConfiguration(level: selected, blockSize: blockSize.size, contentChecksum: !noContentChecksum)
        }

        func validate() throws {
            if level != nil && fast != nil {
                throw ValidationError("--level and --fast cannot be combined; pick one.")
            }
            if let level, !LZ4Level.highLevels.contains(level) {
                throw ValidationError("--level must be between 1 and \(LZ4Level.highLevels.upperBound) (got \(level)).")
            }
            if let fast, !(1..<LZ4Level.maximumAcceleration).contains(fast) {
                throw ValidationError("--fast must be between 1 and \(LZ4Level.maximumAcceleration - 1) (got \(fast)).")
            }
        }

        func run() throws {
            let name = "lowband lz4 compress"
            do {
                let compressor = try LZ4FrameCompressor(configuration: frameConfiguration())
                try CommandIO.forEachInputChunk { chunk in
                    try CommandIO.write(compressor.compress(chunk))
                }
                try CommandIO.write(compressor.finish())
            } catch {
                throw CommandIO.failure(error, command: name)
            }
        }
    }

    /// `lowband lz4 decompress`: LZ4 frames on stdin → their content on stdout.
    struct Decompress: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decompress",
            abstract: "Decompress LZ4 frames from stdin to stdout (like lz4 -d -c).",
            discussion: """
                Reads concatenated frames and skips skippable frames like lz4 -d; the legacy format \
                (lz4 -l) is not supported.
                """
        )

        init() {}

        func run() throws {
            let name = "lowband lz4 decompress"
            do {
                let decompressor = try LZ4FrameDecompressor()
                try CommandIO.forEachInputChunk { chunk in
                    try decompressor.decompress(chunk) { piece in try CommandIO.write(piece) }
                }
                try decompressor.finish()
            } catch {
                throw CommandIO.failure(error, command: name)
            }
        }
    }
}

/// A `--block-size` value: 64K, 256K, 1M or 4M (case-insensitive, optional trailing B).
struct BlockSizeArgument: ExpressibleByArgument {
    var size: LZ4FrameConfiguration.BlockSize

    init(_ size: LZ4FrameConfiguration.BlockSize) {
        self.size = size
    }

    init?(argument: String) {
        var text = argument.uppercased()
        if text.hasSuffix("B") { text.removeLast() }
        guard let size = LZ4FrameConfiguration.BlockSize.allCases.first(where: { Self.name(of: $0) == text }) else {
            return nil
        }
        self.size = size
    }

    var defaultValueDescription: String { Self.name(of: size) }

    static var allValueStrings: [String] { LZ4FrameConfiguration.BlockSize.allCases.map(name(of:)) }

    private static func name(of size: LZ4FrameConfiguration.BlockSize) -> String {
        switch size {
        case .max64KB: "64K"
        case .max256KB: "256K"
        case .max1MB: "1M"
        case .max4MB: "4M"
        }
    }
}
