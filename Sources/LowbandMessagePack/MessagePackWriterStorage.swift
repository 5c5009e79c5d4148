/// A writer's bytes: one allocation holding its count, its capacity and the bytes, written
/// through pointers, replaced by a larger one (at least double) when full.
///
/// `MessagePackWriter` copies its storage before writing when another writer shares it
/// (`isKnownUniquelyReferenced`), so writers keep value semantics: no instance is ever written
/// while another writer can see it (which is why the writer is `@unchecked Sendable`). Writing a short field is a capacity check and a store:
/// `Array.append(contentsOf:)` of the same 2–9 bytes (a call, a uniqueness check and a
/// `memcpy`) was about 40 % of the fast path's encode of 500 contacts (callgrind, issue 39).
/// The count and capacity are the header of a `ManagedBuffer`, reached by pointer, so writing
/// pays no dynamic exclusivity check, as a class's stored properties would.
@usableFromInline
final class MessagePackWriterStorage: ManagedBuffer<MessagePackWriterStorage.Header, UInt8> {
    @usableFromInline
    struct Header {
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int

        @inlinable init(count: Int, capacity: Int) {
            self.count = count
            self.capacity = capacity
        }
    }

    /// An empty storage with room for `capacity` bytes (`ManagedBuffer` subclasses are made by
    /// `create`, not `init`).
    @usableFromInline
    static func make(capacity: Int) -> MessagePackWriterStorage {
        let capacity = Swift.max(capacity, 16)
        let buffer = create(minimumCapacity: capacity) { _ in Header(count: 0, capacity: capacity) }
        return unsafeDowncast(buffer, to: MessagePackWriterStorage.self)
    }

    @inlinable
    var fields: UnsafeMutablePointer<Header> { withUnsafeMutablePointerToHeader { $0 } }

    @inlinable
    var start: UnsafeMutablePointer<UInt8> { withUnsafeMutablePointerToElements { $0 } }

    /// A storage holding the same bytes, with room for at least `minimumCapacity`.
    @usableFromInline
    func copy(minimumCapacity: Int) -> MessagePackWriterStorage {
        let count = fields.pointee.count
        let copy = Self.make(capacity: minimumCapacity)
        copy.start.initialize(from: start, count: count)
        copy.fields.pointee.count = count
        return copy
    }
}
