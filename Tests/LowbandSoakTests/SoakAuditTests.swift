import LowbandRunReport
@testable import LowbandSoak
import LowbandWire
import Testing

/// The soak's verdict: each kind of broken promise is counted, and a clean run counts nothing.
@Suite struct SoakAuditTests {
    /// A message the server holds; `clientID` is the writer's task id, as ``task`` makes it.
    private func message(_ chat: Int64, _ id: Int64, _ text: String, from sender: Int64 = 1, task clientID: UInt64? = nil) -> Message {
        Message(id: id, chatID: chat, senderID: sender, clientID: clientID, text: text, sentAt: 0)
    }

    private func task(_ id: Int64, _ chat: Int64, _ text: String, _ messageID: Int64?, state: String = "done") -> SoakClientDatabase.Task {
        SoakClientDatabase.Task(id: id, chatID: chat, clientID: UInt64(id), text: text, state: state, messageID: messageID)
    }

    @Test func aCleanRunPasses() {
        let server = [message(3, 10, "c00g0-0", task: 1), message(3, 11, "c01g0-0", from: 2, task: 1), message(3, 12, "c00g0-1", task: 2)]
        let first = SoakClientDatabase(path: "a", tasks: [task(1, 3, "c00g0-0", 10), task(2, 3, "c00g0-1", 12)], rows: [.init(chatID: 3, id: 10, senderID: 1, text: "c00g0-0")])
        let second = SoakClientDatabase(path: "b", tasks: [task(1, 3, "c01g0-0", 11)], rows: [])
        let audit = SoakAudit(server: server, clients: [("client c00", first), ("client c01", second)])
        #expect(audit.passed)
        #expect(audit.stored == 3 && audit.acknowledged == 3)
        #expect(audit.book.violations.isEmpty)
        #expect(audit.book.checks.map(\.name) == SoakAudit.promises, "every promise is reported, each under run's name")
        #expect(audit.book.checks.map(\.verdict) == ["held on 3 cases", "held on 3 cases", "held on 3 cases", "held on 3 cases", "held on 1 case"])
    }

    @Test func countsEveryKindOfBrokenPromise() {
        let server = [
            message(3, 10, "c00g0-0", task: 1), message(3, 11, "c00g0-0", task: 1),  // applied twice
            message(3, 12, "c00g0-2", task: 3), message(3, 13, "c00g0-1", task: 2),  // written 2 then 3, ids 13 then 12
            message(4, 5, "server text"),
        ]
        let client = SoakClientDatabase(
            path: "a",
            tasks: [
                task(1, 3, "c00g0-0", 10),
                task(2, 3, "c00g0-1", 13),
                task(3, 3, "c00g0-2", 12),
                task(4, 3, "c00g0-3", 14),  // acknowledged, not on the server
                task(5, 3, "c00g0-4", nil, state: "pending"),
            ],
            rows: [.init(chatID: 4, id: 5, senderID: 1, text: "phone text"), .init(chatID: 4, id: 6, senderID: 1, text: "ghost")])
        let audit = SoakAudit(server: server, clients: [("client c00", client)], at: 42)
        #expect(!audit.passed)
        func broken(_ name: String) -> Int? { audit.book.checks.first { $0.name == name }?.violations }
        #expect(broken("duplicated") == 1)
        #expect(broken("order") == 1)
        #expect(broken("acknowledged_kept") == 1)
        #expect(broken("outbox_not_drained") == 1)
        #expect(audit.book.checks.first { $0.name == "outbox_not_drained" }?.verdict == "broken once in 5 cases", "one case per task: broken never outnumbers cases")
        #expect(broken("cache_diverged") == 2)
        let lost = audit.book.violations.first { $0.invariant == "acknowledged_kept" }
        #expect(lost?.detail.contains("c00g0-3") == true && lost?.detail.contains("does not hold it") == true)
        #expect(lost?.client == 0 && lost?.chat == 3 && lost?.message == 14 && lost?.seconds == 42)
        // The shared checks say it in the run's words.
        #expect(audit.book.violations.contains { $0.detail == "the server stored client id 1 of user 1 twice in chat 3: messages 10 and 11" })
        #expect(audit.book.violations.contains { $0.detail == "client 0 wrote client id 2 before 3 in chat 3, but the server stored them as messages 13 and 12" })
        #expect(audit.book.checks.tally == "5 of 5 broken, 0 held")
    }
}
