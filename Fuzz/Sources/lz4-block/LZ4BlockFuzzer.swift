import FuzzSupport
import LowbandLZ4

/// LZ4 block decompression with a declared size, as a frame's payload is decompressed.
///
/// Input: a flags byte (bit 0: use a dictionary; bit 1: keep the declared size under the limit),
/// a 4-byte big-endian declared size, then the block. The declared size is checked against a
/// 1 MiB limit before anything is allocated. Bad input must give an `LZ4Error`; a success
/// returns exactly the declared size, agrees with decompressing into a caller's buffer, and the
/// output compresses and decompresses back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let flags = input.takeByte()
    let limit = 1 << 20
    var declared = Int(input.takeUInt32())
    if flags & 2 != 0 { declared %= limit + 1 }
    let block = input.rest()
    let dictionary = flags & 1 != 0 ? BlockChecks.dictionary : nil

    let output: [UInt8]
    do throws(LZ4Error) {
        output = try LZ4Block.decompress(block, decompressedSize: declared, maximumSize: limit, dictionary: dictionary)
    } catch {
        if declared > limit { require(error.code == .sizeLimitExceeded, "an oversized declaration gave \(error)") }
        return 0
    }
    require(output.count == declared, "decompressed to \(output.count) bytes, declared \(declared)")
    BlockChecks.intoBuffer(block, declared: declared, expected: output, dictionary: dictionary)
    BlockChecks.roundTrip(output, dictionary: dictionary)
    return 0
}

enum BlockChecks {
    static let dictionary = LZ4Dictionary(Array("the quick brown fox jumps over the lazy dog; hello, chat!".utf8))

    /// Decompressing into a buffer of exactly the declared size gives the same bytes.
    static func intoBuffer(_ block: [UInt8], declared: Int, expected: [UInt8], dictionary: LZ4Dictionary?) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: declared, alignment: 1)
        defer { buffer.deallocate() }
        do {
            let written = try block.withUnsafeBytes { source throws(LZ4Error) in
                try LZ4Block.decompress(source, into: buffer, dictionary: dictionary)
            }
            require(written == declared && Array(buffer.prefix(written)) == expected, "decompressing into a buffer gave other bytes")
        } catch {
            finding("decompressing into a buffer failed where the array form succeeded: \(error)")
        }
    }

    static func roundTrip(_ bytes: [UInt8], dictionary: LZ4Dictionary?) {
        do {
            let compressed = try LZ4Block.compress(bytes, dictionary: dictionary)
            let again = try LZ4Block.decompress(compressed, decompressedSize: bytes.count, maximumSize: bytes.count, dictionary: dictionary)
            require(again == bytes, "compress then decompress changed the bytes")
        } catch {
            finding("decompressed bytes do not round-trip: \(error)")
        }
    }
}
