import FuzzSupport
import LowbandLZ4
import LowbandWire
import NIOCore

/// `FrameDecoder` on a whole byte stream, delivered in the chunks the input chooses.
///
/// Input: one configuration byte (payload limit, compression dictionary), the chunk sizes
/// (``Chunking``), then the stream. The stream is decoded twice, at once and in chunks, and both
/// must give the same frames and the same `WireError` (code and stream offset): how bytes arrive
/// never changes what they mean. No frame's payload exceeds the limit, compressed or not, and a
/// decoded frame encodes and decodes back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let choice = input.takeByte()
    let chunking = Chunking(taking: &input)
    let stream = input.rest()
    let limits = [1 << 20, 4096, 64]
    let compression = choice & 0x10 == 0 ? CompressionPolicy() : CompressionPolicy(minimumSize: 16, dictionary: StreamDecoding.dictionary)
    let configuration = FrameConfiguration(maximumPayloadLength: limits[Int(choice % 3)], compression: compression)

    let whole = StreamDecoding.decode([stream[...]], configuration: configuration)
    let chunked = StreamDecoding.decode(chunking.chunks(of: stream), configuration: configuration)
    require(whole.frames == chunked.frames, "chunking \(chunking.sizes) changed the frames")
    require(
        whole.error?.code == chunked.error?.code && whole.error?.streamOffset == chunked.error?.streamOffset,
        "chunking \(chunking.sizes) changed the error: \(String(describing: whole.error)) vs \(String(describing: chunked.error))"
    )
    for frame in whole.frames {
        require(frame.payload.count <= configuration.maximumPayloadLength, "a \(frame.payload.count)-byte payload passed the limit")
    }
    StreamDecoding.reencode(whole.frames, configuration: configuration)
    return 0
}

enum StreamDecoding {
    /// What a stream decoded to: its frames up to the first error, and that error.
    struct Outcome {
        var frames: [Frame] = []
        var error: WireError?
    }

    /// A dictionary like the one a deployment would share: messenger-ish text.
    static let dictionary = LZ4Dictionary(Array(#"{"id":1,"chatID":2,"senderID":3,"text":"hello","sentAt":1700000000000,"att":null}"#.utf8))

    static func decode(_ chunks: [ArraySlice<UInt8>], configuration: FrameConfiguration) -> Outcome {
        var decoder = FrameDecoder(configuration: configuration)
        var buffer = ByteBuffer()
        var outcome = Outcome()
        do throws(WireError) {
            for chunk in chunks {
                buffer.writeBytes(chunk)
                while let (_, frame) = try decoder.nextFrame(from: &buffer) {
                    outcome.frames.append(frame)
                }
            }
        } catch {
            outcome.error = error
            return outcome
        }
        if buffer.readableBytes > 0 {
            outcome.error = decoder.truncation(buffer)
        }
        return outcome
    }

    /// Frames the decoder produced are frames the encoder writes and the decoder reads back.
    static func reencode(_ frames: [Frame], configuration: FrameConfiguration) {
        guard !frames.isEmpty else { return }
        let encoder = FrameEncoder(configuration: configuration)
        var buffer = ByteBuffer()
        for frame in frames {
            do {
                try encoder.write(frame, to: &buffer)
            } catch {
                finding("a decoded \(frame.command) frame does not encode: \(error)")
            }
        }
        let again = decode([Array(buffer.readableBytesView)[...]], configuration: configuration)
        require(again.error == nil, "re-encoded frames do not decode: \(String(describing: again.error))")
        // Whether a payload travels compressed, and so with which dictionary, is the encoder's
        // choice (it writes a payload plain when compressing does not pay, as a peer may not
        // have done); the frames must agree on everything else, and a re-encoded frame can only
        // have been compressed with the dictionary its frame asked for.
        let strip = { (frame: Frame) -> Frame in
            var plain = frame
            plain.flags.remove(.compressed)
            plain.compressionDictionary = nil
            return plain
        }
        require(again.frames.map(strip) == frames.map(strip), "re-encoded frames decode differently")
        for (first, second) in zip(frames, again.frames) where second.compressionDictionary != nil {
            require(second.compressionDictionary == first.compressionDictionary, "a \(first.command) frame asked for dictionary \(String(describing: first.compressionDictionary)) and was compressed with \(String(describing: second.compressionDictionary))")
        }
    }
}
