public import NIOCore
import LowbandLZ4

/// Writes frames: header, then the payload, LZ4-compressed when the policy says it pays — with
/// the wire dictionary the frame names (``Frame/compressionDictionary``), when it names one.
public struct FrameEncoder: MessageToByteEncoder, Sendable {
    /// The encoder takes frames.
    public typealias OutboundIn = Frame

    /// The compression policy and limits the encoder applies.
    public let configuration: FrameConfiguration

    /// An encoder with `configuration`.
    public init(configuration: FrameConfiguration = FrameConfiguration()) {
        self.configuration = configuration
    }

    public func encode(data frame: Frame, out: inout ByteBuffer) throws {
        try write(frame, to: &out)
    }

    /// Appends the frame's bytes to `out`; fails if the payload is over the maximum or the frame
    /// names a wire dictionary the configuration does not have.
    public func write(_ frame: Frame, to out: inout ByteBuffer) throws(WireError) {
        let payload = frame.payload
        guard payload.count <= configuration.maximumPayloadLength else {
            throw WireError(.frameTooLarge, "payload of \(payload.count) bytes exceeds the maximum of \(configuration.maximumPayloadLength)")
        }
        let policy = configuration.compression
        var wire: WireDictionary?
        if let id = frame.compressionDictionary {
            guard let found = policy.dictionary(id) else {
                throw WireError(.unknownDictionary, "a \(frame.command) frame asks for wire dictionary \(id), which this encoder does not have (it has \(policy.dictionaryList)): compress only with a dictionary of FrameConfiguration.compression.dictionaries")
            }
            wire = found
        }
        var flags = frame.flags.subtracting(.compressed)
        let headerIndex = out.writerIndex
        out.writeRepeatingByte(0, count: FrameHeader.size)
        var payloadLength = payload.count
        var named: WireDictionary.ID?
        let minimum = wire == nil ? policy.minimumSize : policy.dictionaryMinimumSize
        let dictionary = wire?.dictionary ?? policy.dictionary
        if payload.count >= minimum, let compressed = Self.compress(payload, level: policy.level, dictionary: dictionary, into: &out) {
            flags.insert(.compressed)
            payloadLength = compressed
            named = wire?.id
        } else {
            out.writeBytes(payload)
        }
        let header = FrameHeader(
            flags: flags, command: frame.command, sequence: frame.sequence, payloadLength: UInt32(payloadLength), dictionary: named)
        header.set(in: &out, at: headerIndex)
    }

    /// The frame's bytes in a new buffer.
    public func bytes(of frame: Frame) throws(WireError) -> ByteBuffer {
        var out = ByteBuffer()
        try write(frame, to: &out)
        return out
    }

    /// Writes length prefix + LZ4 block and returns its size, or writes nothing and returns nil
    /// when compression would not make the payload smaller.
    private static func compress(_ payload: [UInt8], level: LZ4Level, dictionary: LZ4Dictionary?, into out: inout ByteBuffer) -> Int? {
        let start = out.writerIndex
        let bound = 4 + LZ4Block.compressBound(payload.count)
        var produced: Int?
        out.writeInteger(UInt32(payload.count))
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { output in
            let size = payload.withUnsafeBytes { input in
                try? LZ4Block.compress(input, into: output, level: level, dictionary: dictionary)
            }
            produced = size
            return size ?? 0
        }
        guard let produced, 4 + produced < payload.count else {
            out.moveWriterIndex(to: start)
            return nil
        }
        return 4 + produced
    }
}
