import Foundation
import GRDB
import LowbandFixtures
import LowbandServer
import LowbandServerStore
import LowbandTestSupport
import LowbandWire
import Testing

/// `lowband server --data`: what a server stored is what a restarted one serves.
@Suite struct ServerDataDirectoryTests {
    @Test func aRestartServesEveryAcknowledgedChangeAndIdsKeepIncreasing() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        let chat: Int64
        let sender: Int64
        let reader: Int64
        var sent: [Message] = []
        let before: ServerSnapshot
        do {
            var (harness, data) = try StoreHarness.open(folder)
            #expect(data.seeded)
            let history = try #require(StoreHarness.world().chats.first { $0.memberIDs.count >= 2 })
            (chat, sender, reader) = (history.id, history.memberIDs[0], history.memberIDs[1])
            for index in 0 ..< 5 {
                let request = SendMessageRequest(chatID: chat, clientID: 9_000_000_000_000_000_000 + UInt64(index), text: "m\(index)")
                sent.append(try harness.call(request, from: sender).message)
            }
            _ = try harness.call(MarkReadRequest(chatID: chat, messageID: sent[2].id), from: reader)
            before = harness.core.snapshot
        }

        var (harness, data) = try StoreHarness.open(folder)
        #expect(!data.seeded)
        #expect(data.notes.isEmpty)
        #expect(harness.core.snapshot == before, "users, chats, members, read markers, messages and the clock read back as they were")
        #expect(Array(try #require(harness.core.messages(in: chat)).suffix(5)) == sent)
        #expect(harness.core.readPosition(of: reader, in: chat) == sent[2].id)
        #expect(harness.core.token(of: sender) == StoreHarness.world().users[Int(sender - 1)].token)

        // A retry of an acknowledged send is answered with the stored message, not stored again.
        let retry = try harness.call(SendMessageRequest(chatID: chat, clientID: 9_000_000_000_000_000_003, text: "m3"), from: sender)
        #expect(retry.message == sent[3])
        let next = try harness.call(SendMessageRequest(chatID: chat, clientID: 42, text: "after"), from: sender).message
        #expect(next.id == sent[4].id + 1)
        #expect(next.sentAt > sent[4].sentAt, "the clock continues after the last time handed out")
        #expect(try #require(harness.core.messages(in: chat)).count(where: { $0.text == "m3" }) == 1)
    }

    @Test func aLoginSyncPointIsNeverHandedOutAgainAfterARestart() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        let syncPoint: ServerTime
        do {
            var (harness, _) = try StoreHarness.open(folder)
            harness.now = .seconds(3600)
            let token = try #require(harness.core.token(of: 2))
            syncPoint = try harness.call(LoginRequest(token: token, lastSync: 0), from: 2).serverTime
        }
        var (harness, _) = try StoreHarness.open(folder)
        let token = try #require(harness.core.token(of: 1))
        let after = try harness.call(LoginRequest(token: token, lastSync: 0), from: 1).serverTime
        #expect(after >= syncPoint, "a restarted server's time does not go back to its epoch")
    }

    @Test func aDifferentSeedOnAStoredDirectoryIsOneClearError() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        do { _ = try StoreHarness.open(folder, seed: 5) }
        #expect {
            _ = try ServerDataDirectory.open(folder.path, world: StoreHarness.world(seed: 6), configuration: ServerConfiguration())
        } throws: { error in
            let error = try #require(error as? ServerStoreError)
            return error.code == .mismatch && error.message.contains("--seed 5 --users 6 --chats-per-user 3 --messages-per-chat 10")
        }
    }

    @Test func twoServersCannotShareADirectory() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        let (_, first) = try StoreHarness.open(folder)
        #expect {
            _ = try ServerDataDirectory.open(folder.path, world: StoreHarness.world(), configuration: ServerConfiguration())
        } throws: { error in
            (error as? ServerStoreError)?.message.contains("another lowband server is using the data directory") == true
        }
        _ = first
    }

    @Test func aDamagedFileIsAnErrorNamingTheTableNotACrash() throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        do { _ = try StoreHarness.open(folder) }
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: ServerDataDirectory.databasePath(in: folder.path), configuration: unchecked)
        try queue.write { db in
            try db.execute(sql: "UPDATE chat_members SET user_id = 99 WHERE chat_id = 1 AND user_id = (SELECT MIN(user_id) FROM chat_members WHERE chat_id = 1)")
        }
        #expect {
            _ = try ServerDataDirectory.open(folder.path, world: StoreHarness.world(), configuration: ServerConfiguration())
        } throws: { error in
            let error = try #require(error as? ServerStoreError)
            return error.code == .unreadable && error.message.contains("table chat_members")
        }
    }

    @Test func aStoreThatCannotCommitGetsA500AndNothingChanges() throws {
        let configuration = ServerConfiguration()
        let world = StoreHarness.world()
        let core = ServerCore(
            configuration: configuration, snapshot: ServerSnapshot(world: world, epoch: configuration.epoch),
            store: RefusingStore(), uploadStorage: MemoryUploadStorage()
        )
        var harness = StoreHarness(core: core)
        let chat = try #require(world.chats.first { $0.memberIDs.count >= 2 })
        let session = harness.core.openSession()
        let token = try #require(harness.core.token(of: chat.memberIDs[0]))
        let reply = harness.core.handle(try Frame.request(LoginRequest(token: token, lastSync: 0), sequence: 1), from: session, at: .zero)
        let error = try #require(reply.first).frame.decode(ErrorReply.self)
        #expect(error.code == .internalError && error.text.contains("disk full"))
        #expect(harness.core.userID(of: session) == nil, "a login whose sync point was not stored does not log in")
        #expect(harness.core.messages(in: chat.id) == chat.messages)
    }
}

/// A store whose disk is full.
private struct RefusingStore: ServerStore {
    func commit(_ change: ServerChange) throws(ServerStoreError) {
        throw ServerStoreError(.io, "disk full")
    }
}
