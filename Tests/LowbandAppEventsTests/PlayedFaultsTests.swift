import LowbandAppEvents
import LowbandProxyCore
import LowbandShaper
import Testing

/// What was played is read from the proxies' own events, fault by fault and link by link, and
/// the recorder's check finds every way the record and the requests can disagree.
@Suite struct PlayedFaultsTests {
    private func at(_ seconds: Double) -> Duration { .milliseconds(Int64(seconds * 1000)) }

    /// Two device links: bob's forced outage (fault 1), alice's blackhole both ways (fault 2), a
    /// reset of alice's two connections (fault 3), a partition of bob's uplink (fault 4), the
    /// profile's own outage on alice and a toxic added through the control API.
    private func record() -> NetworkRecord {
        var network = NetworkRecord()
        func on(_ proxy: String, _ event: ProxyEvent) { network.record(event, proxy: proxy, offset: .zero) }
        on("alice", ProxyEvent(time: at(0.1), kind: .open, connection: 1))
        on("alice", ProxyEvent(time: at(0.2), kind: .open, connection: 2))
        on("bob", ProxyEvent(time: at(1), kind: .outageStart, detail: "outage forced for 2 s (fault 1)"))
        on("bob", ProxyEvent(time: at(3), kind: .outageEnd, detail: "outage forced"))
        for direction in [Direction.upstream, .downstream] {
            on("alice", ProxyEvent(toxic: Toxic(name: "fault-2-blackhole-\(direction)", type: .timeout, stream: direction, attributes: ["timeout": 0]), kind: .toxicAdded, time: at(2)))
        }
        for direction in [Direction.upstream, .downstream] {
            on("alice", ProxyEvent(toxic: Toxic(name: "fault-2-blackhole-\(direction)", type: .timeout, stream: direction, attributes: ["timeout": 0]), kind: .toxicRemoved, time: at(4)))
        }
        on("alice", ProxyEvent(time: at(5), kind: .reset, connection: 1, detail: "fault 3: reset"))
        on("alice", ProxyEvent(time: at(5), kind: .reset, connection: 2, detail: "fault 3: reset"))
        on("bob", ProxyEvent(time: at(6), kind: .partition, direction: .upstream, detail: "fault 4"))
        on("bob", ProxyEvent(time: at(7), kind: .heal, direction: .upstream, detail: "fault 4"))
        on("alice", ProxyEvent(time: at(8), kind: .outageStart, detail: "blackout"))
        on("alice", ProxyEvent(time: at(9), kind: .outageEnd))
        on("bob", ProxyEvent(toxic: Toxic(name: "slow", type: .latency, stream: .downstream, attributes: ["latency": 500]), kind: .toxicAdded, time: at(8.5)))
        network.finish(at: 10)
        return network
    }

    private let requests = [
        FaultRequest(number: 1, words: "outage", kind: "outage", link: "bob", at: 1, ended: 3),
        FaultRequest(number: 2, words: "blackhole", kind: "blackhole both ways", link: "alice", at: 2, ended: 4),
        FaultRequest(number: 3, words: "after:acked=reset", kind: "reset", link: "alice", at: 5),
        FaultRequest(number: 4, words: "partition", kind: "partition upstream", link: "bob", at: 6, ended: 7),
    ]

    @Test func everyFaultIsReadFromTheEventsWithItsLinkAndRealTimes() {
        #expect(record().played.map(\.description) == [
            "fault 1: outage 1.000–3.000 s on bob",
            "fault 2: blackhole both ways 2.000–4.000 s on alice",
            "fault 3: reset at 5.000 s on alice (connections 1, 2)",
            "fault 4: partition upstream 6.000–7.000 s on bob",
            "the profile: outage 8.000–9.000 s on alice",
            "the control API: toxic latency downstream 8.500–10.000 s on bob",
        ])
    }

    @Test func theRecordAgreesWithTheRequestsItWasMadeFrom() {
        #expect(record().disagreements(with: requests) == [])
    }

    @Test func aFaultOnAnotherLinkThanAskedIsADisagreement() {
        var moved = requests
        moved[0].link = "alice"
        let problems = record().disagreements(with: moved)
        #expect(problems.contains("fault 1 was asked of alice, yet it acted on bob: outage 1.000–3.000 s on bob"), "\(problems)")
    }

    @Test func aKindATimeOrAnEndThatDifferIsADisagreement() {
        var changed = requests
        changed[1].kind = "partition downstream"
        changed[3].at = 5
        changed[3].ended = 9
        let problems = record().disagreements(with: changed)
        #expect(problems.contains("fault 2 was asked as partition downstream, yet played as blackhole both ways: blackhole both ways 2.000–4.000 s on alice"))
        #expect(problems.contains("fault 4 was asked at 5.000 s, yet began at 6.000 s"))
        #expect(problems.contains("fault 4's end was asked at 9.000 s, yet it ended at 7.000 s"))
    }

    @Test func aFaultNobodyAskedForAndOneAskedButAbsentAreDisagreements() {
        let problems = record().disagreements(with: Array(requests.dropFirst()) + [
            FaultRequest(number: 5, words: "partition", kind: "partition downstream", link: "alice", at: 6, ended: 7),
        ])
        #expect(problems.contains("the proxies played fault 1: outage 1.000–3.000 s on bob, which no request asked for"))
        #expect(problems.contains("fault 5: partition downstream was asked of alice at 6.000 s, yet its events show nothing"))
    }

    @Test func aResetWithNoConnectionOpenAndAnOutageInsideAnotherAgree() {
        let network = record()
        let more = requests + [
            // Bob never had a connection: a reset of his link has nothing to reset.
            FaultRequest(number: 5, words: "reset", kind: "reset", link: "bob", at: 2),
            // Inside fault 1's outage: it lengthens it (here to the same end).
            FaultRequest(number: 6, words: "outage", kind: "outage", link: "bob", at: 1.5, ended: 2.5),
        ]
        #expect(network.disagreements(with: more) == [])
        #expect(network.lengthening(network.played[0], by: more).map(\.number) == [6])
        // A reset asked while alice's connections were open would have shown in her events.
        let missed = requests + [FaultRequest(number: 7, words: "reset", kind: "reset", link: "alice", at: 0.5)]
        #expect(network.disagreements(with: missed) == [
            "fault 7: a reset was asked of alice at 0.500 s while a connection was open, yet no reset is in its events",
        ])
    }

    /// Two faults holding one direction of one link are two faults, each ended by its own heal.
    @Test func overlappingPartitionsOfOneDirectionAreEachTheirOwn() {
        var network = NetworkRecord()
        func on(_ seconds: Double, _ kind: ProxyEvent.Kind, _ detail: String) {
            network.record(ProxyEvent(time: at(seconds), kind: kind, direction: .upstream, detail: detail), proxy: "app", offset: .zero)
        }
        on(1, .partition, "fault 1")
        on(2, .partition, "fault 2")
        on(3, .heal, "fault 1")
        on(4, .heal, "fault 2")
        network.finish(at: 10)
        #expect(network.played.map(\.description) == ["fault 1: partition upstream 1.000–3.000 s on app", "fault 2: partition upstream 2.000–4.000 s on app"])
        let requests = [
            FaultRequest(number: 1, words: "partition", kind: "partition upstream", link: "app", at: 1, ended: 3),
            FaultRequest(number: 2, words: "partition", kind: "partition upstream", link: "app", at: 2, ended: 4),
        ]
        #expect(network.disagreements(with: requests) == [])
    }

    @Test func theTagOfAFaultIsFoundInEveryWayTheProxiesWriteIt() {
        #expect(NetworkRecord.faultTag(in: "fault 3: reset") == "fault 3")
        #expect(NetworkRecord.faultTag(in: "outage forced for 2 s (fault 12)") == "fault 12")
        #expect(NetworkRecord.faultTag(in: "fault-7-latency") == "fault 7")
        #expect(NetworkRecord.faultTag(in: "default 3") == nil)
        #expect(NetworkRecord.faultTag(in: "reset through the control API") == nil)
        #expect(NetworkRecord.faultTag(in: nil) == nil)
    }
}
