public import NIOCore
import LowbandLZ4

/// Turns a byte stream into frames, checking every header field before trusting it.
///
/// Channel-free (`NIOSingleStepByteToMessageDecoder`), so it runs the same in a pipeline, in
/// `NIOSingleStepByteToMessageProcessor` and in tests. A length over the maximum is rejected
/// from the header alone, before the payload arrives or anything is allocated; a compressed
/// payload's declared size is checked before the output buffer is allocated. Every error is a
/// ``WireError`` naming the stream offset of the frame at fault.
public struct FrameDecoder: NIOSingleStepByteToMessageDecoder {
    public typealias InboundOut = Frame

    /// The limits the decoder checks.
    public let configuration: FrameConfiguration
    /// Bytes of complete frames consumed so far: the stream offset of the next frame.
    public private(set) var streamOffset = 0

    /// A decoder at stream offset 0.
    public init(configuration: FrameConfiguration = FrameConfiguration()) {
        self.configuration = configuration
    }

    public mutating func decode(buffer: inout ByteBuffer) throws -> Frame? {
        try nextFrame(from: &buffer)?.frame
    }

    public mutating func decodeLast(buffer: inout ByteBuffer, seenEOF: Bool) throws -> Frame? {
        if let frame = try decode(buffer: &buffer) { return frame }
        guard buffer.readableBytes == 0 else {
            throw truncation(buffer)
        }
        return nil
    }

    /// The next complete frame and its wire header, or nil until enough bytes are buffered.
    public mutating func nextFrame(from buffer: inout ByteBuffer) throws(WireError) -> (header: FrameHeader, frame: Frame)? {
        guard let header = FrameHeader.peek(buffer) else { return nil }
        try validate(header)
        let length = Int(header.payloadLength)
        guard buffer.readableBytes >= FrameHeader.size + length else { return nil }
        buffer.moveReaderIndex(forwardBy: FrameHeader.size)
        var payload = buffer.readSlice(length: length)!
        let bytes = header.flags.contains(.compressed)
            ? try decompress(&payload, header: header)
            : payload.readBytes(length: length)!
        streamOffset += FrameHeader.size + length
        let frame = Frame(
            flags: header.flags.subtracting(.compressed), command: header.command, sequence: header.sequence, payload: bytes,
            compressionDictionary: header.dictionary)
        return (header, frame)
    }

    /// The error for a stream that ended with `buffer`'s bytes as an incomplete frame.
    public func truncation(_ buffer: ByteBuffer) -> WireError {
        let have = buffer.readableBytes
        if let header = FrameHeader.peek(buffer) {
            let need = FrameHeader.size + Int(header.payloadLength)
            return WireError(.truncatedStream, "stream ended inside a \(header.command) frame: it needs \(need) bytes, \(have) arrived", streamOffset: streamOffset)
        }
        return WireError(.truncatedStream, "stream ended inside a frame header: \(have) of \(FrameHeader.size) bytes arrived", streamOffset: streamOffset)
    }

    private func validate(_ header: FrameHeader) throws(WireError) {
        let versions = configuration.acceptedVersions
        guard versions.contains(header.version) else {
            let accepted = versions.count == 1 ? "version \(versions.lowerBound)" : "versions \(versions.lowerBound) to \(versions.upperBound)"
            throw WireError(.unsupportedVersion, "wire version \(header.version) is not supported: this build reads only \(accepted)", streamOffset: streamOffset, header: header)
        }
        let flags = header.flags
        guard flags.isSubset(of: FrameFlags.defined) else {
            throw WireError(.invalidFlags, "reserved flag bits are set (flags byte 0x\(String(flags.rawValue, radix: 16)))", streamOffset: streamOffset)
        }
        if let dictionary = header.dictionary {
            guard flags.contains(.compressed) else {
                throw WireError(.invalidFlags, "the flags byte 0x\(String(header.flagsByte, radix: 16)) names wire dictionary \(dictionary) but the payload is not compressed: only a compressed payload names a dictionary", streamOffset: streamOffset, header: header)
            }
            guard configuration.compression.dictionary(dictionary) != nil else {
                throw WireError(.unknownDictionary, "a \(header.command) frame is compressed with wire dictionary \(dictionary), which this peer does not have (it has \(configuration.compression.dictionaryList)): a peer compresses only with the dictionary agreed at login", streamOffset: streamOffset, header: header)
            }
        }
        if flags.contains(.push) && flags.contains(.response) {
            throw WireError(.invalidFlags, "a frame cannot be both a push and a response", streamOffset: streamOffset)
        }
        if flags.contains(.error) && !flags.contains(.response) {
            throw WireError(.invalidFlags, "the error flag is only valid on a response", streamOffset: streamOffset)
        }
        guard configuration.knownCommands.contains(header.command) else {
            throw WireError(.unknownCommand, "unknown command \(header.command)", streamOffset: streamOffset)
        }
        if header.command.isPush != flags.contains(.push) {
            throw WireError(.invalidFlags, "command \(header.command) \(header.command.isPush ? "is a push but lacks" : "is not a push but has") the push flag", streamOffset: streamOffset)
        }
        guard header.payloadLength <= configuration.maximumPayloadLength else {
            throw WireError(.frameTooLarge, "payload of \(header.payloadLength) bytes exceeds the maximum of \(configuration.maximumPayloadLength)", streamOffset: streamOffset)
        }
    }

    private func decompress(_ payload: inout ByteBuffer, header: FrameHeader) throws(WireError) -> [UInt8] {
        guard let declared = payload.readInteger(as: UInt32.self) else {
            throw WireError(.decompressionFailed, "compressed payload of \(header.payloadLength) bytes is too short to hold its uncompressed length", streamOffset: streamOffset)
        }
        guard declared <= configuration.maximumPayloadLength else {
            throw WireError(.decompressedTooLarge, "compressed payload declares \(declared) uncompressed bytes, over the maximum of \(configuration.maximumPayloadLength)", streamOffset: streamOffset)
        }
        let dictionary = header.dictionary.flatMap { configuration.compression.dictionary($0)?.dictionary } ?? configuration.compression.dictionary
        let offset = streamOffset
        do {
            return try payload.withUnsafeReadableBytes { (compressed) throws(LZ4Error) -> [UInt8] in
                try [UInt8](unsafeUninitializedCapacity: Int(declared)) { (output, count) throws(LZ4Error) in
                    let produced = try LZ4Block.decompress(compressed, into: UnsafeMutableRawBufferPointer(output), dictionary: dictionary)
                    guard produced == Int(declared) else {
                        throw LZ4Error(.sizeMismatch, "decompressed to \(produced) bytes, not the declared \(declared)")
                    }
                    count = produced
                }
            }
        } catch {
            throw WireError(.decompressionFailed, "compressed payload does not decompress to its declared \(declared) bytes: \(error.message)", streamOffset: offset)
        }
    }
}
