import LowbandAppEvents
import Testing

@Suite struct AppEventReaderTests {
    @Test func readsTheDocumentedLine() throws {
        let event = try #require(try AppEventReader.event(#"{"device":"alice","kind":"sent","message":"m-17","chat":"c-1","t":12.5}"#, arrival: .seconds(3)))
        #expect(event == AppEvent(device: "alice", kind: .sent, message: "m-17", chat: "c-1", appMilliseconds: 12.5, arrival: .seconds(3)))
        #expect(AppEventReader.line(event) == #"{"device":"alice","kind":"sent","message":"m-17","chat":"c-1","t":12.5,"at":3.000000}"#)
    }

    @Test func numericIDsAndUnknownKeysAreTaken() throws {
        let event = try #require(try AppEventReader.event(#"{"device":"bob","kind":"received","message":17,"chat":1,"extra":[1]}"#, arrival: .zero))
        #expect(event.message == "17")
        #expect(event.chat == "1")
    }

    @Test func anUnknownKindNamesTheKnownOnes() {
        #expect {
            try AppEventReader.event(#"{"device":"alice","kind":"delivered","message":"m"}"#, number: 4, arrival: .zero)
        } throws: { error in
            "\(error)" == "line 4: unknown kind 'delivered'; known kinds: sent, acked, received, shown, stored, connected, disconnected"
        }
    }

    @Test(arguments: [
        (#"not json"#, "not JSON"),
        (#"[1,2]"#, "not a JSON object"),
        (#"{"kind":"sent","message":"m"}"#, "'device' is missing or empty"),
        (#"{"device":"a","kind":"acked"}"#, "a 'acked' event needs a 'message'"),
        (#"{"device":"a","kind":"sent","message":"m","t":"soon"}"#, "'t' must be a number of milliseconds"),
        (#"{"device":true,"kind":"sent","message":"m"}"#, "'device' must be a string"),
    ])
    func badLinesSayWhatIsWrong(line: String, reason: String) {
        #expect {
            try AppEventReader.event(Substring(line), number: 2, arrival: .zero)
        } throws: { error in
            "\(error)".hasPrefix("line 2: \(reason)")
        }
    }

    @Test func sizesAreCappedBeforeUse() {
        let long = String(repeating: "x", count: AppEventReader.maximumLineBytes)
        #expect(throws: AppEventReader.Failure.self) { try AppEventReader.event(Substring(#"{"device":"\#(long)"}"#), arrival: .zero) }
        let id = String(repeating: "d", count: AppEventReader.maximumIDLength + 1)
        #expect {
            try AppEventReader.event(Substring(#"{"device":"\#(id)","kind":"connected"}"#), arrival: .zero)
        } throws: { error in
            "\(error)".contains("at most \(AppEventReader.maximumIDLength)")
        }
    }

    @Test func blankLinesAreSkippedAndABadLineTakesNothing() throws {
        let events = try AppEventReader.events("{\"device\":\"a\",\"kind\":\"connected\"}\n\n  \n", arrival: .zero)
        #expect(events.count == 1)
        let log = AppEventLog { .zero }
        #expect(throws: AppEventReader.Failure.self) {
            try log.append(lines: "{\"device\":\"a\",\"kind\":\"connected\"}\n{\"device\":\"a\",\"kind\":\"nope\"}")
        }
        #expect(log.events.isEmpty)
    }
}

@Suite struct AppEventLogTests {
    @Test func aMessageIDIsOneMessage() throws {
        let log = AppEventLog { .zero }
        try log.append(lines: #"{"device":"a","kind":"sent","message":"m-1","chat":"c-1"}"#)
        #expect {
            try log.append(lines: #"{"device":"b","kind":"received","message":"m-1","chat":"c-2"}"#)
        } throws: { error in
            "\(error)".contains("message 'm-1' was named in chat 'c-1' before")
        }
        #expect(log.events.count == 1)
    }

    @Test func theNthEventOfAKindIsFoundByItsArrival() throws {
        let clock = ManualClock()
        let log = AppEventLog { clock.now }
        try log.append(lines: #"{"device":"a","kind":"sent","message":"m-1","chat":"c"}"#)
        clock.now = .seconds(2)
        try log.append(lines: #"{"device":"a","kind":"acked","message":"m-1","chat":"c"}"# + "\n" + #"{"device":"a","kind":"sent","message":"m-2","chat":"c"}"#)
        #expect(log.arrival(of: .sent, occurrence: 1) == .zero)
        #expect(log.arrival(of: .sent, occurrence: 2) == .seconds(2))
        #expect(log.arrival(of: .sent, occurrence: 3) == nil)
        #expect(log.arrival(of: .shown, occurrence: 1) == nil)
    }

    @Test func aFloodIsCappedPerSecondAndCounted() throws {
        let log = AppEventLog(limits: .init(perSecond: 10, total: 100)) { .milliseconds(1500) }
        let lines = (0 ..< 25).map { #"{"device":"a","kind":"sent","message":"m-\#($0)","chat":"c"}"# }.joined(separator: "\n")
        let outcome = try log.append(lines: lines)
        #expect(outcome.accepted == 10)
        #expect(outcome.dropped == 15)
        #expect(log.dropped == 15)
        #expect(log.events.map(\.message) == (0 ..< 10).map { "m-\($0)" })
    }
}

/// A clock a test sets by hand.
final class ManualClock: @unchecked Sendable {
    var now: Duration = .zero
}
