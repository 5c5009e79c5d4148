/// How a stream arrives: the chunk sizes a target feeds a streaming decoder with.
///
/// Read from the front of the input as one count byte (0 to 15 sizes) and that many size bytes;
/// a size byte `s` means `s + 1` bytes, and the sizes repeat. No sizes means one chunk, so a
/// seed of `0x00` followed by a recorded stream is the stream delivered at once.
public struct Chunking {
    public let sizes: [Int]

    public init(taking input: inout FuzzInput) {
        let count = Int(input.takeByte() % 16)
        sizes = input.take(count).map { Int($0) + 1 }
    }

    /// `bytes` cut into consecutive chunks of the sizes, in order.
    public func chunks(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard !sizes.isEmpty else { return [bytes[...]] }
        var chunks: [ArraySlice<UInt8>] = []
        var start = 0
        var index = 0
        while start < bytes.count {
            let end = min(bytes.count, start + sizes[index % sizes.count])
            chunks.append(bytes[start ..< end])
            start = end
            index += 1
        }
        return chunks
    }
}
