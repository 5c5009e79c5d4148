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
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        switch self {
        case .v1: Self.v1UserInfo
        case .v2: Self.v2UserInfo
        }
    }
}

extension CodingUserInfoKey {
    /// The ``WireFormat`` a coder writes or reads the catalogue in; absent means `.v1`.
    public static let lowbandWireFormat = CodingUserInfoKey(rawValue: "lowband.wireFormat")!
}

extension Encoder {
    /// The layout asked for through `userInfo`; `.v1` when none is.
    var wireFormat: WireFormat { WireFormat.asked(in: userInfo) }
}

extension Decoder {
    /// The layout asked for through `userInfo`; `.v1` when none is.
    var wireFormat: WireFormat { WireFormat.asked(in: userInfo) }
}

extension WireFormat {
    /// Each layout's ``userInfo``, built once: a coder given one of these hands the same
    /// dictionary storage to every value, which ``asked(in:)`` recognises without a lookup.
    private static let v1UserInfo: [CodingUserInfoKey: any Sendable] = [.lowbandWireFormat: WireFormat.v1]
    private static let v2UserInfo: [CodingUserInfoKey: any Sendable] = [.lowbandWireFormat: WireFormat.v2]

    /// `userInfo[.lowbandWireFormat] as? WireFormat ?? .v1`, answered at once for the
    /// dictionaries ``userInfo`` hands out.
    ///
    /// Every catalogue value asks in its `encode(to:)` and `init(from:)`; the lookup hashed the
    /// key's string and `as?` went through `swift_dynamicCast`, about 950 instructions a value,
    /// a fifth to a quarter of a push's or 500 contacts' Codable encode or decode (callgrind,
    /// issue 39). A dictionary whose storage is that of ``userInfo`` of a layout holds exactly that
    /// layout (storage is shared only while unchanged, and those are never freed); any other
    /// is looked up as before.
    static func asked(in userInfo: [CodingUserInfoKey: Any]) -> WireFormat {
        if userInfo.isEmpty { return .v1 }
        if let storage = storageIdentity(of: userInfo) {
            if storage == storageIdentity(of: v2UserInfo) { return .v2 }
            if storage == storageIdentity(of: v1UserInfo) { return .v1 }
        }
        return userInfo[.lowbandWireFormat] as? WireFormat ?? .v1
    }

    /// The address of a dictionary's storage; nil if `Dictionary` is ever more than that one reference.
    @inline(__always)
    private static func storageIdentity<Value>(of dictionary: [CodingUserInfoKey: Value]) -> UnsafeRawPointer? {
        guard MemoryLayout<[CodingUserInfoKey: Value]>.size == MemoryLayout<UnsafeRawPointer>.size else { return nil }
        return unsafeBitCast(dictionary, to: UnsafeRawPointer.self)
    }
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
