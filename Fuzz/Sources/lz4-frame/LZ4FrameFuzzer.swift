import FuzzSupport
import LowbandLZ4

/// The LZ4 frame decoder, one-shot and streaming, on any bytes.
///
/// Input: a byte choosing the streaming decoder's output piece size, the chunk sizes
/// (``Chunking``), then the frames. `LZ4Frame.decompress` with an 8 MiB limit and an
/// `LZ4FrameDecompressor` fed in chunks (its sink enforcing the same limit) must agree: the same
/// output, or both an `LZ4Error` with the same code. Output that decodes compresses back to a
/// frame that decodes to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let pieceSize = [64 * 1024, 1, 7, 4096][Int(input.takeByte() % 4)]
    let chunking = Chunking(taking: &input)
    let frames = input.rest()
    let limit = 8 << 20

    let oneShot = Result { () throws(LZ4Error) in try LZ4Frame.decompress(frames, maximumSize: limit) }
    let streamed = FrameChecks.stream(chunking.chunks(of: frames), pieceSize: pieceSize, limit: limit)
    switch (oneShot, streamed) {
    case let (.success(a), .success(b)):
        require(a == b, "one-shot and streaming decoders gave different bytes (\(a.count) vs \(b.count))")
        FrameChecks.roundTrip(a, limit: limit)
    case let (.failure(a), .failure(b)):
        require(a.code == b.code, "one-shot failed with \(a), streaming (chunks \(chunking.sizes)) with \(b)")
    case let (.success(a), .failure(b)):
        finding("one-shot decoded \(a.count) bytes, streaming (chunks \(chunking.sizes), pieces \(pieceSize)) failed: \(b)")
    case let (.failure(a), .success(b)):
        finding("streaming (chunks \(chunking.sizes)) decoded \(b.count) bytes, one-shot failed: \(a)")
    }
    return 0
}

enum FrameChecks {
    static func stream(_ chunks: [ArraySlice<UInt8>], pieceSize: Int, limit: Int) -> Result<[UInt8], LZ4Error> {
        Result { () throws(LZ4Error) in
            let decompressor = try LZ4FrameDecompressor(outputPieceSize: pieceSize)
            var output: [UInt8] = []
            for chunk in chunks {
                do {
                    try chunk.withUnsafeBytes { bytes in
                        try decompressor.decompress(bytes) { piece in
                            require(piece.count <= pieceSize, "a piece of \(piece.count) bytes is over \(pieceSize)")
                            guard piece.count <= limit - output.count else {
                                throw LZ4Error(.sizeLimitExceeded, "over the limit")
                            }
                            output.append(contentsOf: piece)
                        }
                    }
                } catch let error as LZ4Error {
                    throw error
                } catch {
                    finding("the decompressor threw \(type(of: error)): \(error)")
                }
            }
            try decompressor.finish()
            return output
        }
    }

    static func roundTrip(_ bytes: [UInt8], limit: Int) {
        do {
            let frame = try LZ4Frame.compress(bytes)
            let again = try LZ4Frame.decompress(frame, maximumSize: limit)
            require(again == bytes, "compress then decompress changed the bytes")
        } catch {
            finding("decompressed bytes do not round-trip: \(error)")
        }
    }
}
