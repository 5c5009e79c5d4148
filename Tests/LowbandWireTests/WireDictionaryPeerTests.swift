import LowbandProcess
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

/// Python's `lz4` package, a peer written by others, reads our dictionary frames and writes its
/// own: the payloads are standard LZ4 blocks made with the shipped dictionary's bytes, and the
/// header's layout is the one docs/PROTOCOL.md describes.
@Suite struct WireDictionaryPeerTests {
    /// Reads the dictionary, then frames (12-byte header, payload) from stdin until it ends, and
    /// answers each with a length-prefixed line: `flags-byte dictionary-id` and the payload,
    /// decompressed with `lz4.block.decompress(..., dict=...)` when the header names dictionary
    /// 1. Then it builds a frame of its own for each payload: compressed with the dictionary
    /// by `lz4.block.compress(..., dict=...)`, flags byte 0x1C.
    static let script = """
        import lz4.block, struct, sys
        data = sys.stdin.buffer.read()
        (n,) = struct.unpack('>I', data[:4])
        dictionary, pos, out, payloads = data[4:4 + n], 4 + n, [], []
        while pos < len(data):
            version, flags, command, sequence, length = struct.unpack('>BBHII', data[pos:pos + 12])
            body = data[pos + 12:pos + 12 + length]
            pos += 12 + length
            dict_id = flags >> 4
            if flags & 0x08:
                (size,) = struct.unpack('>I', body[:4])
                kw = {'dict': dictionary} if dict_id == 1 else {}
                body = lz4.block.decompress(body[4:], uncompressed_size=size, **kw)
            payloads.append((command, sequence, body))
            out.append(struct.pack('>BBI', flags, dict_id, len(body)) + body)
        for command, sequence, payload in payloads:
            block = lz4.block.compress(payload, mode='fast', acceleration=1, store_size=False, dict=dictionary)
            body = struct.pack('>I', len(payload)) + block
            out.append(struct.pack('>BBHII', 2, 0x1C, command, sequence, len(body)) + body)
        sys.stdout.buffer.write(b''.join(out))
        """

    @Test func pythonDecodesOurDictionaryFramesAndWritesFramesWeDecode() async throws {
        let frames = try WireDictionaryTests.pushes(50, seed: 9).map { WireDictionaryTests.named($0) }
        var stdin = [UInt8]()
        let dictionary = WireDictionary.messenger1.dictionary.bytes
        stdin += withUnsafeBytes(of: UInt32(dictionary.count).bigEndian, Array.init) + dictionary
        let encoder = FrameEncoder()
        for frame in frames {
            stdin += Array(try encoder.bytes(of: frame).readableBytesView)
        }
        let python = try #require(ExternalProcess.which("python3"), "python3 with the lz4 package must be installed")
        let result = try await ExternalProcess.run(python, ["-c", Self.script], stdin: stdin)
        try #require(result.status == 0, "python failed: \(result.stderrText)")

        var output = ByteBuffer(bytes: result.stdout)
        var compressed = 0
        for frame in frames {
            let flags = output.readInteger(as: UInt8.self)
            let id = output.readInteger(as: UInt8.self)
            let count = output.readInteger(as: UInt32.self) ?? 0
            let payload = output.readBytes(length: Int(count))
            // push | compressed with dictionary 1, or a push the dictionary could not shrink.
            #expect((flags == 0x1C && id == 1) || (flags == 0x04 && id == 0), "flags byte \(flags ?? 0) of push \(frame.sequence)")
            if flags == 0x1C { compressed += 1 }
            #expect(payload == frame.payload, "python's lz4 with the dictionary restores push \(frame.sequence)")
        }
        #expect(compressed >= 40, "\(compressed) of 50 pushes went compressed with the dictionary")
        var decoder = FrameDecoder()
        for frame in frames {
            let theirs = try decoder.nextFrame(from: &output)
            #expect(theirs?.frame == frame, "python's frame for push \(frame.sequence)")
        }
        #expect(output.readableBytes == 0)
    }
}
