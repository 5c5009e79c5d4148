import LowbandDeterminism
import LowbandShaper
import LowbandSimulation
import LowbandTestSupport
import LowbandTransport
import LowbandWire
import Testing

/// The in-memory transport on a virtual clock: real frame bytes, latency, close and reset,
/// refusal, and the link model with back-pressure — all deterministic.
@Suite struct InMemoryNetworkTests {
    @Test func framesArriveAfterTheLatencyAsTheRealEncodedBytes() throws {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(50)))
        let acceptor = RecordingAcceptor(echoes: true)
        let (link, client) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        #expect(scheduler.now == .milliseconds(100), "a connect takes a round trip")
        #expect(acceptor.links.count == 1)

        let small = Frame(command: .ping, sequence: 1, payload: [0x81, 0xA1, 0x74, 0x05])
        let repetitive = Frame(command: .history, sequence: 2, payload: Array(repeating: 0x61, count: 4_000))
        link.send(small)
        link.send(repetitive)
        scheduler.runUntilIdle()
        let server = acceptor.delegates[0]
        #expect(server.received.map(\.time) == [.milliseconds(150), .milliseconds(150)])
        #expect(server.frames.map(\.sequence) == [1, 2])
        #expect(server.frames[1].flags.isEmpty, "the wire compressed it; the receiver sees the frame as sent")
        #expect(server.frames[1].payload == repetitive.payload)
        #expect(client.received.map(\.time) == [.milliseconds(200), .milliseconds(200)])

        let encoder = FrameEncoder()
        let expectedBytes = try encoder.bytes(of: small).readableBytes + encoder.bytes(of: repetitive).readableBytes
        let connection = try #require(network.connections.first)
        #expect(connection.upstream.sent == TrafficCount(frames: 2, bytes: expectedBytes, payloadBytes: 4_004))
        #expect(connection.upstream.delivered == connection.upstream.sent)
        #expect(expectedBytes < 200, "4 KB of one letter compresses")
        let inMemory = try #require(link as? InMemoryLink)
        #expect(inMemory.sent.bytes == expectedBytes && inMemory.received.frames == 2)
    }

    @Test func aCloseReachesBothEndsOnceAfterWhatWasSentBeforeIt() throws {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(10)))
        let acceptor = RecordingAcceptor()
        let (link, client) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        for sequence in 1 ... 3 {
            link.send(Frame(command: .ping, sequence: UInt32(sequence), payload: [0x80]))
        }
        link.close()
        link.close()
        link.send(Frame(command: .ping, sequence: 4, payload: [0x80]))
        #expect(client.closes.isEmpty, "never from inside close")
        scheduler.runUntilIdle()
        let server = acceptor.delegates[0]
        #expect(server.frames.map(\.sequence) == [1, 2, 3])
        #expect(server.closes.count == 1 && server.closes[0].error == nil)
        #expect(server.closes[0].time == .milliseconds(30))
        #expect(client.closes.count == 1 && client.closes[0].error == nil)
        #expect(network.openConnectionCount == 0)
        #expect(network.connections[0].closedAt == .milliseconds(30))
        // The server end can no longer send.
        acceptor.links[0].send(Frame(flags: .push, command: .pushNewMessage, sequence: 1, payload: [0x80]))
        scheduler.runUntilIdle()
        #expect(client.frames.isEmpty)
    }

    @Test func cuttingTheNetworkResetsEveryConnection() throws {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(20)))
        let acceptor = RecordingAcceptor()
        let connector = network.makeConnector(to: acceptor)
        let (_, first) = try connect(connector, on: scheduler)
        let (second, secondDelegate) = try connect(connector, on: scheduler)
        var pending: Result<any FrameLink, any Error>?
        connector.connect { pending = $0 }
        second.send(Frame(command: .ping, sequence: 1, payload: [0x80]))
        network.cut()
        scheduler.runUntilIdle()
        #expect(first.closeCode == "connectionReset")
        #expect(secondDelegate.closeCode == "connectionReset")
        #expect(acceptor.delegates.map(\.closeCode) == ["connectionReset", "connectionReset"])
        #expect(acceptor.delegates[1].frames.isEmpty, "what was on its way is lost")
        #expect(throws: TransportError.self) { try pending?.get() }
        #expect(acceptor.links.count == 2)
    }

    @Test func aRefusingNetworkFailsNewConnectionsUntilItAcceptsAgain() throws {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(latency: .milliseconds(20)))
        let acceptor = RecordingAcceptor()
        let connector = network.makeConnector(to: acceptor)
        let (open, openDelegate) = try connect(connector, on: scheduler)
        network.refusesConnections = true
        #expect {
            _ = try connect(connector, on: scheduler)
        } throws: { error in
            (error as? TransportError)?.code == .connectionRefused
        }
        open.send(Frame(command: .ping, sequence: 9, payload: [0x80]))
        scheduler.runUntilIdle()
        #expect(acceptor.delegates[0].frames.map(\.sequence) == [9], "open connections are untouched")
        #expect(openDelegate.closes.isEmpty)
        network.refusesConnections = false
        _ = try connect(connector, on: scheduler)
        #expect(acceptor.links.count == 2)
    }

    @Test func aFrameOverTheLimitClosesTheSenderWithAWireError() throws {
        let scheduler = VirtualScheduler()
        let frame = FrameConfiguration(maximumPayloadLength: 1_000)
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(frame: frame))
        let acceptor = RecordingAcceptor()
        let (link, client) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        link.send(Frame(command: .history, sequence: 1, payload: noise(1_001)))
        scheduler.runUntilIdle()
        #expect(client.closeCode == "frameTooLarge")
        #expect(acceptor.delegates[0].closes.count == 1 && acceptor.delegates[0].closes[0].error == nil)
    }

    // MARK: Shaped

    /// Both ends exchange a fixed script; returns every delivery.
    private func shapedRun(profile: NetworkProfile, seed: UInt64) throws -> (deliveries: [InMemoryDelivery], network: InMemoryNetwork) {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, profile: profile, seed: seed)
        var deliveries: [InMemoryDelivery] = []
        network.onDelivery = { deliveries.append($0) }
        let acceptor = RecordingAcceptor(echoes: true)
        let (link, _) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        for index in 0 ..< 30 {
            link.send(Frame(command: .sendMessage, sequence: UInt32(index), payload: noise(50 + index * 97, seed: UInt64(index))))
            scheduler.advance(by: .milliseconds(index * 13))
        }
        scheduler.runUntilIdle()
        return (deliveries, network)
    }

    @Test func aShapedRunIsTheSameForTheSameSeed() throws {
        let edge = try Profiles.shipped("edge")
        let (first, network) = try shapedRun(profile: edge, seed: 42)
        let (second, _) = try shapedRun(profile: edge, seed: 42)
        let (other, _) = try shapedRun(profile: edge, seed: 43)
        #expect(first.count == 60, "30 requests and 30 echoes")
        #expect(first == second, "same seed: the same deliveries at the same virtual times")
        #expect(first.map(\.time) != other.map(\.time), "another seed draws other delays")
        for direction in Direction.allCases {
            #expect(first.filter { $0.direction == direction }.map(\.wireBytes) == other.filter { $0.direction == direction }.map(\.wireBytes), "but the same bytes")
        }
        // Order is kept per direction, and what was sent arrived.
        for direction in Direction.allCases {
            let sequences = first.filter { $0.direction == direction }.map(\.sequence)
            #expect(sequences == Array(0 ..< 30))
            let traffic = network.traffic(direction)
            #expect(traffic.sent == traffic.delivered)
            #expect(traffic.sent.bytes == first.filter { $0.direction == direction }.map(\.wireBytes).reduce(0, +))
        }
        // EDGE is slow: 200 ms one way at least, and 60 kbit/s up.
        let times = first.filter { $0.direction == .upstream }.map(\.time)
        #expect(times.allSatisfy { $0 >= .milliseconds(600) }, "connect delay plus one-way delay")
    }

    @Test func backPressureHoldsWholeFramesOnTheSendingEnd() throws {
        let profile = try Profiles.yaml("""
            description: slow uplink with a tiny queue
            downlink: {rate: 1Mbit, delay: 10ms, queue: 64KB}
            uplink: {rate: 64kbit, delay: 10ms, queue: 4KB}
            """)
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, configuration: .init(shaper: NetworkShaper(profile: profile, seed: 1), submitChunkSize: 2_048))
        var worstQueue = 0
        network.onDelivery = { _ in worstQueue = max(worstQueue, network.shaper?.queuedBytes(.upstream) ?? 0) }
        let acceptor = RecordingAcceptor()
        let (link, _) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        let frames = (0 ..< 40).map { Frame(command: .uploadChunk, sequence: UInt32($0), payload: noise(2_000, seed: UInt64($0))) }
        for frame in frames { link.send(frame) }
        let queuedAtOnce = network.shaper?.queuedBytes(.upstream) ?? 0
        #expect(queuedAtOnce < 4_000 + 2_048, "the shaper took only what its queue holds: \(queuedAtOnce)")
        scheduler.runUntilIdle()
        #expect(acceptor.delegates[0].frames == frames, "every frame, whole and in order")
        #expect(worstQueue <= 4_000 + 2_048)
        // 40 × 2012 bytes at 64 kbit/s take about 10 s.
        #expect(scheduler.now > .seconds(9) && scheduler.now < .seconds(12), "\(scheduler.now)")
    }

    @Test func aResetByTheLinkModelReachesBothEnds() throws {
        let profile = try Profiles.yaml("""
            description: every connection is reset after 2 s
            downlink: {rate: 1Mbit, delay: 50ms, queue: 64KB}
            uplink: {rate: 1Mbit, delay: 50ms, queue: 64KB}
            resets: {probability: 100%, after-time: 2s}
            """)
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, profile: profile, seed: 5)
        let acceptor = RecordingAcceptor()
        let (_, client) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        scheduler.runUntilIdle()
        #expect(client.closeCode == "connectionReset")
        #expect(client.closes.first?.time == .seconds(2))
        #expect(acceptor.delegates[0].closeCode == "connectionReset")
        #expect(network.shaper?.openConnections == 0)
    }

    @Test func frameEventsPlaceEachFrameInTheBytesTheShaperCounts() throws {
        let scheduler = VirtualScheduler()
        let trace = ShaperTraceRecorder()
        let network = InMemoryNetwork(scheduler: scheduler, profile: try Profiles.shipped("edge"), seed: 4, trace: trace)
        var events: [InMemoryFrameEvent] = []
        network.onFrame = { events.append($0) }
        let acceptor = RecordingAcceptor(echoes: true)
        let (link, _) = try connect(network.makeConnector(to: acceptor), on: scheduler)
        for index in 0 ..< 12 {
            link.send(Frame(command: .sendMessage, sequence: UInt32(index), payload: noise(40 + index * 300, seed: UInt64(index))))
        }
        scheduler.runUntilIdle()
        #expect(events.filter { $0.kind == .delivered }.count == 24, "12 requests and 12 echoes")
        for direction in Direction.allCases {
            let mine = events.filter { $0.direction == direction }
            let shaperID = try #require(mine.first?.traceConnection)
            let shaped = trace.events.filter { $0.connection?.index == shaperID && $0.direction == direction }
            for kind in [InMemoryFrameEvent.Kind.sent, .delivered] {
                let frames = mine.filter { $0.kind == kind }
                // Frames tile the stream: each starts where the one before it ended.
                #expect(frames.map { $0.streamEnd - $0.wireBytes } == [0] + frames.dropLast().map(\.streamEnd))
            }
            // The shaper took exactly the bytes sent, and a frame is delivered once the shaper
            // has delivered its last byte.
            let enqueued = shaped.filter { $0.kind == .enqueue }.compactMap(\.bytes).reduce(0, +)
            #expect(enqueued == mine.filter { $0.kind == .sent }.last?.streamEnd)
            for frame in mine where frame.kind == .delivered {
                let deliveredBefore = shaped.filter { $0.kind == .deliver && $0.time.nanoseconds <= (frame.time - network.origin).nanosecondsClamped }
                #expect(deliveredBefore.compactMap(\.bytes).reduce(0, +) >= frame.streamEnd)
            }
        }
    }

    @Test func anOfflineLinkNeverConnectsUntilTheNetworkIsCut() throws {
        let scheduler = VirtualScheduler()
        let network = InMemoryNetwork(scheduler: scheduler, profile: try Profiles.shipped("offline"), seed: 1)
        let acceptor = RecordingAcceptor()
        var outcome: Result<any FrameLink, any Error>?
        network.makeConnector(to: acceptor).connect { outcome = $0 }
        scheduler.advance(by: .seconds(600))
        #expect(outcome == nil && acceptor.links.isEmpty)
        network.cut()
        scheduler.runUntilIdle()
        #expect(throws: TransportError.self) { try outcome?.get() }
    }
}
