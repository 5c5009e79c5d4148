public import NIOCore
import LowbandLZ4

/// Writes frames: header, then the payload, LZ4-compressed when the policy says it pays.
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

    /// Appends the frame's bytes to `out`; fails if the payload is over the maximum.
    public func write(_ frame: Frame, to out: inout ByteBuffer) throws(WireError) {
        let payload = frame.payload
        guard payload.count <= configuration.maximumPayloadLength else {
            throw WireError(.frameTooLarge, "payload of \(payload.count) bytes exceeds the maximum of \(configuration.maximumPayloadLength)")
        }
        var flags = frame.flags.subtracting(.compressed)
        let headerIndex = out.writerIndex
        let policy = configuration.compression
        out.writeRepeatingByte(0, count: FrameHeader.size)
        var payloadLength = payload.count
        if payload.count >= policy.minimumSize, let compressed = Self.compress(payload, policy: policy, into: &out) {
            flags.insert(.compressed)
            payloadLength = compressed
        } else {
            out.writeBytes(payload)
        }
        let header = FrameHeader(flags: flags, command: frame.command, sequence: frame.sequence, payloadLength: UInt32(payloadLength))
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
    private static func compress(_ payload: [UInt8], policy: CompressionPolicy, into out: inout ByteBuffer) -> Int? {
        let start = out.writerIndex
        let bound = 4 + LZ4Block.compressBound(payload.count)
        var produced: Int?
        out.writeInteger(UInt32(payload.count))
        out.writeWithUnsafeMutableBytes(minimumWritableBytes: bound) { output in
            let size = payload.withUnsafeBytes { input in
                try? LZ4Block.compress(input, into: output, level: policy.level, dictionary: policy.dictionary)
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
