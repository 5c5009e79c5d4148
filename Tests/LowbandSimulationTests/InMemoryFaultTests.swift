import LowbandDeterminism
import LowbandProxyCore
import LowbandShaper
import LowbandSimulation
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import Testing

/// Toxics and faults on the in-memory network, in virtual time. They run through the same
/// state machine as the socket proxy's, so each does what the proxy's unit tests expect of it;
/// on the perfect profile (no rate, no delay) every figure is the toxic's own.
@Suite struct InMemoryFaultTests {
    /// A perfect link, a recording server end and a connected client end.
    private struct Setup {
        let scheduler = VirtualScheduler()
        let network: InMemoryNetwork
        let acceptor = RecordingAcceptor()
        let link: any FrameLink
        let client: RecordingDelegate

        init(toxics: [Toxic] = [], profile: String = "perfect") throws {
            network = InMemoryNetwork(scheduler: scheduler, profile: try Profiles.shipped(profile), seed: 1)
            for toxic in toxics { try network.addToxic(toxic) }
            (link, client) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        }

        var server: RecordingDelegate { acceptor.delegates[0] }
        var serverLink: any FrameLink { acceptor.links[0] }
    }

    /// A frame of exactly `wireBytes` bytes on the wire (incompressible payload).
    private static func frame(_ sequence: UInt32, wireBytes: Int) -> Frame {
        Frame(command: .history, sequence: sequence, payload: noise(wireBytes - FrameHeader.size, seed: UInt64(sequence)))
    }

    @Test func aLatencyToxicAddsExactlyItsLatency() throws {
        let setup = try Setup(toxics: [Toxic(type: .latency, stream: .downstream, attributes: ["latency": 250])])
        let sentAt = setup.scheduler.now
        setup.link.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        setup.serverLink.send(Frame(flags: .push, command: .pushNewMessage, sequence: 2, payload: [0x80]))
        setup.scheduler.runUntilIdle()
        #expect(setup.server.received.map(\.time) == [sentAt], "upstream has no toxic")
        #expect(setup.client.received.map(\.time) == [sentAt + .milliseconds(250)])
    }

    @Test func aBandwidthToxicPacesTheStreamAtItsRate() throws {
        // 1 KB/s: a 500-byte frame is whole after 500 ms.
        let setup = try Setup(toxics: [Toxic(type: .bandwidth, stream: .downstream, attributes: ["rate": 1])])
        let sentAt = setup.scheduler.now
        let frame = Self.frame(1, wireBytes: 500)
        setup.serverLink.send(frame)
        setup.scheduler.runUntilIdle()
        #expect(setup.client.frames == [frame])
        #expect(setup.client.received.map(\.time) == [sentAt + .milliseconds(500)])
    }

    @Test func aSlicerDeliversTheFrameWholeAfterItsLastSlice() throws {
        // 512 bytes in 32 slices of 16, 1 ms apart: the last slice leaves 31 ms after the first.
        let setup = try Setup(toxics: [
            Toxic(type: .slicer, stream: .upstream, attributes: ["average_size": 16, "size_variation": 0, "delay": 1_000])
        ])
        let sentAt = setup.scheduler.now
        let frame = Self.frame(1, wireBytes: 512)
        setup.link.send(frame)
        setup.scheduler.runUntilIdle()
        #expect(setup.server.frames == [frame])
        #expect(setup.server.received.map(\.time) == [sentAt + .milliseconds(31)])
    }

    @Test func limitDataDeliversItsBytesThenClosesBothEndsCleanly() throws {
        let frames = (1 ... 3).map { Self.frame(UInt32($0), wireBytes: 300) }
        let setup = try Setup(toxics: [Toxic(type: .limitData, stream: .downstream, attributes: ["bytes": 650])])
        for frame in frames { setup.serverLink.send(frame) }
        setup.scheduler.runUntilIdle()
        #expect(setup.client.frames == Array(frames.prefix(2)), "the third frame is cut at byte 650")
        #expect(setup.network.traffic(.downstream).delivered.bytes == 650)
        #expect(setup.client.closes.count == 1 && setup.client.closes[0].error == nil)
        #expect(setup.server.closes.count == 1 && setup.server.closes[0].error == nil)
        #expect(setup.network.openConnectionCount == 0)
    }

    @Test func resetPeerResetsBothEndsAfterItsTimeout() throws {
        let setup = try Setup(toxics: [Toxic(type: .resetPeer, stream: .upstream, attributes: ["timeout": 100])])
        let sentAt = setup.scheduler.now
        setup.link.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        setup.scheduler.runUntilIdle()
        #expect(setup.server.frames.isEmpty, "reset_peer drops the data")
        #expect(setup.client.closeCode == "connectionReset")
        #expect(setup.server.closeCode == "connectionReset")
        #expect(setup.client.closes.first?.time == sentAt + .milliseconds(100))
        #expect(setup.network.statistics.resetConnections == 1)
    }

    @Test func aTimeoutToxicDropsEverythingThenClosesAfterItsTime() throws {
        let setup = try Setup(toxics: [Toxic(type: .timeout, stream: .upstream, attributes: ["timeout": 200])])
        let openedAt = try #require(setup.network.connections.first?.openedAt)
        setup.link.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        setup.scheduler.runUntilIdle()
        #expect(setup.server.frames.isEmpty)
        #expect(setup.client.closes.count == 1 && setup.client.closes[0].error == nil)
        #expect(setup.client.closes.first?.time == openedAt + .milliseconds(200))
    }

    @Test func slowCloseDelaysOnlyTheEnd() throws {
        let setup = try Setup(toxics: [Toxic(type: .slowClose, stream: .downstream, attributes: ["delay": 300])])
        let frame = Self.frame(1, wireBytes: 100)
        let sentAt = setup.scheduler.now
        setup.serverLink.send(frame)
        setup.serverLink.close()
        setup.scheduler.runUntilIdle()
        #expect(setup.client.received.map(\.time) == [sentAt])
        #expect(setup.client.closes.count == 1 && setup.client.closes[0].error == nil)
        #expect(setup.client.closes.first?.time == sentAt + .milliseconds(300))
    }

    @Test func toxicsActOnOpenAndNewConnectionsAndRemovingOneReleasesWhatItHeld() throws {
        let setup = try Setup()
        try setup.network.addToxic(Toxic(name: "lag", type: .latency, stream: .upstream, attributes: ["latency": 1_000]))
        #expect(throws: ProxyError.self) { try setup.network.addToxic(Toxic(name: "lag", type: .latency)) }
        let sentAt = setup.scheduler.now
        setup.link.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        let (later, _) = try connect(setup.network.makeConnector(to: setup.acceptor), on: setup.scheduler)
        later.send(Frame(command: .ping, sequence: 2, payload: [0x80]))
        setup.scheduler.advance(by: .milliseconds(100))
        #expect(setup.acceptor.delegates.allSatisfy { $0.frames.isEmpty }, "both connections carry the toxic")
        try setup.network.removeToxic(named: "lag")
        setup.scheduler.runUntilIdle()
        #expect(setup.acceptor.delegates.map { $0.received.map(\.time) } == [[sentAt + .milliseconds(100)], [sentAt + .milliseconds(100)]])
        #expect(setup.network.toxics.isEmpty)
    }

    @Test func anUpdatedToxicActsWithItsNewAttributes() throws {
        let setup = try Setup(toxics: [Toxic(name: "lag", type: .latency, stream: .downstream, attributes: ["latency": 100])])
        let updated = try setup.network.updateToxic(named: "lag", attributes: ["latency": 400])
        #expect(updated.attributes == ["latency": 400, "jitter": 0])
        let sentAt = setup.scheduler.now
        setup.serverLink.send(Frame(flags: .push, command: .pushNewMessage, sequence: 1, payload: [0x80]))
        setup.scheduler.runUntilIdle()
        #expect(setup.client.received.map(\.time) == [sentAt + .milliseconds(400)])
    }

    // MARK: Partitions

    @Test func aPartitionHoldsOneDirectionThenReleasesItInOrder() throws {
        let setup = try Setup()
        setup.network.partition(.downstream)
        #expect(setup.network.partitions == [.downstream])
        let frames = (1 ... 3).map { Self.frame(UInt32($0), wireBytes: 200) }
        for frame in frames {
            setup.serverLink.send(frame)
            setup.scheduler.advance(by: .milliseconds(10))
        }
        setup.link.send(Frame(command: .ping, sequence: 9, payload: [0x80]))
        setup.scheduler.advance(by: .seconds(5))
        #expect(setup.client.frames.isEmpty, "held, not dropped")
        #expect(setup.server.frames.map(\.sequence) == [9], "the other direction flows")
        #expect(setup.client.closes.isEmpty)
        let healedAt = setup.scheduler.now
        setup.network.heal()
        setup.scheduler.runUntilIdle()
        #expect(setup.client.frames == frames)
        #expect(setup.client.received.allSatisfy { $0.time == healedAt })
        #expect(setup.network.partitions.isEmpty)
    }

    @Test func aPartitionHoldsBytesAlreadyOnTheLinkAndTheCloseBehindThem() throws {
        // EDGE: 200 ms and more one way, so the first frame is on the link when the partition starts.
        let setup = try Setup(profile: "edge")
        let first = Self.frame(1, wireBytes: 300)
        setup.serverLink.send(first)
        setup.scheduler.advance(by: .milliseconds(50))
        setup.network.partition(.downstream)
        let second = Self.frame(2, wireBytes: 300)
        setup.serverLink.send(second)
        setup.serverLink.close()
        setup.scheduler.advance(by: .seconds(30))
        #expect(setup.client.frames.isEmpty)
        #expect(setup.client.closes.isEmpty, "the end waits behind the held bytes")
        setup.network.heal()
        setup.scheduler.runUntilIdle()
        #expect(setup.client.frames == [first, second])
        #expect(setup.client.closes.count == 1 && setup.client.closes[0].error == nil)
        #expect(try #require(setup.client.closes.first?.time) >= setup.client.received[1].time)
    }

    // MARK: Resets and refusals

    @Test func resettingOneConnectionLeavesTheOthers() throws {
        let setup = try Setup()
        let (other, otherDelegate) = try connect(setup.network.makeConnector(to: setup.acceptor), on: setup.scheduler)
        let inMemory = try #require(setup.link as? InMemoryLink)
        setup.network.reset(inMemory)
        other.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        setup.scheduler.runUntilIdle()
        #expect(setup.client.closeCode == "connectionReset")
        #expect(setup.server.closeCode == "connectionReset")
        #expect(otherDelegate.closes.isEmpty)
        #expect(setup.acceptor.delegates[1].frames.map(\.sequence) == [1])
        #expect(setup.network.statistics.resetConnections == 1)
    }

    @Test func aRefusedConnectGoesThroughTheLinkAndFailsAfterItsConnectDelay() throws {
        var profile = try Profiles.shipped("perfect")
        profile.connectDelay = .milliseconds(300) ... .milliseconds(300)
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(shaper: NetworkShaper(profile: profile, seed: 1)))
        network.refusesConnections = true
        var outcome: Result<any FrameLink, any Error>?
        network.makeConnector(to: RecordingAcceptor()).connect { outcome = $0 }
        scheduler.advance(by: .milliseconds(299))
        #expect(outcome == nil)
        scheduler.advance(by: .milliseconds(1))
        guard case .failure(let error as TransportError) = outcome else {
            Issue.record("the connect did not fail: \(String(describing: outcome))")
            return
        }
        #expect(error.code == .connectionRefused)
        #expect(network.statistics.refusedConnections == 1)
    }
}
