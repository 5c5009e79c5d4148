/// The keys of one map and where each value starts.
///
/// Keys stay in the input as byte ranges (an integer key keeps its value): a lookup compares
/// the wanted key's UTF-8 with them in place, starting at the entry the previous lookup
/// matched, so decoding a struct builds no key strings. Building the index checks the whole
/// map (key kinds, UTF-8, truncation) and finds where it ends. A decoder keeps its index
/// between values, so the entry storage is allocated once per nesting depth, not per map.
struct MapIndex {
    struct Entry {
        /// Where the str key's UTF-8 bytes start in the input.
        var keyStart: Int
        var keyCount: Int
        /// 0 for a str key, 1 for a signed integer key, 2 for a uint64 key above Int64.max.
        var integerKind: UInt8
        var integerBits: UInt64
        /// Where the entry's value starts.
        var offset: Int
        /// Length and first and last byte of the key, to rule out most mismatches at once.
        var signature: Int
    }

    private(set) var entries: [Entry] = []
    /// Where the map ends in the input.
    private(set) var end = 0
    /// For large maps: each key's text and its first entry.
    private var hashed: [String: Int]?
    /// Whether a key occurs twice; lookups then always start at the first entry (the first wins).
    private var hasDuplicates = false
    /// The entry the last lookup matched: synthesized conformances look keys up in declaration
    /// order, which is the order they were encoded in, so the next key is near.
    var hint = 0

    /// Indexes the map at `offset`; errors carry their byte offset, not yet a coding path.
    mutating func build(reader: inout MessagePackReader, input: UnsafeBufferPointer<UInt8>, offset: Int) throws(MessagePackError) {
        entries.removeAll(keepingCapacity: true)
        hashed = nil
        hasDuplicates = false
        hint = 0
        reader.offset = offset
        let count = try reader.readMapHeader()
        entries.reserveCapacity(count)
        for _ in 0 ..< count {
            let keyOffset = reader.offset
            switch try reader.peekKind() {
            case .string:
                let range = try reader.readStringRange()
                let utf8 = UnsafeBufferPointer(rebasing: input[range])
                if !utf8.allSatisfy({ $0 < 0x80 }) {
                    let end = reader.offset
                    reader.offset = keyOffset
                    _ = try reader.readString()
                    reader.offset = end
                }
                entries.append(Entry(keyStart: range.lowerBound, keyCount: range.count, integerKind: 0, integerBits: 0, offset: 0, signature: Self.signature(utf8)))
            case .int:
                // A uint64 key may exceed Int64.max; it is still a key (of fields no type has).
                let entry = if reader.bytes[reader.offset] == 0xcf {
                    Entry(keyStart: 0, keyCount: 0, integerKind: 2, integerBits: try reader.readUInt64(), offset: 0, signature: 0)
                } else {
                    Entry(keyStart: 0, keyCount: 0, integerKind: 1, integerBits: UInt64(bitPattern: try reader.readInt64()), offset: 0, signature: 0)
                }
                entries.append(entry)
                var text = integerText(entries.count - 1)
                entries[entries.count - 1].signature = text.withUTF8(Self.signature)
            case let kind:
                throw MessagePackError(.unsupportedKey, "map key is \(kind.rawValue); only string and integer keys decode into Codable types", offset: keyOffset)
            }
            entries[entries.count - 1].offset = reader.offset
            try reader.skipValue()
        }
        end = reader.offset
        if entries.count > 12 {
            hashed = Dictionary(entries.indices.map { (keyText($0, in: input), $0) }, uniquingKeysWith: { first, _ in first })
        } else {
            hasDuplicates = findDuplicates(in: input)
        }
    }

    /// The decimal text of integer key `index`.
    private func integerText(_ index: Int) -> String {
        let entry = entries[index]
        return entry.integerKind == 2 ? String(entry.integerBits) : String(Int64(bitPattern: entry.integerBits))
    }

    /// The text of the key of entry `index`.
    func keyText(_ index: Int, in input: UnsafeBufferPointer<UInt8>) -> String {
        let entry = entries[index]
        if entry.integerKind != 0 { return integerText(index) }
        return String(decoding: UnsafeBufferPointer(rebasing: input[entry.keyStart ..< entry.keyStart + entry.keyCount]), as: UTF8.self)
    }

    func isInteger(_ index: Int) -> Bool {
        entries[index].integerKind != 0
    }

    /// The entry whose key is `key` (the first, if the key repeats), searching from the hint on.
    mutating func entryIndex(of key: String, in input: UnsafeBufferPointer<UInt8>) -> Int? {
        let found: Int?
        if let hashed {
            found = hashed[key]
        } else {
            found = key.utf8.withContiguousStorageIfAvailable { search($0, in: input) }
                ?? Array(key.utf8).withUnsafeBufferPointer { search($0, in: input) }
        }
        if let found { hint = found }
        return found
    }

    private func search(_ utf8: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = entries.count
        guard count > 0 else { return nil }
        let signature = Self.signature(utf8)
        var index = hasDuplicates || hint >= count ? 0 : hint
        for _ in 0 ..< count {
            if entries[index].signature == signature, matches(index, utf8, in: bytes) { return index }
            index = index + 1 == count ? 0 : index + 1
        }
        return nil
    }

    private func matches(_ index: Int, _ utf8: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        if entry.integerKind != 0 { return integerText(index).utf8.elementsEqual(utf8) }
        guard entry.keyCount == utf8.count else { return false }
        return UnsafeBufferPointer(rebasing: bytes[entry.keyStart ..< entry.keyStart + entry.keyCount]).elementsEqual(utf8)
    }

    private func findDuplicates(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for later in entries.indices {
            for earlier in 0 ..< later where entries[earlier].signature == entries[later].signature {
                let entry = entries[later]
                let matched = if entry.integerKind != 0 {
                    Array(integerText(later).utf8).withUnsafeBufferPointer { matches(earlier, $0, in: bytes) }
                } else {
                    matches(earlier, UnsafeBufferPointer(rebasing: bytes[entry.keyStart ..< entry.keyStart + entry.keyCount]), in: bytes)
                }
                if matched { return true }
            }
        }
        return false
    }

    private static func signature(_ utf8: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = utf8.first, let last = utf8.last else { return 0 }
        return utf8.count << 16 | Int(first) << 8 | Int(last)
    }
}
