import LowbandLZ4
import LowbandProcess
import LowbandTestSupport
import Testing

/// Frames exchanged with the real `lz4` command, which is built on the system liblz4.
@Suite struct LZ4ToolInteropTests {
    static let sizes = [0, 1, 1_000, 300_000, (4 << 20) + 321]

    static func lz4(_ arguments: [String], stdin: [UInt8]) async throws -> ExternalProcess.Result {
        let tool = try #require(ExternalProcess.which("lz4"), "the lz4 command must be installed")
        return try await ExternalProcess.run(tool, arguments, stdin: stdin)
    }

    @Test(arguments: LZ4FrameTests.configurations.indices)
    func ourFramesDecodeWithTheLZ4Tool(configurationIndex: Int) async throws {
        let configuration = LZ4FrameTests.configurations[configurationIndex]
        for kind in TestData.Kind.allCases {
            for size in Self.sizes {
                let input = TestData.bytes(kind, count: size, seed: UInt64(size) + 1)
                let frame = try LZ4FrameTests.streamCompress(input, configuration, chunkSizes: [65_536, 12_345])
                let result = try await Self.lz4(["-d", "-c"], stdin: frame)
                #expect(result.status == 0, "\(result.stderrText)")
                expectSameBytes(result.stdout, input, "\(kind) \(size) bytes")
            }
        }
    }

    @Test(arguments: [LZ4Level.fast(acceleration: 1), .fast(acceleration: 100), .high(level: 3), .high(level: 12)])
    func oneShotFramesDecodeWithTheLZ4Tool(level: LZ4Level) async throws {
        let input = TestData.text(count: 500_000)
        let result = try await Self.lz4(["-d", "-c"], stdin: LZ4Frame.compress(input, configuration: .init(level: level)))
        #expect(result.status == 0)
        expectSameBytes(result.stdout, input)
    }

    static let toolOptions: [[String]] = [
        [], ["-1"], ["-3"], ["-9"], ["-12"], ["--fast=5"], ["-BD"], ["--no-frame-crc"],
        ["-B4"], ["-B5"], ["-B6"], ["-B7"], ["-BX"], ["-B4", "-BD", "-BX", "--no-frame-crc"], ["-10", "--favor-decSpeed"],
    ]

    @Test(arguments: toolOptions)
    func framesFromTheLZ4ToolDecode(options: [String]) async throws {
        for kind in TestData.Kind.allCases {
            for size in Self.sizes {
                let input = TestData.bytes(kind, count: size, seed: UInt64(size) + 2)
                let result = try await Self.lz4(options + ["-c"], stdin: input)
                try #require(result.status == 0, "\(result.stderrText)")
                try expectSameBytes(LZ4Frame.decompress(result.stdout, maximumSize: size), input, "\(kind) \(size) bytes")
                try expectSameBytes(LZ4FrameTests.streamDecompress(result.stdout, chunkSizes: [65_536, 7, 1_000]), input)
            }
        }
    }

    @Test func concatenatedFramesFromTheLZ4ToolDecodeLikeLZ4D() async throws {
        let parts = [TestData.text(count: 70_000, seed: 1), [], TestData.random(count: 5_000, seed: 2), TestData.text(count: 10, seed: 3)]
        var stream: [UInt8] = []
        for (index, part) in parts.enumerated() {
            await stream += try Self.lz4(index % 2 == 0 ? ["-c"] : ["-9", "-BD", "-c"], stdin: part).stdout
        }
        let expected = parts.flatMap { $0 }
        try expectSameBytes(LZ4Frame.decompress(stream, maximumSize: 1 << 20), expected)
        try await expectSameBytes(Self.lz4(["-d", "-c"], stdin: stream).stdout, expected)
    }

    @Test func legacyAndTruncatedToolOutputGiveClearErrors() async throws {
        let input = TestData.text(count: 50_000)
        let legacy = try await Self.lz4(["-l", "-c"], stdin: input).stdout
        expectLZ4Error(.unsupportedFormat) { try LZ4Frame.decompress(legacy, maximumSize: 1 << 20) }

        let frame = try await Self.lz4(["-c"], stdin: input).stdout
        for length in [1, 4, 6, 7, 20, frame.count / 2, frame.count - 4, frame.count - 1] {
            expectLZ4Error(.truncatedFrame) { try LZ4Frame.decompress(Array(frame[..<length]), maximumSize: 1 << 20) }
            // The tool agrees that the stream is unfinished.
            await #expect(try Self.lz4(["-d", "-c"], stdin: Array(frame[..<length])).status != 0)
        }
    }
}

/// Blocks and frames exchanged with Python's `lz4` package, a second, independent peer.
@Suite struct PythonLZ4InteropTests {
    /// One operation for the Python peer: `arguments[0]` is the mode, the rest its parameters.
    struct Request {
        var arguments: [String]
        var payload: [UInt8]
        var dictionary: LZ4Dictionary?
    }

    /// Runs a batch of requests, each framed on stdin as length-prefixed (arguments, dictionary,
    /// payload), answered on stdout as length-prefixed results; one interpreter start per batch.
    static let script = """
        import sys, struct, lz4.block, lz4.frame
        data = sys.stdin.buffer.read()
        pos = 0
        def take():
            global pos
            (n,) = struct.unpack_from('<I', data, pos)
            pos += 4 + n
            return data[pos - n:pos]
        while pos < len(data):
            mode, *args = take().decode().split(' ')
            d = take()
            payload = take()
            kw = {'dict': d} if d else {}
            if mode == 'frame-compress':
                level, block_size, content, block, linked = map(int, args)
                out = lz4.frame.compress(payload, compression_level=level, block_size=block_size,
                    content_checksum=bool(content), block_checksum=bool(block), block_linked=bool(linked))
            elif mode == 'frame-decompress':
                out = lz4.frame.decompress(payload)
            elif mode == 'block-compress' and args[0] == 'high_compression':
                out = lz4.block.compress(payload, mode='high_compression', compression=int(args[1]), store_size=False, **kw)
            elif mode == 'block-compress':
                out = lz4.block.compress(payload, mode='fast', acceleration=int(args[1]), store_size=False, **kw)
            elif mode == 'block-decompress':
                out = lz4.block.decompress(payload, uncompressed_size=int(args[0]), **kw)
            sys.stdout.buffer.write(struct.pack('<I', len(out)) + out)
        """

    static func python(_ requests: [Request]) async throws -> [[UInt8]] {
        let python = try #require(ExternalProcess.which("python3"), "python3 with the lz4 package must be installed")
        var stdin: [UInt8] = []
        func append(_ bytes: [UInt8]) {
            stdin += (0..<4).map { UInt8(truncatingIfNeeded: bytes.count >> (8 * $0)) } + bytes
        }
        for request in requests {
            append(Array(request.arguments.joined(separator: " ").utf8))
            append(request.dictionary?.bytes ?? [])
            append(request.payload)
        }
        let result = try await ExternalProcess.run(python, ["-c", script], stdin: stdin)
        try #require(result.status == 0, "python failed: \(result.stderrText)")
        var outputs: [[UInt8]] = []
        var position = 0
        while position + 4 <= result.stdout.count {
            let count = (0..<4).reduce(0) { $0 | Int(result.stdout[position + $1]) << (8 * $1) }
            outputs.append(Array(result.stdout[position + 4..<position + 4 + count]))
            position += 4 + count
        }
        try #require(outputs.count == requests.count)
        return outputs
    }

    @Test(arguments: TestData.Kind.allCases)
    func framesRoundTripWithPython(kind: TestData.Kind) async throws {
        for size in [0, 1, 100_000, (4 << 20) + 5] {
            let input = TestData.bytes(kind, count: size, seed: 9)
            // Python writes the content size into the header by default.
            let settings = [(0, 7, 0), (9, 4, 1), (-3, 5, 0)]
            let theirs = try await Self.python(settings.map { level, blockSize, linked in
                Request(arguments: ["frame-compress", "\(level)", "\(blockSize)", "1", "1", "\(linked)"], payload: input)
            })
            for frame in theirs {
                try expectSameBytes(LZ4Frame.decompress(frame, maximumSize: size), input)
            }
            let configurations = size > 1 << 20 ? [LZ4FrameConfiguration()] : LZ4FrameTests.configurations
            let ours = try configurations.map { configuration in
                try LZ4FrameTests.streamCompress(input, configuration, chunkSizes: [100_000])
            }
            for output in try await Self.python(ours.map { Request(arguments: ["frame-decompress"], payload: $0) }) {
                expectSameBytes(output, input)
            }
        }
    }

    @Test(arguments: [("fast", 1), ("fast", 9), ("high_compression", 4), ("high_compression", 12)])
    func blocksRoundTripWithPython(mode: String, value: Int) async throws {
        let level: LZ4Level = mode == "fast" ? .fast(acceleration: value) : .high(level: value)
        var cases: [(input: [UInt8], dictionary: LZ4Dictionary?)] = []
        for kind in TestData.Kind.allCases {
            for size in [1, 300, 70_000, 1 << 20] {
                for dictionary in [nil, LZ4BlockDictionaryTests.dictionary] {
                    cases.append((TestData.bytes(kind, count: size, seed: 10), dictionary))
                }
            }
        }
        let theirs = try await Self.python(cases.map {
            Request(arguments: ["block-compress", mode, "\(value)"], payload: $0.input, dictionary: $0.dictionary)
        })
        for (block, (input, dictionary)) in zip(theirs, cases) {
            let output = try LZ4Block.decompress(block, decompressedSize: input.count, maximumSize: input.count, dictionary: dictionary)
            expectSameBytes(output, input)
        }
        let ours = try cases.map { try LZ4Block.compress($0.input, level: level, dictionary: $0.dictionary) }
        let decoded = try await Self.python(zip(ours, cases).map { block, testCase in
            Request(arguments: ["block-decompress", "\(testCase.input.count)"], payload: block, dictionary: testCase.dictionary)
        })
        for (output, testCase) in zip(decoded, cases) {
            expectSameBytes(output, testCase.input)
        }
    }
}
