/// Protocol Buffers' wire format at its smallest: varints, fixed widths and length-delimited
/// fields, written and read (https://protobuf.dev/programming-guides/encoding/).
enum ProtoWire {
    static let varint: UInt64 = 0
    static let fixed64: UInt64 = 1
    static let lengthDelimited: UInt64 = 2
    static let fixed32: UInt64 = 5

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func appendTag(_ number: Int, _ wireType: UInt64, to bytes: inout [UInt8]) {
        appendVarint(UInt64(number) << 3 | wireType, to: &bytes)
    }

    static func appendFixed(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
        for shift in 0 ..< width { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift * 8))) }
    }

    /// One field as read: its number, wire type, and its value (a varint or fixed value, or the
    /// bytes of a length-delimited field).
    struct Field {
        var number: Int
        var wireType: UInt64
        var integer: UInt64
        var bytes: ArraySlice<UInt8>
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads fields one after another from `bytes`.
    struct Reader {
        let bytes: ArraySlice<UInt8>
        var offset: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            offset = bytes.startIndex
        }

        var isAtEnd: Bool { offset >= bytes.endIndex }

        mutating func next() throws(Failure) -> Field? {
            guard !isAtEnd else { return nil }
            let key = try varint()
            let number = Int(key >> 3)
            guard number > 0 else { throw Failure(description: "protobuf: field number 0 at byte \(offset)") }
            switch key & 7 {
            case ProtoWire.varint: return Field(number: number, wireType: ProtoWire.varint, integer: try varint(), bytes: [])
            case ProtoWire.fixed64: return Field(number: number, wireType: ProtoWire.fixed64, integer: try fixed(8), bytes: [])
            case ProtoWire.fixed32: return Field(number: number, wireType: ProtoWire.fixed32, integer: try fixed(4), bytes: [])
            case ProtoWire.lengthDelimited:
                let length = try varint()
                guard length <= UInt64(bytes.endIndex - offset) else { throw Failure(description: "protobuf: field \(number) runs past the end") }
                defer { offset += Int(length) }
                return Field(number: number, wireType: ProtoWire.lengthDelimited, integer: length, bytes: bytes[offset ..< offset + Int(length)])
            default: throw Failure(description: "protobuf: wire type \(key & 7) is not taken (field \(number))")
            }
        }

        mutating func varint() throws(Failure) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard offset < bytes.endIndex, shift < 64 else { throw Failure(description: "protobuf: a varint runs past the end") }
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        mutating func fixed(_ width: Int) throws(Failure) -> UInt64 {
            guard bytes.endIndex - offset >= width else { throw Failure(description: "protobuf: a fixed field runs past the end") }
            var value: UInt64 = 0
            for index in 0 ..< width { value |= UInt64(bytes[offset + index]) << UInt64(index * 8) }
            offset += width
            return value
        }
    }
}
