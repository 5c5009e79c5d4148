/// The payload layouts of the catalogue (docs/PROTOCOL.md); the frame header's version byte
/// names the one a frame carries.
///
/// Version 2 is what this build speaks: positional arrays, written and read by the generated
/// fast path (`LowbandMessagePack/MessagePackFastCodable`). Version 1, maps keyed by name, is
/// what the catalogue's `Codable` conformances write by default (and what JSON and the caches
/// store); give a `MessagePackEncoder` or `MessagePackDecoder` ``userInfo`` to make them write
/// or read version 2, the reference the fast path is tested against.
public enum WireFormat: UInt8, Hashable, Sendable, CaseIterable {
    /// Maps keyed by property name (short names for `Message`).
    case v1 = 1
    /// Positional arrays with integer enum codes; trailing absent fields left out.
    case v2 = 2

    /// The version this build writes and accepts.
    public static let current = WireFormat.v2

    /// The coder `userInfo` that selects this layout in the catalogue's `Codable` conformances.
    public var userInfo: [CodingUserInfoKey: any Sendable] { [.lowbandWireFormat: self] }
}

extension CodingUserInfoKey {
    /// The ``WireFormat`` a coder writes or reads the catalogue in; absent means `.v1`.
    public static let lowbandWireFormat = CodingUserInfoKey(rawValue: "lowband.wireFormat")!
}

extension Encoder {
    /// The layout asked for through `userInfo`; `.v1` when none is.
    var wireFormat: WireFormat { userInfo[.lowbandWireFormat] as? WireFormat ?? .v1 }
}

extension Decoder {
    /// The layout asked for through `userInfo`; `.v1` when none is.
    var wireFormat: WireFormat { userInfo[.lowbandWireFormat] as? WireFormat ?? .v1 }
}

extension UnkeyedDecodingContainer {
    /// A trailing optional field of a v2 array: nil when the array ended before it or holds nil.
    mutating func decodeTrailing<T: Decodable>(_ type: T.Type) throws -> T? {
        guard !isAtEnd else { return nil }
        return try decodeNil() ? nil : try decode(type)
    }
}

/// The keys of a value without fields.
struct EmptyKeys: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue _: Int) { nil }
}
