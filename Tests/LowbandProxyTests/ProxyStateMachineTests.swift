import LowbandShaper
import NIOCore
import Testing

@testable import LowbandProxyCore

/// The proxy's decisions without I/O: a ``ProxyStateMachine`` around the real `NetworkShaper`,
/// driven on virtual time. Every expectation here is exact.
@Suite struct ProxyStateMachineTests {
    /// Plays the I/O side: applies the machine's output and keeps what was written, read, closed.
    struct Driver {
        var machine: ProxyStateMachine
        var now = ShaperInstant.zero
        var written: [ProxySide: [UInt8]] = [.client: [], .upstream: []]
        var writeTimes: [(ShaperInstant, ProxySide, Int)] = []
        var reading: [ProxySide: Bool] = [.client: false, .upstream: false]
        var connects: [Int] = []
        var shut: [ProxySide] = []
        var closes: [(number: Int, reset: Bool)] = []
        var forgotten: [Int] = []
        var events: [ProxyEvent] = []

        init(_ profile: NetworkProfile, seed: UInt64 = 1, toxicBuffer: Int = 256 * 1024, linkBuffer: Int = 1024 * 1024) {
            machine = ProxyStateMachine(
                shaper: NetworkShaper(profile: profile, seed: seed),
                seed: seed, toxicBufferLimit: toxicBuffer, linkBufferLimit: linkBuffer, at: .zero
            )
        }

        mutating func apply(_ output: ProxyOutput) {
            events += output.events
            for work in output.work {
                if work.connect { connects.append(work.number) }
                for (side, buffer) in work.writes {
                    written[side, default: []] += buffer.readableBytesView
                    writeTimes.append((now, side, buffer.readableBytes))
                }
                shut += work.shutdowns
                for side in [ProxySide.client, .upstream] {
                    if let on = work.reading(side) { reading[side] = on }
                }
                switch work.ending {
                case .close(let reset, _): closes.append((work.number, reset))
                case .release: forgotten.append(work.number)
                case nil: break
                }
            }
        }

        /// Advances through every wake-up up to `end`.
        mutating func run(to end: ShaperInstant) {
            while let next = machine.nextWakeup, next <= end {
                now = max(now, next)
                apply(machine.advance(to: now))
            }
            now = max(now, end)
            apply(machine.advance(to: now))
        }

        /// Accepts a client, connects at once when the link says so, and returns its number.
        mutating func open() -> Int {
            let (number, output) = machine.accept(description: "test", at: now)
            apply(output)
            return number
        }

        mutating func connected(_ number: Int) {
            apply(machine.upstreamConnected(number, at: now))
        }

        mutating func receive(_ bytes: [UInt8], on number: Int, from side: ProxySide) {
            apply(machine.received(ByteBuffer(bytes: bytes), on: number, from: side, at: now))
        }
    }

    static func ms(_ value: Int64) -> ShaperInstant { ShaperInstant(nanoseconds: value * 1_000_000) }

    static let edgeLike = ProxyHarness.steadyProfile(
        downRate: 240_000, upRate: 120_000, downDelay: .milliseconds(200), upDelay: .milliseconds(220), queueBytes: 6000
    )

    @Test func bytesMoveInOrderAtTheLinksPace() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        #expect(driver.connects == [number])
        driver.connected(number)
        #expect(driver.reading == [.client: true, .upstream: true])
        let message = (0..<3000).map { UInt8(truncatingIfNeeded: $0) }
        driver.receive(message, on: number, from: .client)
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.upstream] == message)
        // 1500-byte pieces at 120 kbit/s take 100 ms each, then 220 ms of delay.
        #expect(driver.writeTimes.map(\.0) == [Self.ms(320), Self.ms(420)])
    }

    @Test func aFullLinkQueueStopsReadingUntilItDrains() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 1, count: 7000), on: number, from: .upstream)
        #expect(driver.reading[.upstream] == false)
        #expect(driver.events.contains { $0.kind == .pause && $0.detail == "link queue full" })
        driver.run(to: Self.ms(200))
        // Half the 6000-byte queue has drained after 4000 bytes at 240 kbit/s (~133 ms).
        #expect(driver.reading[.upstream] == true)
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.client]?.count == 7000)
    }

    /// A read burst far larger than the queue (the proxy reads up to 4 × 64 KB at once) fills
    /// the link's queue to its limit and no further: the rest waits in the proxy, is handed on as
    /// the queue drains, and arrives whole and in order.
    @Test func aReadBurstFillsTheLinkQueueToItsLimitAndTheRestWaitsInTheProxy() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        let burst = (0..<65_536).map { UInt8(truncatingIfNeeded: $0 * 7) }
        driver.receive(burst, on: number, from: .upstream)
        let queued = { (driver: Driver) in (driver.machine.shaper as? NetworkShaper)?.queuedBytes(.downstream) ?? -1 }
        #expect(queued(driver) == 6000)
        #expect(driver.reading[.upstream] == false)
        var most = 0
        for step in 1...600 {
            driver.run(to: Self.ms(Int64(step) * 10))
            most = max(most, queued(driver))
        }
        #expect(most <= 6000, "the queue held \(most) bytes; the profile's limit is 6000")
        #expect(driver.written[.client] == burst)
    }

    @Test func aDestinationThatDoesNotReadStopsItsSource() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let number = driver.open()
        driver.connected(number)
        driver.apply(driver.machine.writabilityChanged(number, side: .upstream, writable: false, at: driver.now))
        #expect(driver.reading == [.client: false, .upstream: true])
        #expect(driver.events.last?.detail == "upstream not reading")
        driver.apply(driver.machine.writabilityChanged(number, side: .upstream, writable: true, at: driver.now))
        #expect(driver.reading == [.client: true, .upstream: true])
    }

    @Test func anEndIsForwardedOnlyAfterItsBytes() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 2, count: 1500), on: number, from: .upstream)
        driver.apply(driver.machine.inputClosed(number, side: .upstream, at: driver.now))
        #expect(driver.shut.isEmpty)
        #expect(driver.reading[.upstream] == false)
        driver.run(to: Self.ms(249))
        #expect(driver.shut.isEmpty)
        driver.run(to: Self.ms(250))
        #expect(driver.shut == [.client])
        // The client ends too: both ends forwarded, the connection is done.
        driver.apply(driver.machine.inputClosed(number, side: .client, at: driver.now))
        #expect(driver.shut == [.client, .upstream])
        #expect(driver.forgotten == [number])
        #expect(driver.machine.statistics.openConnections == 0)
    }

    @Test func aPeerThatClosedCleanlyStillGetsItsBytesDelivered() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 3, count: 1500), on: number, from: .upstream)
        driver.apply(driver.machine.socketClosed(number, side: .upstream, error: nil, at: driver.now))
        driver.run(to: Self.ms(1000))
        #expect(driver.written[.client]?.count == 1500)
        #expect(driver.shut == [.client])
    }

    @Test func aSocketErrorEndsTheConnectionAtOnce() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 3, count: 1500), on: number, from: .upstream)
        driver.apply(driver.machine.socketClosed(number, side: .client, error: "Connection reset by peer", at: driver.now))
        #expect(driver.closes.map(\.number) == [number])
        #expect(driver.events.last?.detail == "client: Connection reset by peer")
        #expect(driver.machine.statistics.bufferedBytes == 0)
        driver.run(to: Self.ms(1000))
        #expect(driver.written[.client]?.isEmpty == true)
    }

    @Test func theConnectDelayHoldsTheUpstreamConnect() {
        var profile = Self.edgeLike
        profile.connectDelay = .milliseconds(300) ... .milliseconds(300)
        var driver = Driver(profile)
        let number = driver.open()
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(299))
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(300))
        #expect(driver.connects == [number])
    }

    /// Connections waiting for their connect time connect at it, in accept order when due at
    /// the same instant; one closed while waiting never connects and no longer wakes the machine.
    @Test func waitingConnectionsConnectAtTheirTimesInAcceptOrder() {
        var profile = Self.edgeLike
        profile.connectDelay = .milliseconds(300) ... .milliseconds(300)
        var driver = Driver(profile)
        let first = driver.open()
        driver.run(to: Self.ms(100))
        let second = driver.open()
        let closed = driver.open()
        #expect(driver.machine.nextWakeup == Self.ms(300))
        driver.run(to: Self.ms(300))
        #expect(driver.connects == [first])
        driver.apply(driver.machine.socketClosed(closed, side: .client, error: nil, at: driver.now))
        #expect(driver.machine.nextWakeup == Self.ms(400))
        let third = driver.open()
        driver.run(to: Self.ms(400))
        #expect(driver.connects == [first, second])
        driver.run(to: Self.ms(700))
        #expect(driver.connects == [first, second, third])
        #expect(driver.machine.nextWakeup == nil)
    }

    @Test func aRefusedUpstreamClosesTheClient() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let number = driver.open()
        driver.apply(driver.machine.upstreamFailed(number, reason: "connection refused", at: driver.now))
        #expect(driver.closes.map(\.reset) == [false])
        #expect(driver.events.contains { $0.kind == .refused && $0.detail == "connection refused" })
        #expect(driver.machine.statistics.refusedConnections == 1)
    }

    @Test func switchingLinksKeepsEveryQueuedByte() throws {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 4, count: 5000), on: number, from: .upstream)
        driver.run(to: Self.ms(50))
        driver.apply(driver.machine.replaceShaper(NetworkShaper(profile: try ProxyHarness.profile("perfect"), seed: 2), description: "perfect seed 2", at: driver.now))
        driver.run(to: Self.ms(60))
        #expect(driver.written[.client]?.count == 5000)
        #expect(driver.events.contains { $0.kind == .link })
    }

    @Test func aResetPeerToxicResetsBothSides() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        _ = try driver.machine.addToxic(Toxic(type: .resetPeer, stream: .upstream, attributes: ["timeout": 100]), at: .zero)
        let number = driver.open()
        driver.connected(number)
        driver.receive([1, 2, 3], on: number, from: .client)
        driver.run(to: Self.ms(99))
        #expect(driver.closes.isEmpty)
        driver.run(to: Self.ms(100))
        #expect(driver.closes.map(\.reset) == [true])
        #expect(driver.machine.statistics.resetConnections == 1)
    }

    @Test func aLimitDataToxicClosesAfterTheLimitIsDelivered() throws {
        var driver = Driver(Self.edgeLike)
        _ = try driver.machine.addToxic(Toxic(type: .limitData, stream: .downstream, attributes: ["bytes": 2000]), at: .zero)
        let number = driver.open()
        driver.connected(number)
        driver.receive(Array(repeating: 5, count: 3000), on: number, from: .upstream)
        driver.run(to: Self.ms(100))
        #expect(driver.closes.isEmpty, "the 2000 bytes are still in the link")
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.client]?.count == 2000)
        #expect(driver.closes.map(\.reset) == [false])
    }

    @Test func toxicsApplyToOpenConnectionsAndDuplicatesAreRefused() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let number = driver.open()
        driver.connected(number)
        _ = try driver.machine.addToxic(Toxic(name: "lag", type: .latency, attributes: ["latency": 500]), at: driver.now)
        #expect(throws: ProxyError.self) { try driver.machine.addToxic(Toxic(name: "lag", type: .latency), at: .zero) }
        driver.receive([9, 9], on: number, from: .upstream)
        driver.run(to: Self.ms(499))
        #expect(driver.written[.client]?.isEmpty == true)
        driver.run(to: Self.ms(500))
        #expect(driver.written[.client] == [9, 9])
    }

    /// Removing every toxic at once (toxiproxy's `POST /reset`) releases what each one held:
    /// the bytes a latency toxic kept are written at once, none lost. (They were lost before:
    /// each removal's writes were thrown away with its result.)
    @Test func removingEveryToxicDeliversWhatTheyHeld() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let number = driver.open()
        driver.connected(number)
        _ = try driver.machine.addToxic(Toxic(name: "lag", type: .latency, stream: .downstream, attributes: ["latency": 500]), at: driver.now)
        _ = try driver.machine.addToxic(Toxic(name: "lag-up", type: .latency, stream: .upstream, attributes: ["latency": 500]), at: driver.now)
        driver.receive([1, 2, 3], on: number, from: .upstream)
        driver.receive([4, 5], on: number, from: .client)
        driver.run(to: Self.ms(100))
        #expect(driver.written[.client]?.isEmpty == true)
        driver.apply(driver.machine.removeAllToxics(at: driver.now))
        driver.run(to: Self.ms(100))
        #expect(driver.written[.client] == [1, 2, 3])
        #expect(driver.written[.upstream] == [4, 5])
        #expect(driver.machine.toxics.isEmpty)
    }

    /// One event's output holds each touched connection once, however many pieces it wrote.
    @Test func anEventsOutputHoldsEachConnectionOnce() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let first = driver.open()
        let second = driver.open()
        driver.connected(first)
        driver.connected(second)
        _ = try driver.machine.addToxic(Toxic(name: "lag", type: .latency, stream: .downstream, attributes: ["latency": 500]), at: driver.now)
        for _ in 0..<3 {
            driver.receive([7], on: first, from: .upstream)
            driver.receive([8], on: second, from: .upstream)
        }
        let output = driver.machine.advance(to: Self.ms(500))
        #expect(output.work.map(\.number) == [first, second])
        #expect(output.work.map { $0.writes.count } == [3, 3])
        // The record is the link's: one delivery per connection, of its three bytes.
        let deliveries = output.events.filter { $0.kind == .deliver }
        #expect(deliveries.map(\.connection) == [first, second])
        #expect(deliveries.map(\.bytes) == [3, 3])
    }

    @Test func theSameSeedGivesTheSameDecisions() throws {
        func run() -> [String] {
            var profile = Self.edgeLike
            profile.downlink.jitter = JitterProfile(amount: .milliseconds(80))
            profile.downlink.loss = LossProfile(rate: 0.05, rto: .milliseconds(300))
            var driver = Driver(profile, seed: 42)
            let number = driver.open()
            driver.connected(number)
            for step in 0..<20 {
                driver.receive(Array(repeating: UInt8(step), count: 700), on: number, from: .upstream)
                driver.run(to: Self.ms(Int64(step + 1) * 150))
            }
            driver.run(to: Self.ms(20_000))
            return driver.events.map(\.jsonLine)
        }
        #expect(run() == run())
    }

    @Test func aPartitionHoldsADirectionWithWhatIsOnTheLinkThenReleasesItInOrder() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        let first = Array(repeating: UInt8(1), count: 1500)
        let second = Array(repeating: UInt8(2), count: 1500)
        driver.receive(first, on: number, from: .upstream)
        driver.run(to: Self.ms(100))
        // The first 1500 bytes are on the link (they arrive at 250 ms); the partition holds them.
        driver.apply(driver.machine.partition(.downstream, at: driver.now))
        driver.receive(second, on: number, from: .upstream)
        driver.apply(driver.machine.inputClosed(number, side: .upstream, at: driver.now))
        driver.receive([7, 7, 7], on: number, from: .client)
        driver.run(to: Self.ms(5000))
        #expect(driver.written[.client]?.isEmpty == true)
        #expect(driver.shut.isEmpty, "the end waits behind the held bytes")
        #expect(driver.written[.upstream] == [7, 7, 7], "the other direction flows")
        #expect(driver.events.contains { $0.kind == .partition && $0.direction == .downstream })
        driver.apply(driver.machine.heal(at: driver.now))
        #expect(driver.written[.client] == first, "what the link delivered meanwhile, at once")
        #expect(driver.writeTimes.last?.0 == Self.ms(5000))
        driver.run(to: Self.ms(6000))
        #expect(driver.written[.client] == first + second)
        #expect(driver.shut == [.client])
        #expect(driver.machine.statistics.bufferedBytes == 0)
    }

    /// Two faults partition one direction, overlapping: the first one's heal leaves the second
    /// holding it (each with its own events); the bytes go on only at the second one's heal.
    @Test func aDirectionTwoFaultsPartitionStaysHeldUntilBothHaveHealedIt() {
        var driver = Driver(Self.edgeLike)
        let number = driver.open()
        driver.connected(number)
        driver.apply(driver.machine.partition(.downstream, reason: "fault 1", at: driver.now))
        driver.apply(driver.machine.partition(.downstream, reason: "fault 2", at: driver.now))
        driver.receive([1, 2, 3], on: number, from: .upstream)
        driver.run(to: Self.ms(1000))
        driver.apply(driver.machine.heal(.downstream, reason: "fault 1", at: driver.now))
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.client]?.isEmpty != false, "fault 2 still holds the direction")
        driver.apply(driver.machine.heal(.downstream, reason: "fault 2", at: driver.now))
        driver.run(to: Self.ms(3000))
        #expect(driver.written[.client] == [1, 2, 3])
        let holds = driver.events.filter { $0.kind == .partition || $0.kind == .heal }.map { "\($0.kind) \($0.detail ?? "")" }
        #expect(holds == ["partition fault 1", "partition fault 2", "heal fault 1", "heal fault 2"])
    }

    @Test func aResetOfOneConnectionClosesItWithRSTAndCountsIt() throws {
        var driver = Driver(try ProxyHarness.profile("perfect"))
        let first = driver.open()
        driver.connected(first)
        let second = driver.open()
        driver.connected(second)
        driver.apply(driver.machine.reset(first, reason: "by the test", at: driver.now))
        #expect(driver.closes.map(\.number) == [first])
        #expect(driver.closes.map(\.reset) == [true])
        #expect(driver.machine.openConnections == [second])
        #expect(driver.machine.statistics.resetConnections == 1)
        #expect(driver.events.contains { $0.kind == .reset && $0.detail == "by the test" })
    }

    @Test func anOutageWithoutEndNeverConnectsAndNeverCrashes() throws {
        var driver = Driver(try ProxyHarness.profile("offline"))
        let number = driver.open()
        driver.run(to: Self.ms(60_000))
        #expect(driver.connects.isEmpty)
        driver.apply(driver.machine.socketClosed(number, side: .client, error: nil, at: driver.now))
        #expect(driver.machine.statistics.openConnections == 0)
    }
}
