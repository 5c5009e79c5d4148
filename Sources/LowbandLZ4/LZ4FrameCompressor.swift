import CLZ4

/// Streaming compression into the LZ4 frame format that `lz4` and other implementations read.
///
/// Feed the input in chunks of any size with `compress(_:)` and end the frame with ``finish()``;
/// concatenating everything they return gives one frame. Memory use is bounded by the block size,
/// whatever the input size. After ``finish()`` the next `compress(_:)` starts a new frame.
///
/// Not `Sendable`: use one instance from one task at a time.
public final class LZ4FrameCompressor {
    private enum State {
        case idle
        case inFrame
        case failed(LZ4Error)
    }

    /// The input is handed to liblz4 in pieces of at most this many bytes, which bounds `scratch`.
    private static let pieceSize = 64 * 1024

    /// The frame settings every frame of this compressor uses.
    public let configuration: LZ4FrameConfiguration
    private var preferences: LZ4F_preferences_t
    private let context: OpaquePointer
    private let scratch: UnsafeMutableRawBufferPointer
    private var state = State.idle

    /// Creates a compressor; no output is produced until the first call.
    ///
    /// - Throws: `LZ4Error` with code `invalidLevel` for an out-of-range level.
    public init(configuration: LZ4FrameConfiguration = LZ4FrameConfiguration()) throws(LZ4Error) {
        self.configuration = configuration
        var preferences = try configuration.preferences()
        var context: OpaquePointer?
        _ = try checkFrameResult(
            LZ4F_createCompressionContext(&context, UInt32(LZ4F_VERSION)), "creating a compression context"
        )
        guard let context else { throw LZ4Error(.frame, "creating a compression context returned no context") }
        self.context = context
        let capacity = max(LZ4F_compressBound(Self.pieceSize, &preferences), Int(LZ4F_HEADER_SIZE_MAX))
        self.scratch = .allocate(byteCount: capacity, alignment: 16)
        self.preferences = preferences
    }

    deinit {
        LZ4F_freeCompressionContext(context)
        scratch.deallocate()
    }

    /// Compresses `chunk` and returns the frame bytes that are ready, starting with the frame
    /// header on the first call. Often returns nothing while a block fills up.
    ///
    /// - Throws: `LZ4Error` if liblz4 fails; the compressor is unusable afterwards.
    public func compress(_ chunk: UnsafeRawBufferPointer) throws(LZ4Error) -> [UInt8] {
        var output: [UInt8] = []
        try beginIfNeeded(into: &output)
        var offset = 0
        while offset < chunk.count {
            let count = min(Self.pieceSize, chunk.count - offset)
            let piece = UnsafeRawBufferPointer(rebasing: chunk[offset..<offset + count])
            try step("compressing", into: &output) { context, scratch in
                LZ4F_compressUpdate(context, scratch.baseAddress, scratch.count, piece.baseAddress, piece.count, nil)
            }
            offset += count
        }
        return output
    }

    /// Compresses `chunk`; see the `UnsafeRawBufferPointer` variant.
    public func compress(_ chunk: some Collection<UInt8>) throws(LZ4Error) -> [UInt8] {
        let result = chunk.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LZ4Error) -> [UInt8] in try compress(UnsafeRawBufferPointer(buffer)) }
        }
        if let result { return try result.get() }
        let copy = Array(chunk)
        return try copy.withUnsafeBytes { buffer in
            Result { () throws(LZ4Error) -> [UInt8] in try compress(buffer) }
        }.get()
    }

    /// Compresses whatever input is buffered into a block now, so the receiver can decode all
    /// data given so far, and returns the bytes. The frame stays open.
    public func flush() throws(LZ4Error) -> [UInt8] {
        var output: [UInt8] = []
        try beginIfNeeded(into: &output)
        try step("flushing", into: &output) { context, scratch in
            LZ4F_flush(context, scratch.baseAddress, scratch.count, nil)
        }
        return output
    }

    /// Ends the frame: returns the last block, the end mark and the content checksum.
    ///
    /// Finishing without any input produces a complete frame of empty content.
    public func finish() throws(LZ4Error) -> [UInt8] {
        var output: [UInt8] = []
        try beginIfNeeded(into: &output)
        try step("ending the frame", into: &output) { context, scratch in
            LZ4F_compressEnd(context, scratch.baseAddress, scratch.count, nil)
        }
        state = .idle
        return output
    }

    private func beginIfNeeded(into output: inout [UInt8]) throws(LZ4Error) {
        switch state {
        case .inFrame:
            return
        case .failed(let error):
            throw error
        case .idle:
            try step("writing the frame header", into: &output) { context, scratch in
                LZ4F_compressBegin(context, scratch.baseAddress, scratch.count, &preferences)
            }
            state = .inFrame
        }
    }

    /// Runs one liblz4 call that writes into `scratch` and appends what it wrote to `output`.
    private func step(
        _ operation: String,
        into output: inout [UInt8],
        _ call: (OpaquePointer, UnsafeMutableRawBufferPointer) -> Int
    ) throws(LZ4Error) {
        do {
            let written = try checkFrameResult(call(context, scratch), operation)
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<written]))
        } catch {
            state = .failed(error)
            throw error
        }
    }
}

@available(*, unavailable)
extension LZ4FrameCompressor: Sendable {}
