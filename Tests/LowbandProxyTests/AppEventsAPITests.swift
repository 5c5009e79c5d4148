import Foundation
import LowbandAppEvents
import LowbandProxy
import Testing

/// `POST /events` over real HTTP: an app's events stamped on arrival, and every bad input
/// answered with what was wrong while the session keeps what it had.
@Suite(.timeLimit(.minutes(5))) struct AppEventsAPITests {
    private func withServer(events: AppEventLog?, maximumBody: Int = 1024 * 1024, _ body: (Int) async throws -> Void) async throws {
        try await ControlServerHarness.withServer(.init(maximumBodyBytes: maximumBody, events: events), body)
    }

    @Test func eventsAreTakenStampedAndReadBack() async throws {
        let log = AppEventLog()
        try await withServer(events: log) { port in
            let lines = """
                {"device":"alice","kind":"sent","message":"m-17","chat":"c-1","t":1000}
                {"device":"alice","kind":"acked","message":"m-17","chat":"c-1"}
                """
            let posted = try await HTTPTestClient.request("POST", "/events", port: port, body: lines)
            #expect(posted.status == 200, "\(posted.text)")
            #expect(posted.object?["accepted"] as? Int == 2)
            let one = try await HTTPTestClient.request("POST", "/events", port: port, body: #"{"device":"bob","kind":"shown","message":"m-17","chat":"c-1"}"#)
            #expect(one.status == 200)
            #expect(log.events.map(\.kind) == [.sent, .acked, .shown])
            // Stamped with the session's clock on arrival: in order, never before the session.
            #expect(log.events.map(\.arrival) == log.events.map(\.arrival).sorted())
            let read = try await HTTPTestClient.request("GET", "/events", port: port)
            #expect(read.status == 200)
            #expect(read.text.split(separator: "\n").count == 3)
            #expect(read.text.hasPrefix(#"{"device":"alice","kind":"sent","message":"m-17","chat":"c-1","t":1000.0,"at":"#))
        }
    }

    @Test func badEventsAreRefusedWithTheReasonAndNothingIsLost() async throws {
        let log = AppEventLog()
        try await withServer(events: log, maximumBody: 4096) { port in
            let good = try await HTTPTestClient.request("POST", "/events", port: port, body: #"{"device":"alice","kind":"sent","message":"m-1","chat":"c-1"}"#)
            #expect(good.status == 200)

            let unknown = try await HTTPTestClient.request("POST", "/events", port: port, body: "{\"device\":\"a\",\"kind\":\"connected\"}\n{\"device\":\"a\",\"kind\":\"read\",\"message\":\"m-1\"}")
            #expect(unknown.status == 400)
            #expect(unknown.object?["error"] as? String == "POST /events, line 2: unknown kind 'read'; known kinds: sent, acked, received, shown, stored, connected, disconnected; nothing of this request was kept")

            let otherChat = try await HTTPTestClient.request("POST", "/events", port: port, body: #"{"device":"bob","kind":"received","message":"m-1","chat":"c-2"}"#)
            #expect(otherChat.status == 400)
            #expect((otherChat.object?["error"] as? String)?.contains("message 'm-1' was named in chat 'c-1' before") == true)

            let large = try await HTTPTestClient.request("POST", "/events", port: port, body: String(repeating: " ", count: 5000))
            #expect(large.status == 413)

            // Only the good event was kept; the API still answers.
            #expect(log.events.count == 1)
            #expect(try await HTTPTestClient.request("GET", "/version", port: port).status == 200)
        }
    }

    @Test func aFloodIsCappedCountedAndReported() async throws {
        let log = AppEventLog(limits: .init(perSecond: 50, total: 1000))
        try await withServer(events: log) { port in
            let lines = (0 ..< 200).map { #"{"device":"a","kind":"sent","message":"m-\#($0)","chat":"c"}"# }.joined(separator: "\n")
            let flood = try await HTTPTestClient.request("POST", "/events", port: port, body: lines)
            #expect(flood.status == 429)
            #expect((flood.object?["error"] as? String)?.contains("at most 50 a second") == true)
            #expect(log.events.count <= 50)
            #expect(log.dropped >= 150)
        }
    }

    @Test func withoutASessionTheRouteSaysWhereEventsGo() async throws {
        try await withServer(events: nil) { port in
            let answer = try await HTTPTestClient.request("POST", "/events", port: port, body: #"{"device":"a","kind":"connected"}"#)
            #expect(answer.status == 404)
            #expect((answer.object?["error"] as? String)?.contains("lowband explore --exec") == true)
        }
    }
}
