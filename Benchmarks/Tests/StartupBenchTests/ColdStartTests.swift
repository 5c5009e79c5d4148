import StartupBench
import Testing

@Suite struct ColdStartTests {
    @Test func theEngineShowsTheNewestMessageOfEveryChatAsTheRawQueryDoes() throws {
        let cache = try ColdStartCache.create()
        defer { cache.remove() }
        let counts = try cache.storedCounts()
        #expect(counts.messages == 10_000)
        #expect(counts.chats == 100)
        #expect(counts.pendingTasks == cache.expectedPendingTasks)
        #expect(cache.expectedPendingTasks == 10, "8 sends, 2 with an upload")

        let screen = try EngineColdStart(databasePath: cache.path).run()
        #expect(screen.chats.count == 100)
        #expect(screen.chats == cache.expectedChats)
        #expect(screen.pendingTasks.count == cache.expectedPendingTasks)

        let raw = try RawChatListQuery(path: cache.path).run()
        #expect(raw == screen.chats.map(ChatListRow.init))
        #expect(raw.allSatisfy { $0.lastMessageID != nil })

        // A second launch on the same file shows the same screen: the cold start changes nothing.
        #expect(try EngineColdStart(databasePath: cache.path).run().chats == cache.expectedChats)
    }

    @Test func messagesAreSpreadOverChatsLikeARealPhone() throws {
        let shape = ColdStartCache.Shape(messages: 600, chats: 30, contacts: 20, outboxMessages: 4)
        let perChat = shape.messagesPerChat
        #expect(perChat.count == 30 && perChat.reduce(0, +) == 600 && perChat.allSatisfy { $0 >= 1 })
        #expect(perChat[0] > 5 * perChat[29], "a few busy chats, many quiet ones: \(perChat)")
        #expect(ColdStartCache.Shape().messagesPerChat.reduce(0, +) == 10_000)

        let cache = try ColdStartCache.create(shape)
        defer { cache.remove() }
        let counts = try cache.storedCounts()
        #expect(counts.messages == 600 && counts.chats == 30 && counts.pendingTasks == 5)
        #expect(Set(cache.expectedChats.map(\.id)) == Set(1 ... 30))
    }

    @Test func theRawQueryReportsAMissingFile() {
        #expect(throws: StartupBenchError.self) {
            try RawChatListQuery(path: "/nonexistent/lowband/cache.sqlite").run()
        }
    }
}
