/// Writes MessagePack values into a byte array, always in the smallest encoding.
///
/// This is the low-level layer: the caller writes headers and values in order, so a map's
/// entries come out exactly in the order they are written. Integers pick the shortest of
/// fixint/int8…int64/uint8…uint64 (non-negative values use the unsigned forms, as msgpack-python
/// does); strings, binaries, extensions and containers pick the shortest length form. `Float` is
/// written as float32 and `Double` as float64: the writer never changes a float's precision.
///
/// The bytes are written through a pointer into storage the writer owns (copied first if
/// another writer shares it), and ``bytes`` hands them out as an array. The small writes are
/// `@inlinable`, so a hand-written encoder in another module (``MessagePackFastCodable``)
/// writes a field without a call.
///
/// Sendable as `Array` is: a writer copies its storage before writing whenever another writer
/// holds it too, so no storage is written while a second writer (on any thread) can read it.
/// `ManagedBuffer`, which the storage is, cannot say so itself.
public struct MessagePackWriter: @unchecked Sendable {
    @usableFromInline var storage: MessagePackWriterStorage

    /// An empty writer with room for `capacity` bytes.
    public init(reservingCapacity capacity: Int = 0) {
        storage = .make(capacity: capacity)
    }

    /// An empty writer sharing one storage with every other placeholder: what a writer is left
    /// as while its bytes are elsewhere. A write to it copies the storage first.
    static let placeholder = MessagePackWriter()

    /// The bytes written so far, copied into an array.
    public var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage.start, count: storage.fields.pointee.count))
    }

    /// How many bytes have been written.
    @inlinable public var count: Int { storage.fields.pointee.count }

    /// Removes the bytes written so far, keeping the capacity for reuse.
    public mutating func removeAll() {
        truncate(to: 0)
    }

    // MARK: The storage

    /// Room for `extra` bytes after the last one written; the caller fills them, then counts
    /// them with ``commit(_:)``.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        let fields = storage.fields
        if _slowPath(fields.pointee.capacity - fields.pointee.count < extra) || _slowPath(!isKnownUniquelyReferenced(&storage)) {
            makeRoom(for: extra)
        }
        return storage.start + storage.fields.pointee.count
    }

    /// Counts `written` bytes written into the room ``reserve(_:)`` gave.
    @inlinable @inline(__always)
    mutating func commit(_ written: Int) {
        storage.fields.pointee.count &+= written
    }

    /// A storage of this writer's own with room for `extra` more bytes, at least double the
    /// capacity when it grows.
    @usableFromInline @inline(never)
    mutating func makeRoom(for extra: Int) {
        let count = storage.fields.pointee.count
        let capacity = storage.fields.pointee.capacity
        let (needed, overflow) = count.addingReportingOverflow(extra)
        precondition(!overflow, "a MessagePack writer cannot hold \(count) + \(extra) bytes")
        let wanted = needed <= capacity ? capacity : Swift.max(needed, capacity <= Int.max / 2 ? capacity * 2 : needed)
        storage = storage.copy(minimumCapacity: wanted)
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        commit(1)
    }

    /// Appends a one-byte header and a big-endian field with one store each.
    @inlinable @inline(__always)
    mutating func append<T: FixedWidthInteger>(_ header: UInt8, bigEndian value: T) {
        let target = reserve(1 + MemoryLayout<T>.size)
        target.pointee = header
        UnsafeMutableRawPointer(target + 1).storeBytes(of: value.bigEndian, as: T.self)
        commit(1 + MemoryLayout<T>.size)
    }

    /// Appends a big-endian field.
    @inlinable @inline(__always)
    mutating func append<T: FixedWidthInteger>(bigEndian value: T) {
        UnsafeMutableRawPointer(reserve(MemoryLayout<T>.size)).storeBytes(of: value.bigEndian, as: T.self)
        commit(MemoryLayout<T>.size)
    }

    /// Appends the bytes at `raw`.
    @usableFromInline
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, !raw.isEmpty else { return }
        UnsafeMutableRawPointer(reserve(raw.count)).copyMemory(from: source, byteCount: raw.count)
        commit(raw.count)
    }

    /// Appends a sequence of bytes: at once when they are contiguous.
    @usableFromInline
    mutating func append<Bytes: Sequence>(contentsOf bytes: Bytes) where Bytes.Element == UInt8 {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if copied != nil { return }
        for byte in bytes { append(byte) }
    }

    /// Drops every byte from `offset` on.
    mutating func truncate(to offset: Int) {
        precondition(offset >= 0 && offset <= count, "offset \(offset) is outside the \(count) bytes written")
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(minimumCapacity: storage.fields.pointee.capacity) }
        storage.fields.pointee.count = offset
    }

    /// The byte at `offset`, which must have been written.
    subscript(offset: Int) -> UInt8 {
        get {
            precondition(offset >= 0 && offset < count, "offset \(offset) is outside the \(count) bytes written")
            return storage.start[offset]
        }
        set {
            precondition(offset >= 0 && offset < count, "offset \(offset) is outside the \(count) bytes written")
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(minimumCapacity: storage.fields.pointee.capacity) }
            storage.start[offset] = newValue
        }
    }

    /// Calls `body` with the written bytes, to change them in place (not their number).
    mutating func withUnsafeMutableWrittenBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(minimumCapacity: storage.fields.pointee.capacity) }
        return try body(UnsafeMutableBufferPointer(start: storage.start, count: count))
    }

    /// Inserts `inserted` at `offset`, moving what follows.
    mutating func insert(contentsOf inserted: [UInt8], at offset: Int) {
        precondition(offset >= 0 && offset <= count, "offset \(offset) is outside the \(count) bytes written")
        let tail = count - offset
        let target = reserve(inserted.count) - tail
        (target + inserted.count).update(from: target, count: tail)
        inserted.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: inserted.count) }
        commit(inserted.count)
    }

    // MARK: Values

    /// Writes nil.
    @inlinable
    public mutating func writeNil() {
        append(0xc0)
    }

    /// Writes a boolean.
    @inlinable
    public mutating func write(_ value: Bool) {
        append(value ? 0xc3 : 0xc2)
    }

    /// Writes an integer in its shortest form.
    @inlinable @inline(__always)
    public mutating func write(_ value: Int) {
        write(Int64(value))
    }

    /// Writes an integer in its shortest form (unsigned forms for non-negative values).
    @inlinable @inline(__always)
    public mutating func write(_ value: Int64) {
        if value >= 0 {
            write(UInt64(value))
        } else if value >= -32 {
            append(UInt8(bitPattern: Int8(value)))
        } else if value >= Int64(Int8.min) {
            append(0xd0, bigEndian: Int8(value))
        } else if value >= Int64(Int16.min) {
            append(0xd1, bigEndian: UInt16(truncatingIfNeeded: value))
        } else if value >= Int64(Int32.min) {
            append(0xd2, bigEndian: UInt32(truncatingIfNeeded: value))
        } else {
            append(0xd3, bigEndian: UInt64(bitPattern: value))
        }
    }

    /// Writes an unsigned integer in its shortest form.
    @inlinable @inline(__always)
    public mutating func write(_ value: UInt64) {
        if value <= 0x7f {
            append(UInt8(value))
        } else if value <= UInt64(UInt8.max) {
            append(0xcc, bigEndian: UInt8(value))
        } else if value <= UInt64(UInt16.max) {
            append(0xcd, bigEndian: UInt16(truncatingIfNeeded: value))
        } else if value <= UInt64(UInt32.max) {
            append(0xce, bigEndian: UInt32(truncatingIfNeeded: value))
        } else {
            append(0xcf, bigEndian: value)
        }
    }

    /// Writes a float32.
    @inlinable
    public mutating func write(_ value: Float) {
        append(0xca, bigEndian: value.bitPattern)
    }

    /// Writes a float64.
    @inlinable
    public mutating func write(_ value: Double) {
        append(0xcb, bigEndian: value.bitPattern)
    }

    /// Writes a str. Fails only for strings of 4 GiB or more.
    public mutating func write(_ value: String) throws(MessagePackError) {
        let utf8 = value.utf8
        let count = utf8.count
        guard count <= Int(UInt32.max) else { throw Self.tooLarge(count, what: "string") }
        // Borrows the string's own storage (no copy, no retain); only a bridged string has none.
        let written: Void? = utf8.withContiguousStorageIfAvailable { body in
            // A fixstr's header and bytes in one reservation: names, phone numbers, ids.
            if count <= 31 {
                let target = reserve(1 + count)
                target.pointee = 0xa0 | UInt8(count)
                if let source = body.baseAddress { (target + 1).update(from: source, count: count) }
                commit(1 + count)
            } else {
                writeLongStringHeader(count: count)
                append(UnsafeRawBufferPointer(body))
            }
        }
        if written != nil { return }
        try writeStringHeader(count: count)
        append(contentsOf: utf8)
    }

    /// Writes the header of a str whose `count` UTF-8 bytes the caller appends with ``writeRaw(_:)``.
    @inlinable
    public mutating func writeStringHeader(count: Int) throws(MessagePackError) {
        if count <= 31 {
            append(0xa0 | UInt8(count))
        } else {
            try writeLength(count, what: "string", forms: (0xd9, 0xda, 0xdb))
        }
    }

    /// A str header over 31 bytes, for a `count` already checked against 2^32 - 1.
    mutating func writeLongStringHeader(count: Int) {
        if count <= Int(UInt8.max) {
            append(0xd9, bigEndian: UInt8(count))
        } else if count <= Int(UInt16.max) {
            append(0xda, bigEndian: UInt16(count))
        } else {
            append(0xdb, bigEndian: UInt32(count))
        }
    }

    /// Writes a bin.
    public mutating func write<Bytes: Collection>(binary value: Bytes) throws(MessagePackError) where Bytes.Element == UInt8 {
        try writeBinaryHeader(count: value.count)
        append(contentsOf: value)
    }

    /// Writes the header of a bin whose `count` bytes the caller appends with ``writeRaw(_:)``.
    public mutating func writeBinaryHeader(count: Int) throws(MessagePackError) {
        try writeLength(count, what: "binary", forms: (0xc4, 0xc5, 0xc6))
    }

    /// Writes an array header; the caller then writes `count` values.
    @inlinable
    public mutating func writeArrayHeader(count: Int) throws(MessagePackError) {
        if count <= 15 {
            append(0x90 | UInt8(count))
        } else {
            try writeLength(count, what: "array", forms: (nil, 0xdc, 0xdd))
        }
    }

    /// Writes a map header; the caller then writes `count` key/value pairs, in the order wanted.
    @inlinable
    public mutating func writeMapHeader(count: Int) throws(MessagePackError) {
        if count <= 15 {
            append(0x80 | UInt8(count))
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
            append(fixed)
        } else {
            try writeLength(count, what: "extension", forms: (0xc7, 0xc8, 0xc9))
        }
        append(UInt8(bitPattern: type))
        append(contentsOf: data)
    }

    /// Writes a timestamp (extension -1) in the smallest of its 32-, 64- and 96-bit forms.
    public mutating func write(_ timestamp: MessagePackTimestamp) {
        switch timestamp.encodedDataLength {
        case 4:
            append(0xd6)
            append(0xff, bigEndian: UInt32(timestamp.seconds))
        case 8:
            append(0xd7)
            append(0xff, bigEndian: UInt64(timestamp.nanoseconds) << 34 | UInt64(timestamp.seconds))
        default:
            append(0xc7)
            append(12)
            append(0xff, bigEndian: timestamp.nanoseconds)
            append(bigEndian: timestamp.seconds)
        }
    }

    /// Appends bytes as they are (the body of a str or bin whose header was written).
    public mutating func writeRaw<Bytes: Sequence>(_ raw: Bytes) where Bytes.Element == UInt8 {
        append(contentsOf: raw)
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
            self[offset] = (isMap ? 0x80 : 0x90) | UInt8(count)
        } else if count <= Int(UInt16.max) {
            self[offset] = isMap ? 0xde : 0xdc
            insert(contentsOf: [UInt8(count >> 8), UInt8(truncatingIfNeeded: count)], at: offset + 1)
        } else if count <= Int(UInt32.max) {
            self[offset] = isMap ? 0xdf : 0xdd
            insert(contentsOf: (0 ..< 4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) }, at: offset + 1)
        } else {
            return false
        }
        return true
    }

    /// A length header in the smallest of `forms` (8-, 16- and 32-bit; no 8-bit form for
    /// containers).
    @usableFromInline
    mutating func writeLength(_ count: Int, what: String, forms: (UInt8?, UInt8, UInt8)) throws(MessagePackError) {
        if let form8 = forms.0, count <= Int(UInt8.max) {
            append(form8, bigEndian: UInt8(count))
        } else if count <= Int(UInt16.max) {
            append(forms.1, bigEndian: UInt16(count))
        } else if count <= Int(UInt32.max) {
            append(forms.2, bigEndian: UInt32(count))
        } else {
            throw Self.tooLarge(count, what: what)
        }
    }

    static func tooLarge(_ count: Int, what: String) -> MessagePackError {
        MessagePackError(.valueTooLarge, "\(what) of \(count) elements or bytes is over the MessagePack limit of 2^32 - 1")
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
