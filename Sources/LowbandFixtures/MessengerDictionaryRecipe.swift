import LowbandWire

/// How the shipped wire dictionary `messenger-1` (`LowbandWire/WireDictionary/messenger1`) is
/// made: run it again and it gives the same bytes, which `ShippedDictionaryTests` checks.
///
/// The samples are new-message pushes of `MessengerFixtures(seed: 2)`, spread over 50 chats and
/// 7 senders, each encoded as the wire carries it (the push frame's MessagePack payload). They
/// are laid end to end, oldest first, and the last ``size`` bytes are kept: LZ4 looks back at
/// most 64 KiB and finds the latest copy of a match first, so what is most like the traffic
/// sits last. Every figure Lowband measures comes from other seeds (1 and the run's), so the
/// dictionary knows the traffic's vocabulary — array layouts, URL prefixes, the corpus's words —
/// but never the measured messages, as a dictionary trained on yesterday's traffic would.
///
/// Size: on the compression suite's 1,000 pushes 16 KiB gives 87.2 KB, 32 KiB 82.9 KB, 64 KiB
/// 80.8 KB (plain LZ4 160.9 KB). 32 KiB it is: 64 KiB would buy 2.5 % for twice the memory
/// a compressor keeps per connection.
public enum MessengerDictionaryRecipe {
    /// The seed of the samples: any seed but the measured inputs' 1.
    public static let seed: UInt64 = 2
    /// The dictionary's size in bytes.
    public static let size = 32 * 1_024

    /// The dictionary's bytes: the last `size` bytes of enough pushes of `seed`.
    ///
    /// - Throws: when the MessagePack encoder rejects a fixture (a bug in the catalogue).
    public static func build(seed: UInt64 = seed, size: Int = size) throws -> [UInt8] {
        var samples: [[UInt8]] = []
        var total = 0
        var count = 64
        while total < size {
            samples = try pushes(seed: seed, count: count)
            total = samples.reduce(0) { $0 + $1.count }
            count *= 2
        }
        return Array(samples.joined().suffix(size))
    }

    /// `count` new-message push payloads from `MessengerFixtures(seed:)`, spread over 50 chats
    /// and 7 senders, in the order drawn.
    ///
    /// - Throws: when the MessagePack encoder rejects a fixture (a bug in the catalogue).
    public static func pushes(seed: UInt64, count: Int) throws -> [[UInt8]] {
        var fixtures = MessengerFixtures(seed: seed)
        return try (0 ..< count).map { index in
            try Frame.push(fixtures.newMessagePush(chatID: Int64(1 + index % 50), senderID: Int64(2 + index % 7)), sequence: 1).payload
        }
    }
}
