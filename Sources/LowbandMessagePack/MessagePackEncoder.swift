/// Encodes `Encodable` values as MessagePack.
///
/// Struct fields come out in the order the type encodes them (declaration order for synthesized
/// conformances). A `Dictionary` has no stable order in Swift, so its entries are written sorted
/// by key (numerically for integer keys): the same value gives the same bytes in every process.
/// `Date` becomes a timestamp extension, `Data` a bin, ``MessagePackValue`` itself.
/// Integer dictionary keys are written as MessagePack integers, other keys as strings.
///
/// Values are written straight into the output as their containers are filled; the rare uses
/// of Codable that this cannot follow (a container written to after a sibling, `superEncoder`)
/// make the encoder start over on a slower path that builds the value as a tree first. Both
/// paths give the same bytes.
public struct MessagePackEncoder: Sendable {
    /// Handed to every value's `encode(to:)` as `encoder.userInfo`, e.g. to choose a layout.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// An encoder; `userInfo` defaults to empty.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// The value's MessagePack bytes.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        // Room for the push of one message without growing, as the fast path's `messagePackBytes()`.
        var writer = MessagePackWriter(reservingCapacity: 256)
        try encode(value, into: &writer)
        return writer.bytes
    }

    /// Appends the value's MessagePack bytes to `writer`.
    public func encode<T: Encodable>(_ value: T, into writer: inout MessagePackWriter) throws {
        let start = writer.count
        let info = CodingTypes.userInfo(userInfo)
        if try StreamingEncoding.encode(value, userInfo: info, into: &writer) { return }
        writer.truncate(to: start)
        let node = try EncodingTree.node(for: value, codingPath: [], userInfo: info)
        try node.write(into: &writer)
    }
}
