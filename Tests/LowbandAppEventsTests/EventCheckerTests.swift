import LowbandAppEvents
import LowbandProxyCore
import LowbandShaper
import Testing

/// The checker on hand-written sessions: each promise held, and each broken with the words a
/// user reads.
@Suite struct EventCheckerTests {
    private func event(_ device: String, _ kind: AppEvent.Kind, _ message: String? = nil, chat: String? = "c-1", at seconds: Double) -> AppEvent {
        AppEvent(device: device, kind: kind, message: message, chat: kind == .connected || kind == .disconnected ? chat : chat, arrival: .milliseconds(Int64(seconds * 1000)))
    }

    private let bounds = EventBounds(settle: .seconds(5), liveness: .seconds(5))

    private func check(_ events: [AppEvent], network: NetworkRecord = NetworkRecord(), end: Double = 60) -> [String: (checked: Int, broken: Int)] {
        let book = EventChecker(events: events, network: network, bounds: bounds, end: end).check()
        return Dictionary(uniqueKeysWithValues: book.checks.map { ($0.name, ($0.checked, $0.violations)) })
    }

    @Test func aCleanSessionHoldsEveryPromise() {
        let events = [
            event("alice", .connected, at: 0), event("bob", .connected, at: 0),
            event("alice", .sent, "m-1", at: 1), event("alice", .acked, "m-1", at: 1.2), event("bob", .shown, "m-1", at: 1.4),
            event("alice", .sent, "m-2", at: 2), event("alice", .acked, "m-2", at: 2.2), event("bob", .shown, "m-2", at: 2.4),
        ]
        let result = check(events)
        #expect(result["acknowledged_lost"]! == (2, 0))
        #expect(result["duplicated"]! == (2, 0))
        #expect(result["order"]! == (1, 0))
        #expect(result["liveness"]! == (2, 0))
    }

    @Test func anAcknowledgedMessageNeverShownIsLostWithTheNetworkNamed() {
        var network = NetworkRecord()
        network.record(ProxyEvent(time: .milliseconds(1100), kind: .reset, connection: 3, detail: "fault"), proxy: "mqtt", offset: .zero)
        network.finish(at: 60)
        let events = [
            event("alice", .connected, at: 0), event("bob", .connected, at: 0),
            event("alice", .sent, "m-1", at: 1), event("alice", .acked, "m-1", at: 1.05),
        ]
        let book = EventChecker(events: events, network: network, bounds: bounds, end: 60).check()
        let violation = book.violations.first
        #expect(violation?.invariant == "acknowledged_lost")
        #expect(violation?.detail.contains("bob never got message m-1 of chat c-1") == true)
        #expect(violation?.detail.contains("reset at 1.1 s on mqtt (connection 3)") == true)
    }

    @Test func aMemberThatLeftBeforeTheSettleBoundIsNotJudged() {
        let events = [
            event("alice", .connected, at: 0), event("bob", .connected, at: 0),
            event("alice", .sent, "m-1", at: 1), event("alice", .acked, "m-1", at: 1.1), event("bob", .disconnected, at: 2),
        ]
        #expect(check(events)["acknowledged_lost"]! == (0, 0))
    }

    @Test func aMessageShownTwiceIsADuplicate() {
        let events = [
            event("alice", .sent, "m-1", at: 1), event("alice", .acked, "m-1", at: 1.1),
            event("bob", .shown, "m-1", at: 1.3), event("bob", .shown, "m-1", at: 9),
        ]
        let book = EventChecker(events: events, network: NetworkRecord(), bounds: bounds, end: 60).check()
        #expect(book.checks.first { $0.name == "duplicated" }?.violations == 1)
        #expect(book.violations.first?.detail.hasPrefix("bob showed message m-1 of chat c-1 twice, at 1.300 s, 9.000 s") == true)
    }

    @Test func devicesThatDisagreeOnOrderBreakIt() {
        let events = [
            event("alice", .sent, "m-1", at: 1), event("alice", .sent, "m-2", at: 2), event("alice", .sent, "m-3", at: 3),
            event("bob", .received, "m-1", at: 3.5), event("bob", .received, "m-3", at: 4), event("bob", .received, "m-2", at: 5),
        ]
        let book = EventChecker(events: events, network: NetworkRecord(), bounds: bounds, end: 60).check()
        #expect(book.checks.first { $0.name == "order" }.map { ($0.checked, $0.violations) }! == (1, 1))
        #expect(book.violations.first?.detail.hasPrefix("bob has message m-2 after message m-3 in chat c-1; alice has them the other way round") == true)
    }

    @Test func livenessCountsOnlyTimeTheLinkDelivered() {
        var network = NetworkRecord()
        network.record(ProxyEvent(time: .seconds(1), kind: .outageStart, detail: "blackout"), proxy: "p", offset: .zero)
        network.record(ProxyEvent(time: .seconds(20), kind: .outageEnd), proxy: "p", offset: .zero)
        network.finish(at: 60)
        let slowButExcused = [event("alice", .sent, "m-1", at: 1), event("alice", .acked, "m-1", at: 22)]
        #expect(check(slowButExcused, network: network)["liveness"]! == (1, 0))
        let neverAcked = [event("alice", .sent, "m-1", at: 30)]
        #expect(check(neverAcked, network: network)["liveness"]! == (1, 1))
        let tooSoonToJudge = [event("alice", .sent, "m-1", at: 57)]
        #expect(check(tooSoonToJudge, network: network)["liveness"]! == (0, 0))
    }

    @Test func boundsComeFromTheProfileAndCanBeOverridden() throws {
        var bounds = EventBounds(settle: .seconds(40), liveness: .seconds(40))
        try bounds.apply("settle=5s")
        #expect(bounds.settle == .seconds(5))
        #expect(throws: EventBounds.BoundError.self) { try bounds.apply("patience=5s") }
        #expect(throws: EventBounds.BoundError.self) { try bounds.apply("settle=soon") }
    }
}

/// Where a message's time went, from the events and the proxies' decisions.
@Suite struct EventBreakdownTests {
    @Test func thePartsAddUpAndNameTheOutageTheStallAndTheQueue() throws {
        var network = NetworkRecord()
        network.record(ProxyEvent(time: .seconds(2), kind: .outageStart, detail: "blackout"), proxy: "p", offset: .zero)
        network.record(ProxyEvent(time: .seconds(5), kind: .outageEnd), proxy: "p", offset: .zero)
        network.record(ProxyEvent(time: .seconds(6), kind: .lossStall, duration: .milliseconds(500)), proxy: "p", offset: .zero)
        // Bytes waited 1.5 s, ending at 7 s: 0.5 s of it inside the stall counts as the stall.
        network.record(ProxyEvent(time: .seconds(7), kind: .queue, connection: 1, direction: .downstream, duration: .milliseconds(1500)), proxy: "p", offset: .zero)
        network.finish(at: 60)
        #expect(network.describe(from: 5, to: 8).contains("bytes waited for the link for 1.5 s"))
        let events = [
            AppEvent(device: "alice", kind: .sent, message: "m-1", chat: "c", arrival: .seconds(1)),
            AppEvent(device: "alice", kind: .acked, message: "m-1", chat: "c", arrival: .milliseconds(1100)),
            AppEvent(device: "bob", kind: .received, message: "m-1", chat: "c", arrival: .seconds(8)),
            AppEvent(device: "bob", kind: .received, message: "m-1", chat: "c", arrival: .seconds(9)),
        ]
        let rows = EventBreakdown.compute(events: events, network: network, roundTrip: .milliseconds(400))
        #expect(rows.map(\.leg) == ["acked", "bob"])
        let bob = rows[1]
        #expect(bob.totalMilliseconds == 7000)
        #expect(bob.linkDownMilliseconds == 3000)
        #expect(bob.lossStallMilliseconds == 500)
        #expect(abs(bob.queueingMilliseconds - 1000) < 0.001)
        #expect(bob.transitMilliseconds == 400)
        #expect(abs(bob.appMilliseconds - 2100) < 0.001)
        // The acknowledgement came before the outage: transit and app only.
        #expect(abs(rows[0].transitMilliseconds - 100) < 0.001 && rows[0].appMilliseconds < 0.001)
        let text = ([EventBreakdown.csvHeader] + rows.map(\.csvLine)).joined(separator: "\n") + "\n"
        let parsed = try EventBreakdown.parse(text, file: "b.csv")
        #expect(parsed.map(\.leg) == ["acked", "bob"])
        #expect(parsed[1].parts.map(\.name) == ["link down", "loss stalls", "queueing", "transit", "app"])
        #expect(zip(parsed[1].parts, bob.parts).allSatisfy { abs($0.milliseconds - $1.milliseconds) < 0.05 })
        #expect(throws: EventBreakdown.ParseFailure.self) { try EventBreakdown.parse("h\nx,y\n", file: "b.csv") }
    }

    /// Each message's time is split from its own bytes' path: a loss planted on alice's uplink
    /// while she sends m-1 is m-1's, never bob's m-2 sent in the same window over his own link,
    /// nor the downstream half of m-1's own acknowledgement.
    @Test func aLossIsBlamedOnTheMessageWhoseBytesItHeldAndNoOther() {
        var network = NetworkRecord()
        func on(_ proxy: String, _ seconds: Double, _ kind: ProxyEvent.Kind, _ connection: Int? = nil, _ direction: Direction? = nil, bytes: Int? = nil, duration: Duration? = nil) {
            network.record(
                ProxyEvent(time: .milliseconds(Int64((seconds * 1000).rounded())), kind: kind, connection: connection, direction: direction, bytes: bytes, duration: duration),
                proxy: proxy, offset: .zero)
        }
        for device in ["alice", "bob"] {
            on(device, 0, .open, 1)
            on(device, 0.1, .connect, 1)
        }
        // m-1: alice's piece is lost at 1.0 s, her uplink stalls 1.0 s, it arrives at 2.1 s.
        on("alice", 1.0, .lossStall, 1, .upstream, duration: .seconds(1))
        on("alice", 2.1, .deliver, 1, .upstream, bytes: 75)
        on("alice", 2.2, .deliver, 1, .downstream, bytes: 4)
        // m-2: bob sends at 1.2 s over his own link, nothing lost; acknowledged at 1.42 s.
        on("bob", 1.31, .deliver, 1, .upstream, bytes: 75)
        on("bob", 1.41, .deliver, 1, .downstream, bytes: 4)
        // m-1's acknowledgement waits on the server until 3.0 s, during a stall of another
        // connection's downlink: not m-1's.
        on("alice", 2.3, .lossStall, 2, .downstream, duration: .milliseconds(600))
        network.finish(at: 10)
        let events = [
            AppEvent(device: "alice", kind: .sent, message: "m-1", chat: "c", arrival: .seconds(1)),
            AppEvent(device: "bob", kind: .sent, message: "m-2", chat: "c", arrival: .milliseconds(1200)),
            AppEvent(device: "bob", kind: .acked, message: "m-2", chat: "c", arrival: .milliseconds(1420)),
            AppEvent(device: "alice", kind: .acked, message: "m-1", chat: "c", arrival: .seconds(3)),
        ]
        let rows = EventBreakdown.compute(events: events, network: network, roundTrip: .milliseconds(200))
        let first = rows.first { $0.message == "m-1" }!
        let second = rows.first { $0.message == "m-2" }!
        #expect(first.lossStallMilliseconds == 1000, "\(first)")
        #expect(abs(first.transitMilliseconds - 200) < 0.001 && abs(first.appMilliseconds - 800) < 0.001, "\(first)")
        // Bob's acknowledgement: all transit, no stall, though alice's stall covered its window.
        #expect(second.lossStallMilliseconds == 0, "\(second)")
        #expect(abs(second.transitMilliseconds - 200) < 0.001 && abs(second.appMilliseconds - 20) < 0.001, "\(second)")
    }
}
