import LowbandAppEvents
import LowbandProxyCore
import LowbandShaper
import Testing

/// One cause per broken case, from the affected device's own connections and bytes: the
/// decision without which it would not have broken, or that no decision touched the message.
@Suite struct CauseFinderTests {
    private func at(_ seconds: Double) -> Duration { .milliseconds(Int64((seconds * 1000).rounded())) }

    private func event(_ device: String, _ kind: AppEvent.Kind, _ message: String? = nil, _ seconds: Double) -> AppEvent {
        AppEvent(device: device, kind: kind, message: message, chat: "c-1", arrival: at(seconds))
    }

    /// A session's ledger, written as the proxies would: `on(proxy, event)`.
    private struct Ledger {
        var network = NetworkRecord()
        mutating func on(_ proxy: String, _ seconds: Double, _ kind: ProxyEvent.Kind, _ connection: Int? = nil, _ direction: Direction? = nil, bytes: Int? = nil, detail: String? = nil) {
            network.record(
                ProxyEvent(time: .milliseconds(Int64((seconds * 1000).rounded())), kind: kind, connection: connection, direction: direction, bytes: bytes, detail: detail),
                proxy: proxy, offset: .zero)
        }
        /// A connection that opens, connects and carries a handshake both ways.
        mutating func session(_ proxy: String, _ number: Int, from seconds: Double) {
            on(proxy, seconds, .open, number)
            on(proxy, seconds + 0.1, .connect, number)
            on(proxy, seconds + 0.2, .deliver, number, .upstream, bytes: 30)
            on(proxy, seconds + 0.3, .deliver, number, .downstream, bytes: 4)
        }
        func finished(at end: Double = 30, floor: NetworkRecord.Floor = NetworkRecord.Floor(up: 0, down: 0)) -> NetworkRecord {
            var network = self.network
            network.finish(at: end)
            network.floor = floor
            return network
        }
    }

    @Test func aResetOfTheRecipientsConnectionIsTheCauseWithTheGapItLeft() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 5.1, .deliver, 1, .upstream, bytes: 75)
        ledger.on("bob", 4.8, .reset, 1, detail: "fault 4: reset")
        ledger.on("bob", 4.8, .close, 1, detail: "fault 4: reset")
        ledger.session("bob", 2, from: 9)
        let events = [event("alice", .sent, "m-2", 5.0), event("alice", .acked, "m-2", 5.3)]
        let cause = CauseFinder(events: events, network: ledger.finished()).lost(message: "m-2", sender: "alice", sent: 5.0, acked: 5.3, recipient: "bob")
        #expect(cause.fault == "fault 4")
        #expect(cause.text == "bob had no working connection from 4.800 s (bob's connection 1 was reset by fault 4 at 4.800 s) to 9.300 s (connection 2); m-2 reached the server at 5.100 s, inside that gap")
    }

    @Test func bytesDroppedByAResetOfTheSendersConnectionAreTheCause() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 3.0, .outageStart, detail: "outage forced for 2 s (fault 2)")
        ledger.on("alice", 3.5, .drop, 1, .upstream, bytes: 87, detail: "fault 3: reset")
        ledger.on("alice", 3.5, .reset, 1, detail: "fault 3: reset")
        ledger.on("alice", 3.5, .close, 1, detail: "fault 3: reset")
        ledger.on("alice", 5.0, .outageEnd, detail: "outage forced")
        let events = [event("alice", .sent, "m-1", 3.2), event("alice", .acked, "m-1", 3.2)]
        let cause = CauseFinder(events: events, network: ledger.finished()).lost(message: "m-1", sender: "alice", sent: 3.2, acked: 3.2, recipient: "bob")
        #expect(cause.fault == "fault 3")
        #expect(cause.text == "the bytes alice wrote after sending m-1 at 3.200 s never reached the server: 87 B were dropped at 3.500 s when alice's connection 1 was reset by fault 3 at 3.500 s")
    }

    /// Events are stamped when they reach Lowband, a little after the app acted: a send stamped
    /// a millisecond after its connection was reset went into the dying connection.
    @Test func aSendIntoAConnectionResetJustBeforeItsStampIsTheResets() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 1.200, .reset, 1, detail: "fault 1: reset")
        ledger.on("alice", 1.200, .close, 1, detail: "fault 1: reset")
        ledger.session("alice", 2, from: 1.25)
        let events = [event("alice", .sent, "m-3", 1.201), event("alice", .acked, "m-3", 1.201)]
        let cause = CauseFinder(events: events, network: ledger.finished()).lost(message: "m-3", sender: "alice", sent: 1.201, acked: 1.201, recipient: "bob")
        #expect(cause.fault == "fault 1")
        #expect(cause.text == "alice's connection 1 was reset by fault 1 at 1.200 s, as alice sent m-3 (at 1.201 s): nothing of it reached the server")
    }

    /// Bytes the link delivers sooner than its one-way floor after a send are an earlier
    /// message's: m-2's arriving 3 ms after m-3 was sent is not m-3 reaching the server.
    @Test func anEarlierMessagesBytesAreNotTakenForThisOnes() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 1.158, .deliver, 1, .upstream, bytes: 75)
        ledger.on("bob", 1.255, .deliver, 1, .downstream, bytes: 75)
        ledger.on("alice", 1.300, .drop, 1, .upstream, bytes: 75, detail: "fault 1: reset")
        ledger.on("alice", 1.300, .reset, 1, detail: "fault 1: reset")
        ledger.on("alice", 1.300, .close, 1, detail: "fault 1: reset")
        let events = [event("alice", .sent, "m-3", 1.155), event("alice", .acked, "m-3", 1.155)]
        let network = ledger.finished(floor: NetworkRecord.Floor(up: 0.1, down: 0.1))
        let cause = CauseFinder(events: events, network: network).lost(message: "m-3", sender: "alice", sent: 1.155, acked: 1.155, recipient: "bob")
        #expect(cause.fault == "fault 1", "\(cause.text)")
        #expect(cause.text.hasPrefix("the bytes alice wrote after sending m-3 at 1.155 s never reached the server: 75 B were dropped at 1.300 s"), "\(cause.text)")
    }

    @Test func whenNoFaultTouchedTheMessageTheVerdictSaysSoPlainly() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 2.1, .deliver, 1, .upstream, bytes: 75)
        ledger.on("bob", 2.2, .deliver, 1, .downstream, bytes: 75)
        // A fault elsewhere and before: not this message's.
        ledger.on("alice", 0.5, .reset, 9, detail: "fault 1: reset")
        let events = [event("alice", .sent, "m-7", 2.0), event("alice", .acked, "m-7", 2.3)]
        let cause = CauseFinder(events: events, network: ledger.finished()).lost(message: "m-7", sender: "alice", sent: 2.0, acked: 2.3, recipient: "bob")
        #expect(!cause.networkTouched && cause.fault == nil)
        #expect(cause.text == "no fault touched m-7 on bob's link: it reached the server at 2.100 s; bob's connection 1 delivered 75 B at 2.200 s; bob's app did not show it")
    }

    @Test func onASharedLinkEachConnectionIsFoundToBeItsDevices() {
        var ledger = Ledger()
        ledger.session("mqtt", 1, from: 0)
        ledger.session("mqtt", 2, from: 0.05)
        // alice's sends go up connection 1; bob's receipts come down connection 2.
        ledger.on("mqtt", 1.05, .deliver, 1, .upstream, bytes: 40)
        ledger.on("mqtt", 1.15, .deliver, 2, .downstream, bytes: 40)
        ledger.on("mqtt", 2.05, .deliver, 1, .upstream, bytes: 40)
        ledger.on("mqtt", 2.5, .reset, 2, detail: "fault 2: reset")
        ledger.on("mqtt", 2.5, .close, 2, detail: "fault 2: reset")
        let events = [
            event("alice", .sent, "m-1", 1.0), event("alice", .acked, "m-1", 1.1), event("bob", .received, "m-1", 1.2),
            event("alice", .sent, "m-2", 2.0), event("alice", .acked, "m-2", 2.1),
        ]
        let finder = CauseFinder(events: events, network: ledger.finished())
        #expect(finder.links.connections(of: "alice").map(\.number) == [1])
        #expect(finder.links.connections(of: "bob").map(\.number) == [2])
        let cause = finder.lost(message: "m-2", sender: "alice", sent: 2.0, acked: 2.1, recipient: "bob")
        #expect(cause.fault == "fault 2")
        #expect(cause.text == "bob's connection 2 carried nothing of m-2 (it reached the server at 2.050 s) before it was reset by fault 2 at 2.500 s, 0.450 s later", "\(cause.text)")
    }

    @Test func aDuplicateAfterTheSendersConnectionWasResetNamesTheReset() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 1.2, .reset, 1, detail: "fault 1: reset")
        ledger.on("alice", 1.2, .close, 1, detail: "fault 1: reset")
        ledger.session("alice", 2, from: 1.5)
        let events = [event("alice", .sent, "m-1", 1.0), event("bob", .received, "m-1", 1.3), event("bob", .received, "m-1", 2.0)]
        let cause = CauseFinder(events: events, network: ledger.finished()).duplicated(message: "m-1", sender: "alice", sent: 1.0, device: "bob", first: 1.3, second: 2.0)
        #expect(cause.fault == "fault 1")
        #expect(cause.text.hasPrefix("alice's connection 1 was reset by fault 1 at 1.200 s after sending m-1 at 1.000 s"))
    }

    @Test func theCheckerPutsTheCauseFirstAndTheAffectedLinkFirstInTheContext() {
        var ledger = Ledger()
        ledger.session("alice", 1, from: 0)
        ledger.session("bob", 1, from: 0)
        ledger.on("alice", 5.0, .partition, nil, .downstream, detail: "fault 1")
        ledger.on("alice", 6.0, .heal, nil, .downstream, detail: "fault 1")
        ledger.on("alice", 5.1, .deliver, 1, .upstream, bytes: 75)
        ledger.on("bob", 4.8, .reset, 1, detail: "fault 4: reset")
        ledger.on("bob", 4.8, .close, 1, detail: "fault 4: reset")
        ledger.on("bob", 5.5, .toxicAdded, nil, .downstream, detail: "fault-5-latency: latency jitter=0 latency=900")
        let events = [
            event("bob", .connected, nil, 0.3), event("alice", .connected, nil, 0.3),
            event("alice", .sent, "m-2", 5.0), event("alice", .acked, "m-2", 5.3), event("bob", .disconnected, nil, 4.9), event("bob", .connected, nil, 9.4),
        ]
        let book = EventChecker(events: events, network: ledger.finished(), bounds: EventBounds(settle: .seconds(5), liveness: .seconds(60)), end: 30).check()
        let violation = book.violations.first { $0.invariant == "acknowledged_lost" }
        #expect(violation?.causeFault == "fault 4")
        #expect(violation?.detail.contains("; cause: bob had no working connection from 4.800 s") == true, "\(violation?.detail ?? "")")
        // The context starts with bob's link, not with alice's partition that came first, and
        // does not repeat the reset the cause names.
        let context = violation?.detail.components(separatedBy: "; also near: ").last ?? ""
        #expect(context == "toxic latency downstream 5.5–30.0 s on bob (fault 5); partition downstream 5.0–6.0 s on alice (fault 1)", "\(context)")
    }
}
