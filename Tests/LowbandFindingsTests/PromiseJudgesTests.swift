import LowbandFindings
import Testing

/// The judges `lowband run` and an app's events share: the rules each producer relies on.
@Suite struct PromiseJudgesTests {
    private func delivery(_ recipient: PromiseBook.Recipient) -> PromiseBook.Delivery {
        PromiseBook.Delivery(message: "message 7", chat: "chat 1", confirmed: 10, confirmedHow: "stored by the server", place: PromiseBook.Place(chat: 1, message: 7), recipients: [recipient])
    }

    private func lost(_ recipient: PromiseBook.Recipient, end: Double = 100) -> PromiseBook {
        var book = PromiseBook()
        book.checkDelivered([delivery(recipient)], settle: 5, end: end)
        return book
    }

    @Test func aGapIsForgivenOnlyToADeviceThatWasAway() throws {
        let stayed = lost(PromiseBook.Recipient(device: "bob", client: 1, connected: Stretches([0 ..< 100]), has: false, knowsOfGap: true))
        #expect(stayed.checks.map { [$0.checked, $0.violations] } == [[1, 1]])
        let violation = try #require(stayed.violations.first)
        #expect(violation.seconds == 15 && violation.client == 1 && violation.message == 7)
        #expect(violation.detail == "bob never got message 7 of chat 1 (stored by the server at 10.000 s), though it was connected from 10.000 s to 15.000 s (the settle time, 5.000 s)")

        let away = Stretches([0 ..< 8, 30 ..< 100])
        #expect(lost(PromiseBook.Recipient(device: "bob", connected: away, has: false, knowsOfGap: true)).violations.isEmpty)
        let forgot = lost(PromiseBook.Recipient(device: "bob", connected: away, has: false, knowsOfGap: false))
        #expect(forgot.violations.first?.seconds == 35)
        #expect(forgot.violations.first?.detail.contains("connected again at 30.000 s and stayed until 35.000 s") == true)
    }

    @Test func aDeviceNeverConnectedForTheSettleTimeIsNotJudgedUnlessItCaughtUp() {
        let brief = Stretches([0 ..< 8, 40 ..< 43])
        #expect(lost(PromiseBook.Recipient(device: "bob", connected: brief, has: false)).checks.first?.checked == 0)
        let caughtUp = lost(PromiseBook.Recipient(device: "bob", connected: brief, has: false, caughtUp: 40.5))
        #expect(caughtUp.checks.first.map { [$0.checked, $0.violations] } == [1, 1])
        #expect(caughtUp.violations.first?.seconds == 40.5)
        // A catch-up that began before the message was confirmed says nothing about it.
        #expect(lost(PromiseBook.Recipient(device: "bob", connected: brief, has: false, caughtUp: 9)).checks.first?.checked == 0)
    }

    @Test func livenessCountsDeliveringTimeAndJudgesAnUnansweredSendOnlyOnceItWaited() throws {
        let delivering = Stretches([0 ..< 12, 20 ..< 100])
        func send(_ sent: Double, acked: Double?) -> PromiseBook.Send {
            PromiseBook.Send(device: "alice", message: "client id 3", chat: "chat 1", sent: sent, acked: acked, delivering: delivering, place: PromiseBook.Place(client: 0, chat: 1, clientID: 3))
        }
        var book = PromiseBook()
        // 2 s before the outage and 7 s after it: 9 s, under the bound of 10 s.
        book.checkLiveness([send(10, acked: 27), send(95, acked: nil), send(30, acked: nil)], bound: 10, end: 100)
        #expect(book.checks.map { [$0.checked, $0.violations] } == [[2, 1]])
        let violation = try #require(book.violations.first)
        #expect(violation.seconds == 40 && violation.clientID == 3)
        #expect(violation.detail.hasSuffix("waited more than 10.000 s while connected on a delivering link: never acknowledged"))
    }

    @Test func aHoldingCountsEachMessageOnceAndNamesTheSecondCopy() throws {
        var book = PromiseBook()
        let place = PromiseBook.Place(client: 2, chat: 4)
        let items: [(key: String, message: String, at: Double, place: PromiseBook.Place)] = [
            ("1/5", "message 9", 50, place), ("1/6", "message 10", 50, place), ("1/5", "client id 5 (as its local echo)", 50, place),
        ]
        let tally = book.checkHeldOnce([PromiseBook.Holding(device: "client 2", verb: "'s screen of chat 4 shows", items: items)])
        #expect(tally.checked == 2 && tally.broken == 1)
        #expect(try #require(book.violations.first).detail == "client 2's screen of chat 4 shows client id 5 (as its local echo) twice")
    }

    @Test func aSequenceIsJudgedOnTheMessagesItSharesWithTheReference() throws {
        var book = PromiseBook()
        let place = PromiseBook.Place()
        func sequence(_ keys: [String]) -> PromiseBook.Sequence {
            PromiseBook.Sequence(device: "bob", chat: "chat 1", items: keys.enumerated().map { ($1, "message \($1)", Double($0), place) })
        }
        let tally = book.checkSameOrder([sequence(["a", "x", "c", "b"]), sequence(["a"]), sequence(["a", "b"])], reference: ("the server", ["a", "b", "c"]))
        #expect(tally.checked == 2 && tally.broken == 1)
        #expect(try #require(book.violations.first).detail == "bob has message b after message c in chat 1; the server has them the other way round")
    }
}
