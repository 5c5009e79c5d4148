import LowbandDeterminism
@testable import LowbandScenarios
import LowbandWire
import Testing

/// The checker's shortcuts at the end of a run (issue 39): a binary search for a cached id, and
/// counting a cache's (sender, client id) pairs instead of building the text key of each.
/// Each is compared against what it replaced.
@Suite struct InvariantCheckerHelpersTests {
    private static func message(_ id: Int64, sender: Int64, clientID: UInt64?) -> Message {
        Message(id: id, chatID: 1, senderID: sender, clientID: clientID, text: "", sentAt: 0, editedAt: nil, attachments: [])
    }

    @Test func holdsIsTheScanItReplaced() {
        var generator = SeededGenerator(seed: 3)
        func next(_ below: UInt64) -> Int64 {
            Int64(UInt64.random(in: 0 ..< below, using: &generator))
        }
        for count in [0, 1, 2, 3, 10, 257] {
            // Ascending ids with gaps, as the cache's `allMessages` gives them.
            var id: Int64 = 0
            let messages = (0 ..< count).map { _ in
                id += 1 + next(3)
                return Self.message(id, sender: 1, clientID: nil)
            }
            for probe in -1 ... id + 2 {
                #expect(InvariantChecker.holds(messages, id: probe) == messages.contains { $0.id == probe }, "\(count) messages, id \(probe)")
            }
        }
    }

    @Test func distinctSendsCountsWhatTheTextKeysCount() {
        var generator = SeededGenerator(seed: 11)
        func next(_ below: UInt64) -> UInt64 {
            UInt64.random(in: 0 ..< below, using: &generator)
        }
        for round in 0 ..< 400 {
            let count = Int(next(40))
            // Small ranges so pairs repeat in some rounds; ids like 1/23 and 12/3 side by side.
            let messages = (0 ..< count).map { index in
                Self.message(Int64(index), sender: Int64(next(13)), clientID: next(4) == 0 ? nil : next(round % 2 == 0 ? 400 : 40))
            }
            let keys = messages.compactMap { message in message.clientID.map { "\(message.senderID)/\($0)" } }
            let expected: Int? = Set(keys).count == keys.count ? keys.count : nil
            #expect(InvariantChecker.distinctSends(messages) == expected, "round \(round)")
        }
    }
}
