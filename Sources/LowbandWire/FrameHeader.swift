import NIOCore

/// Flags of a frame header: the low four bits of its flags byte. The high four hold the id of
/// the wire dictionary a compressed payload was compressed with (``FrameHeader/dictionary``).
public struct FrameFlags: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The frame answers the request with the same sequence number.
    public static let response = FrameFlags(rawValue: 1 << 0)
    /// The response is an error reply (an ``ErrorReply`` payload); only with `.response`.
    public static let error = FrameFlags(rawValue: 1 << 1)
    /// The frame is a server push, not an answer to a request.
    public static let push = FrameFlags(rawValue: 1 << 2)
    /// The payload is an LZ4 block preceded by its uncompressed length.
    public static let compressed = FrameFlags(rawValue: 1 << 3)

    static let defined: FrameFlags = [.response, .error, .push, .compressed]

    /// Flag names, e.g. `["response", "compressed"]`.
    public var names: [String] {
        [(FrameFlags.response, "response"), (.error, "error"), (.push, "push"), (.compressed, "compressed")]
            .filter { contains($0.0) }.map(\.1)
    }

    public var description: String { names.isEmpty ? "request" : names.joined(separator: "|") }
}

/// The fixed 12-byte header in front of every frame (see docs/PROTOCOL.md).
///
/// ```
/// 0       1       2               4                               8                              12
/// +-------+-------+---------------+-------------------------------+-------------------------------+
/// |version|dic|flg|   command     |        sequence number        |    payload length on wire     |
/// +-------+-------+---------------+-------------------------------+-------------------------------+
/// ```
/// All integers are big-endian. When `.compressed` is set the payload starts with the
/// uncompressed length (UInt32) followed by one LZ4 block, compressed with the wire dictionary
/// whose id is in the high four bits of the flags byte (0: none).
public struct FrameHeader: Hashable, Sendable {
    /// The only protocol version this build speaks (``WireFormat/current``).
    public static let currentVersion: UInt8 = WireFormat.current.rawValue
    /// Bytes in the header.
    public static let size = 12

    /// The protocol version of the frame (``WireFormat``).
    public var version: UInt8
    /// The frame's flags, `.compressed` included.
    public var flags: FrameFlags
    /// The frame's command code.
    public var command: Command
    /// Links a response to its request; pushes carry the server's push counter.
    public var sequence: UInt32
    /// Bytes of payload that follow the header on the wire.
    public var payloadLength: UInt32
    /// The wire dictionary the compressed payload was compressed with (the flags byte's high four
    /// bits); nil for plain LZ4 or an uncompressed payload.
    public var dictionary: WireDictionary.ID?

    /// A header; the version defaults to this build's, the dictionary to none.
    public init(
        version: UInt8 = FrameHeader.currentVersion, flags: FrameFlags, command: Command, sequence: UInt32, payloadLength: UInt32,
        dictionary: WireDictionary.ID? = nil
    ) {
        self.version = version
        self.flags = flags
        self.command = command
        self.sequence = sequence
        self.payloadLength = payloadLength
        self.dictionary = dictionary
    }

    /// The flags byte: the flags in the low four bits, the dictionary's id in the high four.
    public var flagsByte: UInt8 {
        flags.rawValue | (dictionary.map { $0.rawValue << 4 } ?? 0)
    }

    /// Reads a header without consuming it; nil while fewer than 12 bytes are readable.
    static func peek(_ buffer: ByteBuffer) -> FrameHeader? {
        guard buffer.readableBytes >= size,
              let version = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self),
              let flags = buffer.getInteger(at: buffer.readerIndex + 1, as: UInt8.self),
              let command = buffer.getInteger(at: buffer.readerIndex + 2, as: UInt16.self),
              let sequence = buffer.getInteger(at: buffer.readerIndex + 4, as: UInt32.self),
              let length = buffer.getInteger(at: buffer.readerIndex + 8, as: UInt32.self)
        else { return nil }
        return FrameHeader(
            version: version, flags: FrameFlags(rawValue: flags & 0x0F), command: Command(rawValue: command), sequence: sequence,
            payloadLength: length, dictionary: WireDictionary.ID(rawValue: flags >> 4))
    }

    /// Writes the header over the 12 bytes at `index`, which must already be written.
    func set(in buffer: inout ByteBuffer, at index: Int) {
        buffer.setInteger(version, at: index)
        buffer.setInteger(flagsByte, at: index + 1)
        buffer.setInteger(command.rawValue, at: index + 2)
        buffer.setInteger(sequence, at: index + 4)
        buffer.setInteger(payloadLength, at: index + 8)
    }
}
