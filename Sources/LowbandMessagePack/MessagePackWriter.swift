/// Writes MessagePack values into a byte array, always in the smallest encoding.
///
/// This is the low-level layer: the caller writes headers and values in order, so a map's
/// entries come out exactly in the order they are written. Integers pick the shortest of
/// fixint/int8…int64/uint8…uint64 (non-negative values use the unsigned forms, as msgpack-python
/// does); strings, binaries, extensions and containers pick the shortest length form. `Float` is
/// written as float32 and `Double` as float64: the writer never changes a float's precision.
public struct MessagePackWriter: Sendable {
    /// The bytes written so far.
    public internal(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Removes the bytes written so far, keeping the capacity for reuse.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes nil.
    public mutating func writeNil() {
        bytes.append(0xc0)
    }

    /// Writes a boolean.
    public mutating func write(_ value: Bool) {
        bytes.append(value ? 0xc3 : 0xc2)
    }

    /// Writes an integer in its shortest form.
    public mutating func write(_ value: Int) {
        write(Int64(value))
    }

    /// Writes an integer in its shortest form (unsigned forms for non-negative values).
    public mutating func write(_ value: Int64) {
        if value >= 0 {
            write(UInt64(value))
        } else if value >= -32 {
            bytes.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int8.min) {
            bytes.append(0xd0)
            bytes.append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int16.min) {
            append(0xd1, bigEndian: UInt16(truncatingIfNeeded: value))
        } else if value >= Int64(Int32.min) {
            append(0xd2, bigEndian: UInt32(truncatingIfNeeded: value))
        } else {
            append(0xd3, bigEndian: UInt64(bitPattern: value))
        }
    }

    /// Writes an unsigned integer in its shortest form.
    public mutating func write(_ value: UInt64) {
        if value <= 0x7f {
            bytes.append(UInt8(value))
        } else if value <= UInt64(UInt8.max) {
            bytes.append(0xcc)
            bytes.append(UInt8(value))
        } else if value <= UInt64(UInt16.max) {
            append(0xcd, bigEndian: UInt16(truncatingIfNeeded: value))
        } else if value <= UInt64(UInt32.max) {
            append(0xce, bigEndian: UInt32(truncatingIfNeeded: value))
        } else {
            append(0xcf, bigEndian: value)
        }
    }

    /// Appends a one-byte header and a big-endian field with one append: a separate append
    /// for the header and one for the field (a `memcpy` call of 2–8 bytes) were a fifth of the
    /// fast path's encode of 500 contacts (callgrind, issue 39).
    @inline(__always)
    private mutating func append<T: FixedWidthInteger>(_ header: UInt8, bigEndian value: T) {
        var field: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &field) { raw in
            raw[0] = header
            raw.storeBytes(of: value.bigEndian, toByteOffset: 1, as: T.self)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0 ..< 1 + MemoryLayout<T>.size]))
        }
    }

    /// Writes a float32.
    public mutating func write(_ value: Float) {
        append(0xca, bigEndian: value.bitPattern)
    }

    /// Writes a float64.
    public mutating func write(_ value: Double) {
        append(0xcb, bigEndian: value.bitPattern)
    }

    /// Writes a str. Fails only for strings of 4 GiB or more.
    public mutating func write(_ value: String) throws(MessagePackError) {
        let utf8 = value.utf8
        let count = utf8.count
        // A fixstr's header and bytes in one append: names, phone numbers, ids, short texts.
        if count <= 31 {
            let written: Void? = utf8.withContiguousStorageIfAvailable { body in
                var field: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                withUnsafeMutableBytes(of: &field) { raw in
                    raw[0] = 0xa0 | UInt8(count)
                    if let source = body.baseAddress, let target = raw.baseAddress {
                        (target + 1).copyMemory(from: source, byteCount: count)
                    }
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0 ..< 1 + count]))
                }
            }
            if written != nil { return }
        }
        try writeStringHeader(count: count)
        // Borrows the string's own storage (no copy, no retain); only a bridged string has none.
        let copied: Void? = utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if copied == nil { bytes.append(contentsOf: utf8) }
    }

    /// Writes the header of a str whose `count` UTF-8 bytes the caller appends with ``writeRaw(_:)``.
    public mutating func writeStringHeader(count: Int) throws(MessagePackError) {
        if count <= 31 {
            bytes.append(0xa0 | UInt8(count))
        } else {
            try writeLength(count, what: "string", forms: (0xd9, 0xda, 0xdb))
        }
    }

    /// Writes a bin.
    public mutating func write<Bytes: Collection>(binary value: Bytes) throws(MessagePackError) where Bytes.Element == UInt8 {
        try writeBinaryHeader(count: value.count)
        bytes.append(contentsOf: value)
    }

    /// Writes the header of a bin whose `count` bytes the caller appends with ``writeRaw(_:)``.
    public mutating func writeBinaryHeader(count: Int) throws(MessagePackError) {
        try writeLength(count, what: "binary", forms: (0xc4, 0xc5, 0xc6))
    }

    /// Writes an array header; the caller then writes `count` values.
    public mutating func writeArrayHeader(count: Int) throws(MessagePackError) {
        if count <= 15 {
            bytes.append(0x90 | UInt8(count))
        } else {
            try writeLength(count, what: "array", forms: (nil, 0xdc, 0xdd))
        }
    }

    /// Writes a map header; the caller then writes `count` key/value pairs, in the order wanted.
    public mutating func writeMapHeader(count: Int) throws(MessagePackError) {
        if count <= 15 {
            bytes.append(0x80 | UInt8(count))
        } else {
            try writeLength(count, what: "map", forms: (nil, 0xde, 0xdf))
        }
    }

    /// Writes an extension value: fixext1/2/4/8/16 when the length allows, else ext8/16/32.
    public mutating func writeExtension<Bytes: Collection>(type: Int8, data: Bytes) throws(MessagePackError) where Bytes.Element == UInt8 {
        let count = data.count
        let fixed: UInt8? = switch count {
        case 1: 0xd4
        case 2: 0xd5
        case 4: 0xd6
        case 8: 0xd7
        case 16: 0xd8
        default: nil
        }
        if let fixed {
            bytes.append(fixed)
        } else {
            try writeLength(count, what: "extension", forms: (0xc7, 0xc8, 0xc9))
        }
        bytes.append(UInt8(bitPattern: type))
        bytes.append(contentsOf: data)
    }

    /// Writes a timestamp (extension -1) in the smallest of its 32-, 64- and 96-bit forms.
    public mutating func write(_ timestamp: MessagePackTimestamp) {
        switch timestamp.encodedDataLength {
        case 4:
            bytes.append(0xd6)
            bytes.append(0xff)
            appendBigEndian(UInt32(timestamp.seconds), to: &bytes)
        case 8:
            bytes.append(0xd7)
            bytes.append(0xff)
            appendBigEndian(UInt64(timestamp.nanoseconds) << 34 | UInt64(timestamp.seconds), to: &bytes)
        default:
            bytes.append(0xc7)
            bytes.append(12)
            bytes.append(0xff)
            appendBigEndian(timestamp.nanoseconds, to: &bytes)
            appendBigEndian(timestamp.seconds, to: &bytes)
        }
    }

    /// Appends bytes as they are (the body of a str or bin whose header was written).
    public mutating func writeRaw<Bytes: Sequence>(_ raw: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: raw)
    }

    /// Writes a whole value tree, map entries in their stored order.
    public mutating func write(_ value: MessagePackValue) throws(MessagePackError) {
        switch value {
        case .nil: writeNil()
        case let .bool(flag): write(flag)
        case let .int(number): write(number)
        case let .uint(number): write(number)
        case let .float(number): write(number)
        case let .double(number): write(number)
        case let .string(text): try write(text)
        case let .binary(data): try write(binary: data)
        case let .array(elements):
            try writeArrayHeader(count: elements.count)
            for element in elements { try write(element) }
        case let .map(entries):
            try writeMapHeader(count: entries.count)
            for entry in entries {
                try write(entry.key)
                try write(entry.value)
            }
        case let .extension(type, data):
            try writeExtension(type: type, data: data)
        case let .timestamp(timestamp):
            write(timestamp)
        }
    }

    /// Fills in the header of a container written with a one-byte placeholder at `offset`,
    /// widening it in place when `count` needs the 16- or 32-bit form. False past 2^32 - 1.
    mutating func patchContainerHeader(at offset: Int, count: Int, isMap: Bool) -> Bool {
        if count <= 15 {
            bytes[offset] = (isMap ? 0x80 : 0x90) | UInt8(count)
        } else if count <= Int(UInt16.max) {
            bytes[offset] = isMap ? 0xde : 0xdc
            bytes.insert(contentsOf: [UInt8(count >> 8), UInt8(truncatingIfNeeded: count)], at: offset + 1)
        } else if count <= Int(UInt32.max) {
            bytes[offset] = isMap ? 0xdf : 0xdd
            bytes.insert(contentsOf: (0 ..< 4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) }, at: offset + 1)
        } else {
            return false
        }
        return true
    }

    private mutating func writeLength(_ count: Int, what: String, forms: (UInt8?, UInt8, UInt8)) throws(MessagePackError) {
        if let form8 = forms.0, count <= Int(UInt8.max) {
            bytes.append(form8)
            bytes.append(UInt8(count))
        } else if count <= Int(UInt16.max) {
            bytes.append(forms.1)
            appendBigEndian(UInt16(count), to: &bytes)
        } else if count <= Int(UInt32.max) {
            bytes.append(forms.2)
            appendBigEndian(UInt32(count), to: &bytes)
        } else {
            throw MessagePackError(.valueTooLarge, "\(what) of \(count) elements or bytes is over the MessagePack limit of 2^32 - 1")
        }
    }
}

extension MessagePackValue {
    /// The value's MessagePack bytes.
    public func encoded() throws(MessagePackError) -> [UInt8] {
        var writer = MessagePackWriter()
        try writer.write(self)
        return writer.bytes
    }
}
