import LowbandDeterminism
import LowbandTestSupport

/// Seeded inputs for the LZ4 tests: incompressible random bytes and messenger-like text.
enum TestData {
    /// Sizes around LZ4's edges: empty, tiny, the 64 KiB window, and above the 4 MiB block size.
    static let sizes = [0, 1, 2, 3, 12, 13, 64, 255, 1_000, 4_096, 65_535, 65_536, 65_537, 200_000, 1 << 20, (4 << 20) + 321]

    enum Kind: String, CaseIterable, Sendable {
        case random, text
    }

    static func bytes(_ kind: Kind, count: Int, seed: UInt64 = 42) -> [UInt8] {
        switch kind {
        case .random: random(count: count, seed: seed)
        case .text: text(count: count, seed: seed)
        }
    }

    /// `count` uniformly random bytes; LZ4 cannot compress them.
    static func random(count: Int, seed: UInt64 = 42) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        let words = (0..<(count + 7) / 8).map { _ in generator.next() }
        return words.withUnsafeBytes { Array($0.prefix(count)) }
    }

    private static let names = ["alice", "bob", "carol", "dmitri", "eve", "fatima", "gao", "hiro"]
    private static let words = [
        "hey", "are", "you", "coming", "tonight", "the", "bus", "is", "late", "again", "ok", "see",
        "at", "station", "photo", "sent", "call", "me", "when", "free", "lol", "thanks", "meeting",
        "moved", "to", "tomorrow", "network", "slow", "here", "message", "delivered", "read",
    ]

    /// Messenger-like JSON lines; compresses well, like real chat traffic.
    static func text(count: Int, seed: UInt64 = 42) -> [UInt8] {
        var generator = SeededGenerator(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 200)
        var id = 1_000
        while bytes.count < count {
            id += Int(generator.next() % 7) + 1
            let from = names[Int(generator.next() % UInt64(names.count))]
            let wordCount = Int(generator.next() % 12) + 1
            var text = ""
            for index in 0..<wordCount {
                if index > 0 { text += " " }
                text += words[Int(generator.next() % UInt64(words.count))]
            }
            bytes += Array(#"{"id":\#(id),"chat":\#(generator.next() % 40),"from":"\#(from)","text":"\#(text)"}"#.utf8)
            bytes.append(0x0A)
        }
        return Array(bytes.prefix(count))
    }
}
