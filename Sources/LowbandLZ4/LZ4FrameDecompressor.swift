import CLZ4

/// Streaming decompression of the LZ4 frame format, as written by `lz4` or ``LZ4FrameCompressor``.
///
/// Like `lz4 -d`, it reads any number of concatenated frames, skips skippable frames and treats
/// empty input as empty content. Output is delivered in pieces of at most `outputPieceSize` bytes,
/// so a small, highly compressed chunk never turns into one huge allocation; input that splits a
/// block is held until the block is complete (at most one block, 4 MiB). Call ``finish()`` at the
/// end of the input to detect a truncated frame.
///
/// Errors carry the input offset of the part that failed: the frame start for header errors, the
/// start of the block data for a corrupt block, the checksum for a checksum mismatch.
///
/// Not `Sendable`: use one instance from one task at a time.
public final class LZ4FrameDecompressor {
    private enum State {
        case betweenFrames
        /// Inside the frame that started at `start`. `hint` is liblz4's size hint: the next part
        /// (rest of the header, block header, block, checksum) plus, in LZ4 frames, the 4-byte
        /// block header that follows it.
        case inFrame(start: Int, hint: Int, skippable: Bool)
        case failed(LZ4Error)
    }

    private static let legacyMagic: UInt32 = 0x184C_2102
    /// The largest part given to liblz4 at once: a 4 MiB block with its checksum and the next
    /// block header, with room to spare. Skippable frames, which may be 4 GiB, go in pieces.
    private static let maximumPartSize = (4 << 20) + 1_024
    private static let headerErrors: Set<String> = [
        "ERROR_frameType_unknown", "ERROR_headerVersion_wrong", "ERROR_reservedFlag_set",
        "ERROR_maxBlockSize_invalid", "ERROR_headerChecksum_invalid", "ERROR_frameHeader_incomplete",
    ]

    /// The most bytes handed to the output sink at once.
    public let outputPieceSize: Int
    private let context: OpaquePointer
    private let scratch: UnsafeMutableRawBufferPointer
    private var state = State.betweenFrames
    /// Received bytes of a part that is not complete yet.
    private var pending: [UInt8] = []
    /// Offset of the first byte not given to liblz4 yet (the first byte of `pending`, if any).
    private var processedOffset = 0

    /// The number of input bytes received so far.
    public var inputOffset: Int { processedOffset + pending.count }

    /// Creates a decompressor whose output pieces are at most `outputPieceSize` bytes (at least 1).
    ///
    /// - Throws: `LZ4Error` with code `frame` if liblz4 cannot create a context.
    public init(outputPieceSize: Int = 64 * 1024) throws(LZ4Error) {
        var context: OpaquePointer?
        _ = try checkFrameResult(
            LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION)), "creating a decompression context"
        )
        guard let context else { throw LZ4Error(.frame, "creating a decompression context returned no context") }
        self.context = context
        self.outputPieceSize = max(outputPieceSize, 1)
        self.scratch = .allocate(byteCount: self.outputPieceSize, alignment: 16)
    }

    deinit {
        LZ4F_freeDecompressionContext(context)
        scratch.deallocate()
    }

    /// Decompresses `chunk` and passes the output to `sink` in pieces of at most
    /// ``outputPieceSize`` bytes. A piece is only valid during the call.
    ///
    /// - Throws: `LZ4Error` (`notAFrame`, `unsupportedFormat`, `corruptInput`,
    ///   `checksumMismatch`, `frame`) for bad input, or whatever `sink` throws; after either,
    ///   every call fails with the same `LZ4Error`.
    public func decompress(
        _ chunk: UnsafeRawBufferPointer,
        to sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try decode(chunk, sink: sink, lift: { $0 })
    }

    /// Decompresses `chunk` and returns its output.
    ///
    /// The result is as large as the chunk decompresses to, up to 255 times its size; use
    /// ``decompress(_:to:)`` for bounded memory.
    public func decompress(_ chunk: some Collection<UInt8>) throws(LZ4Error) -> [UInt8] {
        var output: [UInt8] = []
        let collect = { (piece: UnsafeRawBufferPointer) throws(LZ4Error) in output.append(contentsOf: piece) }
        let result = chunk.withContiguousStorageIfAvailable { buffer in
            Result { () throws(LZ4Error) in try decode(UnsafeRawBufferPointer(buffer), sink: collect, lift: { $0 }) }
        }
        if let result {
            try result.get()
        } else {
            try Array(chunk).withUnsafeBytes { buffer in
                Result { () throws(LZ4Error) in try decode(buffer, sink: collect, lift: { $0 }) }
            }.get()
        }
        return output
    }

    /// Checks that the input did not end inside a frame. Does not change the state, so more
    /// input may still follow.
    ///
    /// - Throws: `LZ4Error` with code `truncatedFrame` if it did, or the error of an earlier call.
    public func finish() throws(LZ4Error) {
        switch state {
        case .failed(let error):
            throw error
        case .betweenFrames where pending.isEmpty:
            return
        case .betweenFrames:
            throw LZ4Error(
                .truncatedFrame,
                "input ended after \(pending.count) of the 4 bytes of a frame's magic number",
                inputOffset: inputOffset
            )
        case .inFrame(let start, let hint, _):
            throw LZ4Error(
                .truncatedFrame,
                "input ended inside the LZ4 frame that starts at byte \(start) "
                    + "(at least \(hint - pending.count) more bytes expected)",
                inputOffset: inputOffset
            )
        }
    }

    /// The decoding loop behind the public methods: cuts the input into the parts liblz4 asks
    /// for, assembling a part in `pending` when it spans chunks. `lift` turns an `LZ4Error` into
    /// the error type that the sink throws, so callers keep typed errors.
    func decode<E: Error>(
        _ input: UnsafeRawBufferPointer,
        sink: (UnsafeRawBufferPointer) throws(E) -> Void,
        lift: (LZ4Error) -> E
    ) throws(E) {
        var position = 0
        while true {
            let need: Int
            switch state {
            case .failed(let error): throw lift(error)
            case .betweenFrames: need = 4
            case .inFrame(_, let hint, let skippable):
                // Waiting for the next block header too would hold back a flushed block.
                let part = skippable || hint <= 4 ? max(hint, 1) : hint - 4
                need = min(part, Self.maximumPartSize)
            }
            if pending.isEmpty && input.count - position >= need {
                let part = UnsafeRawBufferPointer(rebasing: input[position..<position + need])
                position += try process(part, sink: sink, lift: lift)
            } else {
                let taken = min(need - pending.count, input.count - position)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[position..<position + taken]))
                position += taken
                guard pending.count == need else { return }
                let used = try pending.withUnsafeBytes { part in
                    Result { () throws(E) -> Int in try process(part, sink: sink, lift: lift) }
                }.get()
                // A frame that ended inside the part leaves the rest for the next frame.
                pending.removeFirst(used)
            }
        }
    }

    /// Gives one complete part, which starts at `processedOffset`, to liblz4 and returns the
    /// number of bytes used: all of them unless the frame ended first.
    private func process<E: Error>(
        _ part: UnsafeRawBufferPointer,
        sink: (UnsafeRawBufferPointer) throws(E) -> Void,
        lift: (LZ4Error) -> E
    ) throws(E) -> Int {
        let partStart = processedOffset
        if case .betweenFrames = state {
            let skippable: Bool
            do throws(LZ4Error) {
                skippable = try checkMagic(part, at: partStart)
            } catch {
                throw lift(error)
            }
            state = .inFrame(start: partStart, hint: 0, skippable: skippable)
        }
        guard case .inFrame(let start, _, let skippable) = state, let base = part.baseAddress else { return 0 }
        var used = 0
        var outputSize = 0
        repeat {
            var sourceSize = part.count - used
            outputSize = scratch.count
            let result = LZ4F_decompress(context, scratch.baseAddress, &outputSize, base + used, &sourceSize, nil)
            if LZ4F_isError(result) != 0 {
                let name = String(cString: LZ4F_getErrorName(result))
                let offset = Self.headerErrors.contains(name) ? start : partStart
                throw lift(fail(Self.errorCode(name), Self.errorMessage(name), at: offset))
            }
            used += sourceSize
            if outputSize > 0 {
                do throws(E) {
                    try sink(UnsafeRawBufferPointer(rebasing: scratch[..<outputSize]))
                } catch {
                    _ = fail(.frame, "decompression was stopped by an error from the output sink", at: partStart)
                    throw error
                }
            }
            if result == 0 {
                state = .betweenFrames
                break
            }
            state = .inFrame(start: start, hint: result, skippable: skippable)
            if sourceSize == 0 && outputSize == 0 && used < part.count {
                throw lift(fail(.frame, "liblz4 stopped consuming input inside a frame", at: partStart))
            }
        } while used < part.count || outputSize == scratch.count
        processedOffset = partStart + used
        return used
    }

    /// Checks the magic number at the start of a frame; returns whether it is a skippable frame.
    private func checkMagic(_ part: UnsafeRawBufferPointer, at offset: Int) throws(LZ4Error) -> Bool {
        let value = part.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if value == Self.legacyMagic {
            throw fail(
                .unsupportedFormat,
                "input is in the legacy LZ4 format (lz4 -l), which is not supported; recompress it without -l",
                at: offset
            )
        }
        if value & 0xFFFF_FFF0 == LZ4F_MAGIC_SKIPPABLE_START { return true }
        guard value == LZ4F_MAGICNUMBER else {
            throw fail(.notAFrame, "not an LZ4 frame (magic number 0x\(String(value, radix: 16, uppercase: true)))", at: offset)
        }
        return false
    }

    private func fail(_ code: LZ4Error.Code, _ message: String, at offset: Int) -> LZ4Error {
        let error = LZ4Error(code, message, inputOffset: offset)
        state = .failed(error)
        return error
    }

    private static func errorCode(_ name: String) -> LZ4Error.Code {
        switch name {
        case "ERROR_contentChecksum_invalid", "ERROR_blockChecksum_invalid": .checksumMismatch
        case "ERROR_decompressionFailed", "ERROR_headerChecksum_invalid": .corruptInput
        default: .frame
        }
    }

    private static func errorMessage(_ name: String) -> String {
        switch name {
        case "ERROR_contentChecksum_invalid": "content checksum does not match the decompressed data"
        case "ERROR_blockChecksum_invalid": "block checksum does not match the block"
        case "ERROR_decompressionFailed": "compressed block is corrupt"
        case "ERROR_headerChecksum_invalid": "frame header checksum does not match"
        case "ERROR_maxBlockSize_invalid": "frame header declares an invalid block size"
        case "ERROR_reservedFlag_set", "ERROR_headerVersion_wrong": "frame header has an unsupported version or flags"
        case "ERROR_frameSize_wrong": "content size differs from the size declared in the frame header"
        default: "invalid LZ4 frame (liblz4: \(name))"
        }
    }
}

@available(*, unavailable)
extension LZ4FrameDecompressor: Sendable {}
