import LowbandAppEvents
import LowbandProxyCore
import LowbandShaper
import Testing

/// Causes read from a packet link's record (`explore --shell`): one link, `shell`, that all the
/// devices share, with each TCP connection as the shell saw it, and segments it dropped (which
/// TCP sends again) kept apart from bytes a proxy discarded.
@Suite struct PacketLinkCauseTests {
    private func on(_ network: inout NetworkRecord, _ seconds: Double, _ kind: ProxyEvent.Kind, _ connection: Int? = nil, _ direction: Direction? = nil, bytes: Int? = nil, detail: String? = nil) {
        network.record(
            ProxyEvent(time: .milliseconds(Int64((seconds * 1000).rounded())), kind: kind, connection: connection, direction: direction, bytes: bytes, detail: detail),
            proxy: "shell", offset: .zero)
    }

    /// alice on connection 1 sends m-1 (up at 1.0 s, acknowledged at 1.1 s); bob is connected on
    /// connection 2 from 0.7 s.
    private func session(_ more: (inout NetworkRecord) -> Void) -> (events: [AppEvent], network: NetworkRecord) {
        var network = NetworkRecord()
        for (number, start) in [(1, 0.0), (2, 0.5)] {
            on(&network, start, .open, number, .upstream)
            on(&network, start + 0.05, .connect, number, .downstream)
            on(&network, start + 0.1, .deliver, number, .upstream, bytes: 12)
            on(&network, start + 0.15, .deliver, number, .downstream, bytes: 8)
        }
        on(&network, 1.0, .deliver, 1, .upstream, bytes: 6)
        on(&network, 1.05, .deliver, 1, .downstream, bytes: 8)
        more(&network)
        network.finish(at: 4)
        let events = [
            AppEvent(device: "alice", kind: .connected, chat: "c-1", arrival: .milliseconds(200)),
            AppEvent(device: "bob", kind: .connected, chat: "c-1", arrival: .milliseconds(700)),
            AppEvent(device: "alice", kind: .sent, message: "m-1", chat: "c-1", arrival: .milliseconds(990)),
            AppEvent(device: "alice", kind: .acked, message: "m-1", chat: "c-1", arrival: .milliseconds(1100)),
        ]
        return (events, network)
    }

    @Test func anOutageThatBeginsJustAfterTheServerGotTheMessageIsTheCause() {
        let (events, network) = session { network in
            on(&network, 1.2, .outageStart, detail: "outage forced for 3.000 s (fault 1)")
            on(&network, 3.5, .drop, detail: "packet queue-full")
        }
        let cause = CauseFinder(events: events, network: network).lost(message: "m-1", sender: "alice", sent: 0.99, acked: 1.1, recipient: "bob")
        #expect(cause.text == "nothing came down bob's connection 2 after m-1 reached the server at 1.000 s, and bob's link was down from 1.200 s (fault 1's outage 1.200–4.000 s on shell)")
        #expect(cause.fault == "fault 1")
        #expect(network.describe(from: 0, to: 4) == "outage 1.2–4.0 s on shell (fault 1); 1 packet dropped on shell (queue-full 1), 3.5–3.5 s")
    }

    @Test func segmentsTheLinkDroppedOnTheRecipientsConnectionAreTheCauseNotBytesDiscarded() {
        let (events, network) = session { network in
            for at in [1.3, 1.9] {
                on(&network, at, .drop, detail: "packet loss")
                on(&network, at, .drop, 2, .downstream, bytes: 12, detail: "packet loss")
            }
        }
        #expect(network.transfers.allSatisfy { !$0.dropped }, "a segment's drop is no proxy's discard")
        let cause = CauseFinder(events: events, network: network).lost(message: "m-1", sender: "alice", sent: 0.99, acked: 1.1, recipient: "bob")
        #expect(cause.text == "nothing came down bob's connection 2 after m-1 reached the server at 1.000 s: the link dropped 2 of its segments from 1.300 s (loss 2), which TCP sends again")
        #expect(cause.fault == nil && cause.networkTouched)
        #expect(network.describe(from: 0, to: 4) == "2 packets dropped on shell (loss 2), 1.3–1.9 s")
    }
}
