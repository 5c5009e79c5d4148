public import LowbandLZ4

/// A shared LZ4 dictionary that two peers agree on at login and that every frame compressed
/// with it names in its header (docs/PROTOCOL.md, "Compression dictionaries").
///
/// The client's `LoginRequest` lists the ids it has (`compressionDictionaries`), the server's
/// `LoginReply` names the one it chose (`compressionDictionary`) or none, and from the next frame
/// on both directions of that connection may compress with it. An id names one sequence of bytes
/// forever: a dictionary that changes gets a new id, and ``shipped`` keeps the old ones as long as
/// clients may offer them.
public struct WireDictionary: Hashable, Sendable, Identifiable {
    /// The number a dictionary is known by on the wire: 1 ... 15, the high four bits of a
    /// compressed frame's flags byte (0 there means plain LZ4).
    public struct ID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        /// The ids a header can carry.
        public static let range: ClosedRange<UInt8> = 1 ... 15

        /// The id, 1 ... 15.
        public let rawValue: UInt8

        /// The id `rawValue`, or nil outside ``range``.
        public init?(rawValue: UInt8) {
            guard Self.range.contains(rawValue) else { return nil }
            self.rawValue = rawValue
        }

        /// An id known to be in range (the shipped ones).
        fileprivate init(checked rawValue: UInt8) {
            precondition(Self.range.contains(rawValue), "a dictionary id is 1 ... 15")
            self.rawValue = rawValue
        }

        /// The id a login message carries as an integer, or nil outside ``range`` (an id a newer
        /// peer may know, which this build ignores).
        public init?(wire value: Int64) {
            guard value >= Int64(Self.range.lowerBound), value <= Int64(Self.range.upperBound) else { return nil }
            self.rawValue = UInt8(value)
        }

        /// The id as login messages carry it.
        public var wireValue: Int64 { Int64(rawValue) }

        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        public var description: String { String(rawValue) }
    }

    /// The id peers name the dictionary by.
    public let id: ID
    /// A name for people and file names, e.g. `messenger-1`.
    public let name: String
    /// The bytes, at most `LowbandLZ4/LZ4Dictionary/maximumSize`.
    public let dictionary: LZ4Dictionary

    /// A dictionary `id` of `dictionary`'s bytes.
    public init(id: ID, name: String, dictionary: LZ4Dictionary) {
        self.id = id
        self.name = name
        self.dictionary = dictionary
    }
}

extension WireDictionary {
    /// Dictionary 1, `messenger-1`: 32 KiB of new-message pushes of the seeded fixtures (seed 2),
    /// MessagePack as the wire carries them, the most recent last.
    ///
    /// It knows the traffic's vocabulary — array layouts, URL prefixes, the corpus's words — but
    /// none of the messages a run or benchmark measures (those come from other seeds). The bytes
    /// are `Sources/LowbandWire/Dictionaries/messenger-1.lz4dict`, compiled into the library;
    /// `LowbandFixtures/MessengerDictionaryRecipe` rebuilds them and `ShippedDictionaryTests`
    /// checks the file is byte-identical to what it builds.
    public static let messenger1 = WireDictionary(
        id: ID(checked: 1), name: "messenger-1", dictionary: LZ4Dictionary(PackageResources.messenger_1_lz4dict))

    /// Every dictionary this build ships, ascending by id: what a client offers and a server
    /// accepts by default.
    public static let shipped: [WireDictionary] = [messenger1]
}
