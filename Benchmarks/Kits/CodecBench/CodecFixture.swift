public import LowbandWire
import LowbandFixtures
public import LowbandMessagePack

/// One message the codecs are compared on, with a stable id used in benchmark names.
public struct CodecFixture: Sendable {
    /// The fixture's part of benchmark names, e.g. `login-reply-50`.
    public let id: String
    private let pair: @Sendable (any BenchmarkCodec) -> CodecWorkload

    /// A fixture holding `value`; its type decides what each codec decodes into.
    public init<T: BenchmarkPayload>(id: String, value: T) {
        self.id = id
        pair = { codec in CodecWorkload(fixture: id, codec: codec, value: value) }
    }

    /// The encode and decode work of `codec` on this fixture.
    public func workload(with codec: any BenchmarkCodec) -> CodecWorkload {
        pair(codec)
    }
}

extension CodecFixture {
    /// The four fixtures of the comparison, from the real message catalogue.
    ///
    /// Each is drawn from its own `MessengerFixtures(seed:)`, so its content does not depend on
    /// which other fixtures are built. `contacts-500` is a top-level array `[Contact]` for every
    /// codec; protobuf, which has no top-level arrays, writes it as a `ContactList` message with
    /// one repeated field.
    public static func all(seed: UInt64 = 1) -> [CodecFixture] {
        [
            CodecFixture(id: "login-reply-50", value: withFixtures(seed) { $0.loginReply(chats: 50) }),
            CodecFixture(id: "history-page-50", value: withFixtures(seed) { $0.historyPage(count: 50) }),
            CodecFixture(id: "push-1", value: withFixtures(seed) { $0.newMessagePush() }),
            CodecFixture(id: "contacts-500", value: withFixtures(seed) { $0.contacts(500) }),
        ]
    }

    private static func withFixtures<T>(_ seed: UInt64, _ make: (inout MessengerFixtures) -> T) -> T {
        var fixtures = MessengerFixtures(seed: seed)
        return make(&fixtures)
    }
}

// The fixture types; `Codable` and the fast path come from LowbandWire, protobuf from
// Proto/Catalogue+Protobuf.swift.
extension LoginReply: BenchmarkPayload {}
extension HistoryReply: BenchmarkPayload {}
extension NewMessagePush: BenchmarkPayload {}
extension Array: BenchmarkPayload where Element == Contact {}
