public import LowbandMessagePack

/// CBOR (RFC 8949) of a `MessagePackValue`: definite lengths and the shortest head for every
/// integer and length (§4.2.1's preferred serialization), as Python's `cbor2.dumps` writes them.
///
/// Floats are written as cbor2 writes a Python float by default, 64 bits (`0xfb`); a MessagePack
/// float32 keeps its 32 bits (`0xfa`). A MessagePack extension of type t (the timestamp is type
/// −1) is tag 65536 + (t as an unsigned byte), from the unassigned range, over its bytes, so
/// every value has one CBOR form and reads back the same.
public struct CBORWriter: Sendable {
    /// What has been written so far.
    public private(set) var bytes: [UInt8] = []

    /// The first tag number given to MessagePack extensions (type 0..127; negative types add 256).
    public static let extensionTagBase: UInt64 = 65_536

    /// An empty writer with room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `value` as one CBOR data item.
    public mutating func write(_ value: MessagePackValue) {
        switch value {
        case .nil: bytes.append(0xF6)
        case let .bool(flag): bytes.append(flag ? 0xF5 : 0xF4)
        case let .uint(number): head(0, number)
        case let .int(number): number >= 0 ? head(0, UInt64(number)) : head(1, UInt64(-1 - number))
        case let .double(number):
            bytes.append(0xFB)
            append(number.bitPattern, width: 8)
        case let .float(number):
            bytes.append(0xFA)
            append(UInt64(number.bitPattern), width: 4)
        case let .string(text):
            head(3, UInt64(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        case let .binary(data):
            head(2, UInt64(data.count))
            bytes.append(contentsOf: data)
        case let .array(elements):
            head(4, UInt64(elements.count))
            for element in elements { write(element) }
        case let .map(entries):
            head(5, UInt64(entries.count))
            for entry in entries {
                write(entry.key)
                write(entry.value)
            }
        case let .extension(type, data):
            head(6, Self.extensionTagBase + UInt64(UInt8(bitPattern: type)))
            head(2, UInt64(data.count))
            bytes.append(contentsOf: data)
        case let .timestamp(time):
            write(.extension(type: -1, data: time.extensionData))
        }
    }

    /// The initial byte of `major` with `argument` in its shortest form.
    private mutating func head(_ major: UInt8, _ argument: UInt64) {
        let type = major << 5
        switch argument {
        case 0 ..< 24: bytes.append(type | UInt8(argument))
        case 24 ... 0xFF: bytes.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100 ... 0xFFFF:
            bytes.append(type | 25)
            append(argument, width: 2)
        case 0x1_0000 ... 0xFFFF_FFFF:
            bytes.append(type | 26)
            append(argument, width: 4)
        default:
            bytes.append(type | 27)
            append(argument, width: 8)
        }
    }

    private mutating func append(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
