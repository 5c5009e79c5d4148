import LowbandClient
import LowbandTestSupport
import LowbandWire
import Testing

/// Our own message stored live after a login, older than the chat's last message: the reply to
/// a send that the server stored but whose reply was lost with its link, answered again after
/// the next login (`lowband run --scenario crowd --profile edge --seed 134 --clients 5
/// --duration 600s --virtual-time --faults outage,reset,server-restart`, chat_list_mismatch).
@Suite struct LateOwnReplyTests {
    let directory: TemporaryDirectory
    let database: CacheDatabase

    init() throws {
        directory = try TemporaryDirectory()
        database = try CacheDatabase(path: directory.file("cache.sqlite"))
    }

    private func message(_ id: Int64, from sender: Int64, at sentAt: ServerTime) -> Message {
        Message(id: id, chatID: 1, senderID: sender, text: "m\(id)", sentAt: sentAt)
    }

    private func login(at serverTime: ServerTime, unread: Int, last: Message) -> LoginReply {
        let chat = Chat(id: 1, kind: .group, title: "g", memberIDs: [1, 2, 3], unreadCount: unread, lastMessage: last, updatedAt: last.sentAt)
        return LoginReply(userID: 1, serverTime: serverTime, settings: nil, contacts: [], chats: [chat])
    }

    private func state() throws -> ReadStore.ChatReadState? {
        try ReadStore(writer: database.writer).state(chatID: 1)
    }

    /// The server stored our 13 before the second login, so that login's count (14 and 15)
    /// already counts from 13: the late reply moves the position and leaves the count.
    @Test func ourMessageTheLoginAlreadyCountedLeavesTheCount() throws {
        let sync = SyncStore(writer: database.writer)
        let store = MessageStore(writer: database.writer)
        try sync.apply(login: login(at: 100, unread: 0, last: message(10, from: 1, at: 90)))
        try store.applyLive(message(11, from: 2, at: 110))
        try store.applyLive(message(12, from: 3, at: 120))
        #expect(try state()?.unreadCount == 2)
        // 13 (ours, stored at 130), 14 and 15 never arrive; the next login names 15 only.
        try sync.apply(login: login(at: 200, unread: 2, last: message(15, from: 3, at: 150)))
        try store.applyLive(message(13, from: 1, at: 130))  // the resend's reply
        #expect(try state()?.unreadCount == 2)  // was 1: 11 and 12 were taken off a second time
        #expect(try state()?.readUpTo == 13)
        #expect(try state()?.acknowledgedUpTo == 13)
    }

    /// The same session: our send timed out and was retried, and 14 arrived before the
    /// retry's reply. The count still counts from the old position, so 13 recounts it.
    @Test func ourMessageStoredAfterTheLoginStillRecounts() throws {
        let sync = SyncStore(writer: database.writer)
        let store = MessageStore(writer: database.writer)
        try sync.apply(login: login(at: 100, unread: 0, last: message(10, from: 1, at: 90)))
        try store.applyLive(message(11, from: 2, at: 110))
        try store.applyLive(message(12, from: 3, at: 120))
        try store.applyLive(message(14, from: 2, at: 140))
        #expect(try state()?.unreadCount == 3)
        try store.applyLive(message(13, from: 1, at: 130))
        #expect(try state()?.unreadCount == 1)
        #expect(try state()?.readUpTo == 13)
    }
}
