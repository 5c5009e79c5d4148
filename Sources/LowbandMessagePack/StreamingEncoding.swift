#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The encoder's fast path: every value is written into the output as soon as it is encoded.
///
/// Open containers form a stack. A container's header is a one-byte placeholder, patched with
/// the count when the container closes (widened in place when it holds more than 15 entries,
/// so the output keeps the smallest header). A container closes when its value's
/// `encode(to:)` returns or when a container below it on the stack is written to.
///
/// Codable allows more than this: writing to a container after a sibling was written to,
/// `superEncoder()`, writing twice to a single value. Each of those is detected (containers
/// carry an id that must still be open), marks the run as needing the tree encoder, and
/// ``MessagePackEncoder`` encodes the value again on that path.
enum StreamingEncoding {
    /// Appends the value and returns true, or returns false (with `writer` unchanged) when the
    /// value needs the tree encoder.
    static func encode<T: Encodable>(_ value: T, userInfo: [CodingUserInfoKey: Any], into writer: inout MessagePackWriter) throws -> Bool {
        let start = writer.count
        // The writer moves into the storage and back, so that its bytes have one owner.
        let storage = StreamStorage.make(writer: writer, userInfo: userInfo)
        writer = MessagePackWriter.placeholder
        defer {
            storage.state.pointee.spare.removeAll()
            writer = storage.takeWriter()
            if storage.state.pointee.needsTree { writer.truncate(to: start) }
        }
        do {
            try storage.encodeValue(value, level: 0)
        } catch {
            if storage.state.pointee.needsTree { return false }
            storage.state.pointee.writer.truncate(to: start)
            throw error
        }
        return !storage.state.pointee.needsTree
    }
}

/// Thrown inside a run that the streaming path cannot finish; the tree encoder takes over.
struct StreamFallback: Error {}

/// A container whose header is a placeholder until it closes.
struct OpenContainer {
    var id: Int
    /// Offset of the one-byte header placeholder.
    var header: Int
    var count = 0
    var isMap: Bool
    var pathKey = PathKey.none
    /// Set for a `Dictionary`'s container, whose entries are sorted when it closes.
    var order: DictionaryOrder?
}

/// Everything one top-level encode shares.
struct StreamState {
    var writer: MessagePackWriter
    var open: [OpenContainer] = []
    var nextID = 0
    /// The streaming path met something it cannot express; the tree encoder must redo the value.
    var needsTree = false
    /// The encoder whose value's `encode(to:)` is running: only it may create containers.
    var current: ObjectIdentifier?
    /// One reusable encoder per level, taken again when nothing else holds it.
    var spare: [StreamEncoder] = []
    /// The encoder's `userInfo`, handed to every value's `encode(to:)`.
    var userInfo: [CodingUserInfoKey: Any] = [:]
}

/// Owns the shared state, the header of a `ManagedBuffer` so that it lives in the object
/// itself. Containers and encoders reach it through a pointer, so no access pays for the
/// dynamic exclusivity checks of class properties.
final class StreamStorage: ManagedBuffer<StreamState, Void> {
    /// Storage whose output continues `bytes` (`ManagedBuffer` subclasses are made by
    /// `create`, not `init`).
    static func make(writer: MessagePackWriter, userInfo: [CodingUserInfoKey: Any]) -> StreamStorage {
        let buffer = create(minimumCapacity: 0) { _ in StreamState(writer: writer, userInfo: userInfo) }
        let storage = unsafeDowncast(buffer, to: StreamStorage.self)
        storage.state.pointee.open.reserveCapacity(8)
        storage.state.pointee.spare.reserveCapacity(8)
        return storage
    }

    @inline(__always)
    var state: UnsafeMutablePointer<StreamState> { withUnsafeMutablePointerToHeader { $0 } }

    func takeWriter() -> MessagePackWriter {
        let writer = state.pointee.writer
        state.pointee.writer = MessagePackWriter.placeholder
        return writer
    }

    /// Marks the run for the tree encoder; the error stops the work at once where it can.
    func fallback() -> StreamFallback {
        state.pointee.needsTree = true
        return StreamFallback()
    }

    // MARK: Values

    /// Writes one value at the current position; `level` is where its container would open.
    func encodeValue<T: Encodable>(_ value: T, level: Int) throws {
        if try writeScalar(value) { return }
        try encodeComposite(value, level: level)
    }

    /// Runs the value's `encode(to:)` on an encoder of its own, then closes what it opened.
    func encodeComposite<T: Encodable>(_ value: T, level: Int) throws {
        let encoder = makeEncoder(level: level, valueType: T.self)
        let previous = state.pointee.current
        state.pointee.current = ObjectIdentifier(encoder)
        do {
            try value.encode(to: encoder)
        } catch {
            // The caller may catch the error and go on; only the tree can undo a partial value.
            state.pointee.needsTree = true
            throw error
        }
        state.pointee.current = previous
        close(downTo: level)
        if state.pointee.writer.count == encoder.start {
            state.pointee.writer.append(0x80)
        }
    }

    private func makeEncoder(level: Int, valueType: any Encodable.Type) -> StreamEncoder {
        let start = state.pointee.writer.count
        if level < state.pointee.spare.count {
            if isKnownUniquelyReferenced(&state.pointee.spare[level]) {
                let encoder = state.pointee.spare[level]
                encoder.reset(start: start, valueType: valueType)
                return encoder
            }
            let encoder = StreamEncoder(storage: self, level: level, start: start, valueType: valueType)
            state.pointee.spare[level] = encoder
            return encoder
        }
        let encoder = StreamEncoder(storage: self, level: level, start: start, valueType: valueType)
        if level == state.pointee.spare.count { state.pointee.spare.append(encoder) }
        return encoder
    }

    // MARK: Containers

    /// Opens the container of `encoder`'s value, or returns the one it already opened; 0 when
    /// the request cannot be streamed.
    func openContainer(for encoder: StreamEncoder, isMap: Bool) -> Int {
        guard state.pointee.current == ObjectIdentifier(encoder) else { return fallbackID() }
        let level = encoder.level
        if encoder.containerID != 0 {
            guard level < state.pointee.open.count, state.pointee.open[level].id == encoder.containerID,
                  state.pointee.open[level].isMap == isMap
            else { return fallbackID() }
            close(downTo: level + 1)
            return encoder.containerID
        }
        guard !encoder.wroteSingleValue, state.pointee.open.count == level else { return fallbackID() }
        let order = encoder.dictionaryStringKeys.map(DictionaryOrder.init(stringKeys:))
        encoder.containerID = push(isMap: isMap, order: order)
        return encoder.containerID
    }

    /// Opens a container nested directly in the entry just begun at `level - 1`.
    func push(isMap: Bool, order: DictionaryOrder? = nil) -> Int {
        state.pointee.nextID += 1
        let id = state.pointee.nextID
        state.pointee.open.append(OpenContainer(id: id, header: state.pointee.writer.count, isMap: isMap, order: order))
        state.pointee.writer.append(0)
        return id
    }

    private func fallbackID() -> Int {
        state.pointee.needsTree = true
        return 0
    }

    /// Starts the next entry of the container `id` at `level`: closes the containers above it
    /// and counts the entry. Nil when that container is no longer open.
    @inline(__always)
    func beginEntry(level: Int, id: Int) -> Bool {
        guard level < state.pointee.open.count, state.pointee.open[level].id == id else {
            state.pointee.needsTree = true
            return false
        }
        if state.pointee.open.count > level + 1 { close(downTo: level + 1) }
        state.pointee.open[level].count += 1
        if let order = state.pointee.open[level].order {
            order.starts.append(state.pointee.writer.count)
        }
        return true
    }

    /// ``beginEntry(level:id:)`` for the throwing container methods.
    @inline(__always)
    func beginEntryOrThrow(level: Int, id: Int) throws {
        guard beginEntry(level: level, id: id) else { throw StreamFallback() }
    }

    /// Closes containers until `count` remain open.
    func close(downTo count: Int) {
        while state.pointee.open.count > count {
            let container = state.pointee.open.removeLast()
            if let order = container.order {
                guard order.apply(to: &state.pointee.writer, bodyStart: container.header + 1, isMap: container.isMap) else {
                    state.pointee.needsTree = true
                    continue
                }
            }
            guard state.pointee.writer.patchContainerHeader(at: container.header, count: container.count, isMap: container.isMap) else {
                state.pointee.needsTree = true
                continue
            }
        }
    }

    /// The coding path of a value at `level`.
    func path(level: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        for index in 0 ..< min(level, state.pointee.open.count) {
            switch state.pointee.open[index].pathKey {
            case .none: break
            case let .index(position): path.append(IndexKey(position))
            case let .key(key): path.append(key)
            }
        }
        return path
    }

    // MARK: Keys

    /// Writes a map key: integer keys whose text is their number as integers, others as str.
    @inline(__always)
    func writeKey(_ key: some CodingKey, level: Int) throws {
        if let order = state.pointee.open[level].order {
            try writeDictionaryKey(key, order: order)
            return
        }
        if let number = key.intValue, key.stringValue == String(number) {
            state.pointee.writer.write(Int64(number))
        } else {
            try writeString(key.stringValue)
        }
    }

    private func writeDictionaryKey(_ key: some CodingKey, order: DictionaryOrder) throws {
        let sortKey: MessagePackValue = order.stringKeys ? .string(key.stringValue) : EncodingTree.key(key)
        order.keys.append(sortKey)
        do { try state.pointee.writer.write(sortKey) } catch {
            state.pointee.needsTree = true
            throw error
        }
    }

    @inline(__always)
    func writeString(_ text: String) throws {
        do { try state.pointee.writer.write(text) } catch {
            state.pointee.needsTree = true
            throw error
        }
    }
}

/// The entries of a `Dictionary`'s container, put in key order when it closes.
final class DictionaryOrder {
    /// Whether the dictionary's keys are `String`s, which stay str even when they look like integers.
    let stringKeys: Bool
    /// Where each entry (key map) or element (pair array) starts in the output.
    var starts: [Int] = []
    /// The key of each map entry.
    var keys: [MessagePackValue] = []

    init(stringKeys: Bool) {
        self.stringKeys = stringKeys
    }

    /// Reorders the container body that starts at `bodyStart` and runs to the end of `bytes`.
    /// False when the entries do not pair up as a dictionary's do.
    func apply(to writer: inout MessagePackWriter, bodyStart: Int, isMap: Bool) -> Bool {
        writer.withUnsafeMutableWrittenBytes { reorder($0, bodyStart: bodyStart, isMap: isMap) }
    }

    private func reorder(_ bytes: UnsafeMutableBufferPointer<UInt8>, bodyStart: Int, isMap: Bool) -> Bool {
        let end = bytes.count
        var ranges: [Range<Int>] = []
        var sorted: [Int]
        if isMap {
            guard keys.count == starts.count else { return false }
            ranges = starts.indices.map { starts[$0] ..< ($0 + 1 < starts.count ? starts[$0 + 1] : end) }
            sorted = Array(ranges.indices)
            sorted.sort { MapBox.precedes(keys[$0], keys[$1]) }
        } else {
            guard starts.count.isMultiple(of: 2) else { return false }
            ranges = stride(from: 0, to: starts.count, by: 2).map { starts[$0] ..< ($0 + 2 < starts.count ? starts[$0 + 2] : end) }
            sorted = Array(ranges.indices)
            let keyEnds = stride(from: 1, to: starts.count, by: 2).map { starts[$0] }
            sorted.sort { lhs, rhs in
                bytes[ranges[lhs].lowerBound ..< keyEnds[lhs]].lexicographicallyPrecedes(bytes[ranges[rhs].lowerBound ..< keyEnds[rhs]])
            }
        }
        var body: [UInt8] = []
        body.reserveCapacity(end - bodyStart)
        for index in sorted { body.append(contentsOf: bytes[ranges[index]]) }
        // The same entries in another order: as many bytes.
        _ = UnsafeMutableBufferPointer(rebasing: bytes[bodyStart ..< end]).update(fromContentsOf: body)
        return true
    }
}
