import LowbandShaper
import Testing

@testable import LowbandProxyCore

/// An outage forced now (the control API's `POST /proxies/{p}/outage`, the live page's button),
/// in the state machine on virtual time: nothing moves either way, handshakes wait, nothing is
/// lost, and a partition set meanwhile outlives it. Every expectation is exact.
@Suite struct ForcedOutageTests {
    typealias Driver = ProxyStateMachineTests.Driver

    static func ms(_ value: Int64) -> ShaperInstant { ShaperInstant(nanoseconds: value * 1_000_000) }

    static let steady = ProxyHarness.steadyProfile(downRate: 1_000_000, upRate: 1_000_000, downDelay: .milliseconds(50), upDelay: .milliseconds(50))

    @Test func nothingMovesUntilItEndsThenEverythingDoesInOrder() {
        var driver = Driver(Self.steady)
        let number = driver.open()
        driver.connected(number)
        let first = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        driver.receive(first, on: number, from: .upstream)
        driver.run(to: Self.ms(10))
        driver.apply(driver.machine.forceOutage(for: .seconds(2), kind: "outage", at: driver.now))
        #expect(driver.events.contains { $0.kind == .outageStart && $0.detail == "outage forced for 2 s" })
        #expect(driver.machine.reachability(at: driver.now) == .down(until: Self.ms(2010)))
        let second = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        driver.receive(second, on: number, from: .upstream)
        driver.receive(Array(repeating: 9, count: 500), on: number, from: .client)
        driver.run(to: Self.ms(2009))
        // The piece on the wire when it began is held with the rest.
        #expect(driver.written[.client]?.isEmpty == true)
        #expect(driver.written[.upstream]?.isEmpty == true)
        driver.run(to: Self.ms(4000))
        #expect(driver.written[.client] == first + second)
        #expect(driver.written[.upstream] == Array(repeating: 9, count: 500))
        #expect(driver.writeTimes.first.map(\.0) == Self.ms(2010))
        #expect(driver.events.contains { $0.kind == .outageEnd && $0.time == .milliseconds(2010) })
        #expect(driver.machine.reachability(at: driver.now) == .up(until: nil))
        #expect(driver.closes.isEmpty)
    }

    @Test func aHandshakeWaitsForItsEnd() {
        var driver = Driver(Self.steady)
        driver.apply(driver.machine.forceOutage(for: .milliseconds(800), kind: "handover", at: driver.now))
        let number = driver.open()
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(799))
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(800))
        #expect(driver.connects == [number])
        #expect(driver.events.contains { $0.kind == .outageStart && $0.detail == "handover forced for 0.8 s" })
    }

    @Test func aSecondForcingLengthensTheFirstAndAPartitionOutlivesIt() {
        var driver = Driver(Self.steady)
        let number = driver.open()
        driver.connected(number)
        driver.apply(driver.machine.forceOutage(for: .seconds(1), kind: "outage", at: driver.now))
        driver.run(to: Self.ms(500))
        driver.apply(driver.machine.forceOutage(for: .seconds(1), kind: "outage", at: driver.now))
        driver.apply(driver.machine.partition(.downstream, at: driver.now))
        driver.receive(Array(repeating: 1, count: 100), on: number, from: .client)
        driver.receive(Array(repeating: 2, count: 100), on: number, from: .upstream)
        driver.run(to: Self.ms(3000))
        #expect(driver.events.filter { $0.kind == .outageStart }.count == 1)
        #expect(driver.events.first { $0.kind == .outageEnd }?.time == .milliseconds(1500))
        // Up flows once the outage is over; down stays held by the partition until it heals.
        #expect(driver.written[.upstream]?.count == 100)
        #expect(driver.written[.client]?.isEmpty == true)
        driver.apply(driver.machine.heal(at: driver.now))
        driver.run(to: Self.ms(4000))
        #expect(driver.written[.client]?.count == 100)
    }

    @Test func theOpenConnectionsAreListedWithTheirState() {
        var driver = Driver(ProxyHarness.steadyProfile(downRate: 1_000_000, upRate: 1_000_000))
        let first = driver.open()
        driver.connected(first)
        driver.receive(Array(repeating: 1, count: 1250), on: first, from: .upstream)
        driver.run(to: Self.ms(100))
        _ = driver.open()
        let summaries = driver.machine.connectionSummaries
        #expect(summaries.map(\.state) == ["open", "connecting"])
        #expect(summaries.first?.downstreamBytes == 1250)
        #expect(summaries.map(\.number) == [1, 2])
    }
}
