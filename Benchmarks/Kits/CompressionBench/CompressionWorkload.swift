/// One input and one method with all buffers allocated up front: `compress()` and
/// `decompress()` do nothing but run the codec over every payload.
///
/// The compressed payloads are kept from the last `compress()` (one runs in `init`), so a
/// decompression benchmark can run on its own. Sizes are what the codec returns — for LZ4 the
/// raw block size, without the 4-byte length prefix the frame encoder adds — and every payload
/// is compressed, even one that the frame encoder's policy would send as it is.
///
/// Not `Sendable`: it owns mutable buffers and, for zlib, the codec's streams.
public final class CompressionWorkload {
    public let input: CompressionInput
    public let method: CompressionMethod
    private let codec: CompressionCodec
    /// Payload `i` is `source[sourceOffsets[i] ..< sourceOffsets[i + 1]]`; `restored` is laid out alike.
    private let sourceOffsets: [Int]
    /// Room for compressed payload `i` starts at `compressedOffsets[i]` and ends at `compressedOffsets[i + 1]`.
    private let compressedOffsets: [Int]
    private let source: UnsafeMutableRawBufferPointer
    private let compressed: UnsafeMutableRawBufferPointer
    private let restored: UnsafeMutableRawBufferPointer
    private let compressedSizes: UnsafeMutableBufferPointer<Int>

    /// Sum of the input payload sizes.
    public var inputBytes: Int { sourceOffsets[sourceOffsets.count - 1] }
    /// Sum of the compressed payload sizes from the last ``compress()``.
    public private(set) var compressedBytes = 0

    /// - Throws: `CompressionBenchError` when the method is invalid or its first compression fails.
    public init(input: CompressionInput, method: CompressionMethod) throws(CompressionBenchError) {
        guard !input.payloads.isEmpty else {
            throw CompressionBenchError(.invalidArgument, "input \(input.id) has no payloads")
        }
        self.input = input
        self.method = method
        let codec = try CompressionCodec(method)
        self.codec = codec
        var sourceOffsets = [0]
        var compressedOffsets = [0]
        for payload in input.payloads {
            sourceOffsets.append(sourceOffsets[sourceOffsets.count - 1] + payload.count)
            compressedOffsets.append(compressedOffsets[compressedOffsets.count - 1] + codec.compressBound(payload.count))
        }
        self.sourceOffsets = sourceOffsets
        self.compressedOffsets = compressedOffsets
        let total = sourceOffsets[sourceOffsets.count - 1]
        source = .allocate(byteCount: max(total, 1), alignment: 16)
        restored = .allocate(byteCount: max(total, 1), alignment: 16)
        restored.initializeMemory(as: UInt8.self, repeating: 0)
        compressed = .allocate(byteCount: max(compressedOffsets[compressedOffsets.count - 1], 1), alignment: 16)
        compressed.initializeMemory(as: UInt8.self, repeating: 0)
        compressedSizes = .allocate(capacity: input.payloads.count)
        compressedSizes.initialize(repeating: 0)
        for (index, payload) in input.payloads.enumerated() {
            payload.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: source[sourceOffsets[index] ..< sourceOffsets[index + 1]])
                    .copyMemory(from: bytes)
            }
        }
        try compress()
    }

    deinit {
        source.deallocate()
        compressed.deallocate()
        restored.deallocate()
        compressedSizes.deallocate()
    }

    /// Compresses every payload, one by one; returns the total compressed size.
    @discardableResult
    public func compress() throws(CompressionBenchError) -> Int {
        var total = 0
        for index in 0 ..< compressedSizes.count {
            let payload = UnsafeRawBufferPointer(rebasing: source[sourceOffsets[index] ..< sourceOffsets[index + 1]])
            let room = UnsafeMutableRawBufferPointer(rebasing: compressed[compressedOffsets[index] ..< compressedOffsets[index + 1]])
            let size = try codec.compress(payload, into: room)
            compressedSizes[index] = size
            total += size
        }
        compressedBytes = total
        return total
    }

    /// Decompresses every payload of the last ``compress()``; returns the total restored size.
    ///
    /// - Throws: `CompressionBenchError` when a payload fails or restores to another size.
    @discardableResult
    public func decompress() throws(CompressionBenchError) -> Int {
        var total = 0
        for index in 0 ..< compressedSizes.count {
            let start = compressedOffsets[index]
            let payload = UnsafeRawBufferPointer(rebasing: compressed[start ..< start + compressedSizes[index]])
            let room = UnsafeMutableRawBufferPointer(rebasing: restored[sourceOffsets[index] ..< sourceOffsets[index + 1]])
            let size = try codec.decompress(payload, into: room)
            guard size == room.count else {
                throw CompressionBenchError(
                    .roundTripMismatch,
                    "\(input.id)/\(method.id): payload \(index) restored to \(size) bytes instead of \(room.count)"
                )
            }
            total += size
        }
        return total
    }

    /// The compressed payloads of the last ``compress()``, as the codec wrote them.
    public func compressedPayloads() -> [[UInt8]] {
        (0 ..< compressedSizes.count).map { index in
            let start = compressedOffsets[index]
            return Array(UnsafeRawBufferPointer(rebasing: compressed[start ..< start + compressedSizes[index]]))
        }
    }

    /// The payloads of the last ``decompress()``.
    public func restoredPayloads() -> [[UInt8]] {
        (0 ..< compressedSizes.count).map { index in
            Array(UnsafeRawBufferPointer(rebasing: restored[sourceOffsets[index] ..< sourceOffsets[index + 1]]))
        }
    }

    /// Decompresses and checks that every payload equals the input byte for byte.
    ///
    /// - Throws: `CompressionBenchError` with code `roundTripMismatch` naming the first payload that differs.
    public func verifyRoundTrip() throws(CompressionBenchError) {
        try decompress()
        for (index, payload) in input.payloads.enumerated() {
            let restored = UnsafeRawBufferPointer(rebasing: self.restored[sourceOffsets[index] ..< sourceOffsets[index + 1]])
            guard restored.elementsEqual(payload) else {
                throw CompressionBenchError(
                    .roundTripMismatch, "\(input.id)/\(method.id): payload \(index) of \(payload.count) bytes differs after a round trip"
                )
            }
        }
    }
}
