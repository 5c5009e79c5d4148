/// Decodes `Decodable` values from MessagePack, working on the bytes directly.
///
/// No intermediate tree is built: a keyed container indexes its map's keys to value offsets
/// once (with a hash index for large maps, so lookups stay O(1) and decoding stays linear) and
/// each value is read in place. Errors are ``MessagePackError`` values that name the coding
/// path and the byte offset, e.g. `integer 300 does not fit UInt8 at chats[2].unread (byte
/// offset 812)`. Map keys may be strings or integers; with duplicate keys the first one wins.
public struct MessagePackDecoder: Sendable {
    /// Maximum nesting of containers before decoding fails with `.depthLimitExceeded`.
    public var maxDepth: Int
    /// Handed to every value's `init(from:)` as `decoder.userInfo`, e.g. to choose a layout.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder; nesting is limited to `MessagePackLimits.defaultMaxDepth` unless given.
    public init(maxDepth: Int = MessagePackLimits.defaultMaxDepth, userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.maxDepth = maxDepth
        self.userInfo = userInfo
    }

    /// Decodes one value that must fill `bytes` exactly.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        var reader = MessagePackReader(bytes)
        let value = try decode(type, from: &reader)
        guard reader.isAtEnd else {
            throw MessagePackError(.trailingBytes, "\(reader.remaining) byte(s) follow the value", offset: reader.offset)
        }
        return value
    }

    /// Decodes the next value from `reader` and moves the reader past it.
    public func decode<T: Decodable>(_: T.Type, from reader: inout MessagePackReader) throws -> T {
        let storage = DecodingStorage.make(bytes: reader.bytes, maxDepth: maxDepth, userInfo: CodingTypes.userInfo(userInfo))
        defer { storage.state.pointee.spare.removeAll() }
        let start = reader.offset
        var end: Int?
        let value = try storage.decodeValue(T.self, at: start, depth: 0, parent: nil, key: .none, end: &end)
        if let end {
            reader.seek(to: end)
        } else {
            reader.seek(to: start)
            try reader.skipValue()
        }
        return value
    }
}

/// What every decoder of one input shares: one reader, moved to each value it reads, so no
/// read copies (retains) the input array.
struct DecodingState {
    var reader: MessagePackReader
    let maxDepth: Int
    /// A copy of the input's bytes for key lookups, made by the first keyed container and
    /// freed with the storage. Positional values (wire format v2) never need one: copying the
    /// input on every decode was a malloc, a copy and a free per value decoded (callgrind,
    /// issue 39).
    private var inputCopy: UnsafeBufferPointer<UInt8>?
    /// One reusable decoder per depth, taken again when nothing else holds it.
    var spare: [ValueDecoder] = []
    /// The decoder's `userInfo`, handed to every value's `init(from:)`.
    let userInfo: [CodingUserInfoKey: Any]

    init(reader: MessagePackReader, maxDepth: Int, userInfo: [CodingUserInfoKey: Any]) {
        self.reader = reader
        self.maxDepth = maxDepth
        self.userInfo = userInfo
    }

    /// The input's bytes, which key lookups compare against without touching the array.
    var input: UnsafeBufferPointer<UInt8> {
        mutating get {
            if let inputCopy { return inputCopy }
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: reader.bytes.count)
            _ = copy.initialize(from: reader.bytes)
            inputCopy = UnsafeBufferPointer(copy)
            return UnsafeBufferPointer(copy)
        }
    }

    /// Frees the copy of the input, if one was made.
    mutating func freeInput() {
        inputCopy?.deallocate()
        inputCopy = nil
    }

    /// Runs `body` on the shared reader placed at `offset`.
    @inline(__always)
    mutating func read<T>(at offset: Int, _ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws(MessagePackError) -> T {
        reader.offset = offset
        return try body(&reader)
    }
}

/// Owns the shared state, the header of a `ManagedBuffer` so that it lives in the object
/// itself; decoders and containers reach it through a pointer, so no access pays for the
/// dynamic exclusivity checks of class properties.
final class DecodingStorage: ManagedBuffer<DecodingState, Void> {
    /// Storage for one input (`ManagedBuffer` subclasses are made by `create`, not `init`).
    static func make(bytes: [UInt8], maxDepth: Int, userInfo: [CodingUserInfoKey: Any]) -> DecodingStorage {
        let buffer = create(minimumCapacity: 0) { _ in
            DecodingState(reader: MessagePackReader(bytes), maxDepth: maxDepth, userInfo: userInfo)
        }
        let storage = unsafeDowncast(buffer, to: DecodingStorage.self)
        storage.state.pointee.spare.reserveCapacity(8)
        return storage
    }

    deinit {
        state.pointee.freeInput()
    }

    @inline(__always)
    var state: UnsafeMutablePointer<DecodingState> { withUnsafeMutablePointerToHeader { $0 } }

    /// A copy of the input that key lookups compare against without touching the array.
    @inline(__always)
    var input: UnsafeBufferPointer<UInt8> { state.pointee.input }

    /// Runs `body` on the shared reader placed at `offset`.
    @inline(__always)
    func read<T>(at offset: Int, _ body: (inout MessagePackReader) throws(MessagePackError) -> T) throws(MessagePackError) -> T {
        state.pointee.reader.offset = offset
        return try body(&state.pointee.reader)
    }

    /// Decodes the value at `offset`, whose coding path is `parent`'s plus `key`, and sets `end`
    /// to where it ends when decoding found out; nil means the caller must skip the value.
    func decodeValue<T: Decodable>(
        _: T.Type, at offset: Int, depth: Int, parent: ValueDecoder?, key: PathKey, end: inout Int?
    ) throws -> T {
        if let form = DirectForm(of: T.self) {
            do {
                state.pointee.reader.offset = offset
                let value = try readDirect(T.self, form: form, depth: depth, parent: parent, key: key)
                end = state.pointee.reader.offset
                return value
            } catch {
                throw error.at(ValueDecoder.path(parent, key))
            }
        }
        let decoder = makeDecoder(offset: offset, depth: depth, parent: parent, key: key)
        let value = try T(from: decoder)
        end = decoder.end
        return value
    }

    private func makeDecoder(offset: Int, depth: Int, parent: ValueDecoder?, key: PathKey) -> ValueDecoder {
        if depth < state.pointee.spare.count {
            if isKnownUniquelyReferenced(&state.pointee.spare[depth]) {
                let decoder = state.pointee.spare[depth]
                decoder.reset(offset: offset, parent: parent, key: key)
                return decoder
            }
            let decoder = ValueDecoder.make(storage: self, offset: offset, depth: depth, parent: parent, key: key)
            state.pointee.spare[depth] = decoder
            return decoder
        }
        let decoder = ValueDecoder.make(storage: self, offset: offset, depth: depth, parent: parent, key: key)
        if depth == state.pointee.spare.count { state.pointee.spare.append(decoder) }
        return decoder
    }
}

/// The coding-path entry of a value: the key or index it sits at (in the encoder, of the entry
/// an open container is writing).
enum PathKey {
    case none
    case index(Int)
    case key(any CodingKey)
}

extension MessagePackError {
    /// The same error with the coding path filled in, if it has none yet.
    func at(_ path: @autoclosure () -> [any CodingKey]) -> MessagePackError {
        guard self.path == nil else { return self }
        var copy = self
        copy.path = path().render()
        return copy
    }
}

extension [any CodingKey] {
    /// `chats[3].title`: keys joined by dots, array indices in brackets.
    func render() -> String {
        var text = ""
        for key in self {
            if key is IndexKey, let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "the top-level value" : text
    }
}

/// A decoder positioned at one value of the input.
///
/// Its coding path is its parent's plus its key, built only when asked for (errors and
/// `codingPath`): decoding that succeeds builds no path arrays. Its state is the header of a
/// `ManagedBuffer`, in the object itself (one allocation per decoder, not two), and is reached
/// through a pointer, so reading it costs no exclusivity checks.
final class ValueDecoder: ManagedBuffer<ValueDecoder.State, Void>, Decoder {
    struct State {
        /// Keeps the storage alive for as long as the decoder is.
        let owner: DecodingStorage
        /// The same storage, used without retaining it: `owner` guarantees its lifetime.
        let storageRef: Unmanaged<DecodingStorage>
        /// The storage's state, which `owner` keeps allocated.
        let shared: UnsafeMutablePointer<DecodingState>
        /// Containers entered above this value (its coding path's length).
        let depth: Int
        var offset: Int
        var parent: ValueDecoder?
        var key: PathKey
        /// Where the value ends, once a container has found out.
        var end: Int?
        /// The index of the value's map, once a keyed container asked for it.
        var map = MapIndex()
        var hasMap = false
        /// The element count of the value's array, once an unkeyed container read it.
        var arrayCount = 0

        init(storage: DecodingStorage, depth: Int, offset: Int, parent: ValueDecoder?, key: PathKey) {
            owner = storage
            storageRef = .passUnretained(storage)
            shared = storage.state
            self.depth = depth
            self.offset = offset
            self.parent = parent
            self.key = key
        }
    }

    /// A decoder of its own (`ManagedBuffer` subclasses are made by `create`, not `init`).
    static func make(storage: DecodingStorage, offset: Int, depth: Int, parent: ValueDecoder?, key: PathKey) -> ValueDecoder {
        let buffer = create(minimumCapacity: 0) { _ in State(storage: storage, depth: depth, offset: offset, parent: parent, key: key) }
        return unsafeDowncast(buffer, to: ValueDecoder.self)
    }

    @inline(__always)
    var state: UnsafeMutablePointer<State> { withUnsafeMutablePointerToHeader { $0 } }
    var storage: DecodingStorage { state.pointee.owner }
    /// What every decoder of this input shares.
    @inline(__always)
    var shared: UnsafeMutablePointer<DecodingState> { state.pointee.shared }

    /// Runs `body` on the storage without retaining it.
    @inline(__always)
    func withStorage<R>(_ body: (DecodingStorage) throws -> R) rethrows -> R {
        try state.pointee.storageRef._withUnsafeGuaranteedRef(body)
    }
    @inline(__always)
    var depth: Int { state.pointee.depth }
    var userInfo: [CodingUserInfoKey: Any] { shared.pointee.userInfo }

    func reset(offset: Int, parent: ValueDecoder?, key: PathKey) {
        state.pointee.offset = offset
        state.pointee.parent = parent
        state.pointee.key = key
        state.pointee.end = nil
        state.pointee.hasMap = false
        state.pointee.arrayCount = 0
    }

    var offset: Int { state.pointee.offset }
    var end: Int? { state.pointee.end }
    var codingPath: [any CodingKey] { Self.path(state.pointee.parent, state.pointee.key) }

    /// The path of a value at `key` in `parent`.
    static func path(_ parent: ValueDecoder?, _ key: PathKey) -> [any CodingKey] {
        var keys: [PathKey] = [key]
        var next = parent
        while let decoder = next {
            keys.append(decoder.state.pointee.key)
            next = decoder.state.pointee.parent
        }
        return keys.reversed().compactMap { key in
            switch key {
            case .none: nil
            case let .index(index): IndexKey(index)
            case let .key(key): key
            }
        }
    }

    func checkedDepth() throws -> Int {
        guard depth < shared.pointee.maxDepth else {
            let limit = shared.pointee.maxDepth
            throw MessagePackError(.depthLimitExceeded, "containers nest deeper than the limit of \(limit)", offset: offset, path: codingPath.render())
        }
        return depth + 1
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if !state.pointee.hasMap {
            do {
                let input = shared.pointee.input
                try state.pointee.map.build(reader: &shared.pointee.reader, input: input, offset: offset)
            } catch {
                throw error.at(codingPath)
            }
            state.pointee.hasMap = true
            state.pointee.end = state.pointee.map.end
        }
        _ = try checkedDepth()
        return KeyedDecodingContainer(KeyedValueContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let start: Int
        do {
            shared.pointee.reader.offset = offset
            state.pointee.arrayCount = try shared.pointee.reader.readArrayHeader()
            start = shared.pointee.reader.offset
        } catch {
            throw error.at(codingPath)
        }
        _ = try checkedDepth()
        if state.pointee.arrayCount == 0 { state.pointee.end = start }
        return UnkeyedValueContainer(decoder: self, position: start)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(decoder: self)
    }

    /// A decoder for a nested container, kept out of the reuse pool (its caller may hold it
    /// while decoding siblings).
    func child(at offset: Int, key: PathKey) -> ValueDecoder {
        withStorage { ValueDecoder.make(storage: $0, offset: offset, depth: depth + 1, parent: self, key: key) }
    }
}

extension DecodingStorage {
    /// Reads a value of a type with a ``DirectForm``, without a decoder of its own.
    @inline(__always)
    func readDirect<T: Decodable>(_: T.Type, form: DirectForm, depth: Int, parent: ValueDecoder?, key: PathKey) throws(MessagePackError) -> T {
        switch form {
        case .string: reinterpret(try state.pointee.reader.readString(), as: T.self)
        case .int64: reinterpret(try state.pointee.reader.readInteger(Int64.self), as: T.self)
        case .int: reinterpret(try state.pointee.reader.readInteger(Int.self), as: T.self)
        case .bool: reinterpret(try state.pointee.reader.readBool(), as: T.self)
        case .double: reinterpret(try state.pointee.reader.readDouble(), as: T.self)
        case .uint64: reinterpret(try state.pointee.reader.readInteger(UInt64.self), as: T.self)
        case .int64Array: reinterpret(try readInt64Array(depth: depth, parent: parent, key: key), as: T.self)
        case .special: try readSpecial(T.self, depth: depth)
        }
    }

    /// A ``SpecialType``; apart so that only these values pay for the `T?` it returns.
    @inline(never)
    private func readSpecial<T: Decodable>(_: T.Type, depth: Int) throws(MessagePackError) -> T {
        let start = state.pointee.reader.offset
        guard let value = try SpecialType.decode(T.self, from: &state.pointee.reader, maxDepth: state.pointee.maxDepth - depth) else {
            throw MessagePackError(.typeMismatch, "\(T.self) has no native MessagePack form", offset: start)
        }
        return value
    }

    /// `[Int64]` as `Array.init(from:)` reads it, errors and limits included.
    private func readInt64Array(depth: Int, parent: ValueDecoder?, key: PathKey) throws(MessagePackError) -> [Int64] {
        let start = state.pointee.reader.offset
        let count = try state.pointee.reader.readArrayHeader()
        guard depth < state.pointee.maxDepth else {
            let limit = state.pointee.maxDepth
            throw MessagePackError(.depthLimitExceeded, "containers nest deeper than the limit of \(limit)", offset: start)
        }
        var elements: [Int64] = []
        elements.reserveCapacity(count)
        for index in 0 ..< count {
            do {
                elements.append(try state.pointee.reader.readInteger(Int64.self))
            } catch {
                throw error.at(ValueDecoder.path(parent, key) + [IndexKey(index)])
            }
        }
        return elements
    }
}

/// The types the decoder reads without a decoder of their own: the common scalars, `String`,
/// `[Int64]`, and the types with a native MessagePack form (``SpecialType``).
enum DirectForm {
    case string, int64, int, bool, double, uint64, int64Array, special

    /// The form of `T`, found by comparing metatypes only; nil for a type decoded through its
    /// `init(from:)`.
    ///
    /// Deciding this before any `T?` exists matters: `Optional<T>` of a generic `T` is metadata
    /// the runtime looks up in its cache at every use, which was about 14 % of decoding 500
    /// contacts (perf, issue 13).
    @inline(__always)
    init?<T>(of _: T.Type) {
        if T.self == String.self {
            self = .string
        } else if T.self == Int64.self {
            self = .int64
        } else if T.self == Int.self {
            self = .int
        } else if T.self == Bool.self {
            self = .bool
        } else if T.self == Double.self {
            self = .double
        } else if T.self == UInt64.self {
            self = .uint64
        } else if ObjectIdentifier(T.self) == CodingTypes.int64Array {
            self = .int64Array
        } else if SpecialType.hasNativeForm(T.self) {
            self = .special
        } else {
            return nil
        }
    }
}
