import CLowbandZlib

/// zlib's one-shot deflate and inflate (the format HTTP's gzip wraps), at its default level.
enum Zlib {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func compress(_ input: [UInt8]) throws(Failure) -> [UInt8] {
        var length = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { destination in
            input.withUnsafeBufferPointer { source in
                compress2(destination.baseAddress, &length, source.baseAddress, uLong(input.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw Failure(description: "zlib compress2 failed with status \(status)") }
        output.removeLast(output.count - Int(length))
        return output
    }

    static func decompress(_ input: [UInt8], size: Int) throws(Failure) -> [UInt8] {
        var length = uLong(size)
        var output = [UInt8](repeating: 0, count: max(1, size))
        let status = output.withUnsafeMutableBufferPointer { destination in
            input.withUnsafeBufferPointer { source in
                uncompress(destination.baseAddress, &length, source.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(length) == size else { throw Failure(description: "zlib uncompress failed with status \(status)") }
        return Array(output.prefix(size))
    }
}
