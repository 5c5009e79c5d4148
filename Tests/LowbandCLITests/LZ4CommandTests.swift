import ArgumentParser
@testable import LowbandCLI
import LowbandDeterminism
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband lz4`: option parsing, and the built binary piped to and from the real `lz4` tool.
@Suite struct LZ4CommandTests {
    private let lowband = LowbandBinary.path

    private func compressCommand(_ arguments: [String]) throws -> LZ4Command.Compress {
        try #require(try LZ4Command.parseAsRoot(["compress"] + arguments) as? LZ4Command.Compress)
    }

    private func lz4Tool() throws -> String {
        try #require(ExternalProcess.which("lz4"), "the lz4 command must be installed")
    }

    /// Seeded messenger-like text: compressible, like real traffic.
    private func text(count: Int, seed: UInt64 = 1) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let words = ["hey", "bus", "late", "ok", "see", "you", "at", "the", "station", "tonight", "photo", "sent"]
        var bytes: [UInt8] = []
        while bytes.count < count {
            bytes += Array("{\"id\":\(generator.next() % 100_000),\"text\":\"".utf8)
            for _ in 0..<(generator.next() % 8 + 1) {
                bytes += Array(words[Int(generator.next() % UInt64(words.count))].utf8) + [0x20]
            }
            bytes += Array("\"}\n".utf8)
        }
        return Array(bytes.prefix(count))
    }

    /// Expects equal bytes, reporting sizes and the first difference rather than the arrays.
    private func expectSameBytes(
        _ actual: [UInt8], _ expected: [UInt8], _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard actual != expected else { return }
        let difference = actual.indices.first { $0 < expected.count && actual[$0] != expected[$0] } ?? min(actual.count, expected.count)
        Issue.record(
            "\(comment) got \(actual.count) bytes, expected \(expected.count); first difference at byte \(difference)",
            sourceLocation: sourceLocation
        )
    }

    private func random(count: Int, seed: UInt64 = 2) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let words = (0..<(count + 7) / 8).map { _ in generator.next() }
        return words.withUnsafeBytes { Array($0.prefix(count)) }
    }

    // MARK: Parsing

    @Test func defaultsMatchTheLZ4Tool() throws {
        let configuration = try compressCommand([]).frameConfiguration()
        #expect(configuration.level == .fast(acceleration: 1))
        #expect(configuration.blockSize == .max4MB)
        #expect(configuration.contentChecksum)
        #expect(!configuration.blockChecksum)
        #expect(configuration.independentBlocks)
        #expect(try LZ4Command.parseAsRoot(["decompress"]) is LZ4Command.Decompress)
    }

    @Test func levelsMapLikeLZ4DashN() throws {
        #expect(try compressCommand(["--level", "1"]).frameConfiguration().level == .fast(acceleration: 1))
        #expect(try compressCommand(["--level", "2"]).frameConfiguration().level == .fast(acceleration: 1))
        #expect(try compressCommand(["--level", "3"]).frameConfiguration().level == .high(level: 3))
        #expect(try compressCommand(["--level", "12"]).frameConfiguration().level == .high(level: 12))
        #expect(try compressCommand(["--fast", "1"]).frameConfiguration().level == .fast(acceleration: 2))
        #expect(try compressCommand(["--fast", "65536"]).frameConfiguration().level == .fast(acceleration: 65_537))
    }

    @Test func blockSizeAndChecksumOptions() throws {
        #expect(try compressCommand(["--block-size", "64K"]).frameConfiguration().blockSize == .max64KB)
        #expect(try compressCommand(["--block-size", "256k"]).frameConfiguration().blockSize == .max256KB)
        #expect(try compressCommand(["--block-size", "1MB"]).frameConfiguration().blockSize == .max1MB)
        #expect(try compressCommand(["--block-size", "4M"]).frameConfiguration().blockSize == .max4MB)
        #expect(try !compressCommand(["--no-content-checksum"]).frameConfiguration().contentChecksum)
    }

    @Test(arguments: [
        (["compress", "--level", "13"], "--level must be between 1 and 12 (got 13)"),
        (["compress", "--level", "0"], "--level must be between 1 and 12 (got 0)"),
        (["compress", "--fast", "0"], "--fast must be between 1 and 65536 (got 0)"),
        (["compress", "--fast", "65537"], "--fast must be between 1 and 65536 (got 65537)"),
        (["compress", "--level", "3", "--fast", "2"], "--level and --fast cannot be combined"),
        (["compress", "--block-size", "3K"], "The value '3K' is invalid for '--block-size <block-size>'"),
        (["compress", "--level", "high"], "The value 'high' is invalid for '--level <level>'"),
        (["decompress", "--level", "3"], "Unknown option '--level'"),
    ])
    func invalidArgumentsAreRejectedWithAMessage(arguments: [String], message: String) {
        let error = #expect(throws: (any Error).self) { try LZ4Command.parseAsRoot(arguments) }
        let text = error.map { LZ4Command.message(for: $0) } ?? ""
        #expect(text.contains(message), "\(text)")
    }

    // MARK: The built binary

    @Test(arguments: [[], ["--level", "9"], ["--fast", "3"], ["--block-size", "64K", "--no-content-checksum"]])
    func compressedOutputDecodesWithLZ4(options: [String]) async throws {
        for input in [[], [0x41], text(count: (5 << 20) + 3), random(count: 300_000)] {
            let compressed = try await LowbandBinary.run(["lz4", "compress"] + options, stdin: input)
            #expect(compressed.status == 0, "\(compressed.stderrText)")
            #expect(compressed.stderr.isEmpty)
            let decompressed = try await ExternalProcess.run(try lz4Tool(), ["-d", "-c"], stdin: compressed.stdout)
            #expect(decompressed.status == 0, "\(decompressed.stderrText)")
            expectSameBytes(decompressed.stdout, input, "\(input.count) bytes with \(options)")
        }
    }

    @Test(arguments: [[], ["-9"], ["-B4", "-BD"], ["--no-frame-crc", "-BX"], ["--fast=4", "-B5"]])
    func lz4OutputDecodesWithLowband(options: [String]) async throws {
        for input in [[], [0x41], text(count: (5 << 20) + 3), random(count: 300_000)] {
            let compressed = try await ExternalProcess.run(try lz4Tool(), options + ["-c"], stdin: input)
            try #require(compressed.status == 0)
            let decompressed = try await LowbandBinary.run(["lz4", "decompress"], stdin: compressed.stdout)
            #expect(decompressed.status == 0, "\(decompressed.stderrText)")
            expectSameBytes(decompressed.stdout, input, "\(input.count) bytes with \(options)")
        }
    }

    @Test func concatenatedFramesDecodeLikeLZ4D() async throws {
        let parts = [text(count: 100_000, seed: 3), random(count: 1_000, seed: 4)]
        var stream: [UInt8] = []
        for part in parts {
            stream += try await ExternalProcess.run(try lz4Tool(), ["-c"], stdin: part).stdout
        }
        let result = try await LowbandBinary.run(["lz4", "decompress"], stdin: stream)
        #expect(result.status == 0)
        expectSameBytes(result.stdout, parts[0] + parts[1])
    }

    /// With input above the 4 MiB block size, both tools stream block by block through the same
    /// liblz4, so equal bytes show that the options select the same settings as `lz4`.
    @Test(arguments: [
        (["--level", "1"], ["-1"]), (["--level", "9"], ["-9"]), (["--fast", "3"], ["--fast=3"]),
        (["--block-size", "64K", "--no-content-checksum"], ["-B4", "--no-frame-crc"]),
    ])
    func optionsSelectTheSameSettingsAsLZ4(ours: [String], theirs: [String]) async throws {
        let input = text(count: (4 << 20) + 100_000, seed: 5)
        let ourFrame = try await LowbandBinary.run(["lz4", "compress"] + ours, stdin: input)
        let theirFrame = try await ExternalProcess.run(try lz4Tool(), theirs + ["-c"], stdin: input)
        #expect(ourFrame.status == 0 && theirFrame.status == 0)
        expectSameBytes(ourFrame.stdout, theirFrame.stdout)
    }

    @Test(arguments: [
        ("garbage", Array("this is not lz4\n".utf8), "not an LZ4 frame (magic number 0x73696874) at input byte 0"),
        ("empty frame start", [0x04, 0x22, 0x4D], "input ended after 3 of the 4 bytes of a frame's magic number at input byte 3"),
    ])
    func badInputGivesOneErrorLine(name: String, input: [UInt8], message: String) async throws {
        let result = try await LowbandBinary.run(["lz4", "decompress"], stdin: input)
        #expect(result.status == 1)
        #expect(result.stderrText == "lowband lz4 decompress: error: \(message)\n")
    }

    @Test func truncatedAndCorruptFramesGiveOneErrorLine() async throws {
        let input = text(count: 1 << 20, seed: 6)
        let frame = try await ExternalProcess.run(try lz4Tool(), ["-B4", "-BX", "-c"], stdin: input).stdout
        let truncated = try await LowbandBinary.run(["lz4", "decompress"], stdin: Array(frame.prefix(frame.count / 2)))
        #expect(truncated.status == 1)
        #expect(truncated.stderrText.hasPrefix("lowband lz4 decompress: error: input ended inside the LZ4 frame that starts at byte 0"))
        #expect(truncated.stderrText.hasSuffix(" at input byte \(frame.count / 2)\n"))
        // Output decoded before the cut is still written, like `lz4 -d`.
        #expect(truncated.stdout.count > 0 && input.starts(with: truncated.stdout))

        var corrupt = frame
        corrupt[frame.count / 3] ^= 0x10
        let result = try await LowbandBinary.run(["lz4", "decompress"], stdin: corrupt)
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband lz4 decompress: error: block checksum does not match the block at input byte "))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func invalidOptionsOnTheCommandLineAreOneErrorLine() async throws {
        let result = try await LowbandBinary.run(["lz4", "compress", "--level", "13"])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband lz4 compress: error: --level must be between 1 and 12 (got 13)"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }
}
