import LowbandShaper
import Testing

@testable import LowbandProxyCore

/// Routes' paths beyond the device's link (``LinkRoute``), in the state machine on virtual time:
/// the order bytes cross the two links, a `direct` route that crosses none, back-pressure from a
/// full path, and a link switch that loses and repeats nothing. Every expectation is exact.
@Suite struct BeyondPathTests {
    typealias Driver = ProxyStateMachineTests.Driver

    static func ms(_ value: Int64) -> ShaperInstant { ShaperInstant(nanoseconds: value * 1_000_000) }

    /// The device: 120 kbit/s up with 220 ms of delay, 240 kbit/s down with 200 ms.
    static let device = ProxyStateMachineTests.edgeLike
    /// The path: 60 kbit/s each way with 100 ms of delay.
    static let path = ProxyHarness.steadyProfile(name: "path", downRate: 60_000, upRate: 60_000, downDelay: .milliseconds(100), upDelay: .milliseconds(100))

    static func beyond(_ profile: NetworkProfile = path, seed: UInt64 = 9, queue: Int? = nil) -> LinkRoute {
        var profile = profile
        if let queue {
            profile.uplink.queueBytes = queue
            profile.downlink.queueBytes = queue
        }
        return .beyond(key: "cdn.example", makeShaper: { [profile] in NetworkShaper(profile: profile, seed: seed) })
    }

    static func open(_ driver: inout Driver, route: LinkRoute) -> Int {
        let (number, actions) = driver.machine.accept(description: "test", route: route, at: driver.now)
        driver.apply(actions)
        return number
    }

    @Test func uplinkBytesCrossTheDeviceThenThePath() {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: Self.beyond())
        driver.connected(number)
        driver.receive(Array(repeating: 7, count: 1500), on: number, from: .client)
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.upstream]?.count == 1500)
        // The device: 1500 bytes at 120 kbit/s (100 ms) and 220 ms; then the path: 1500 bytes
        // at 60 kbit/s (200 ms) and 100 ms.
        #expect(driver.writeTimes.map(\.0) == [Self.ms(620)])
    }

    @Test func downlinkBytesCrossThePathThenTheDevice() {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: Self.beyond())
        driver.connected(number)
        driver.receive(Array(repeating: 7, count: 1500), on: number, from: .upstream)
        driver.run(to: Self.ms(2000))
        #expect(driver.written[.client]?.count == 1500)
        // The path: 200 ms and 100 ms; then the device: 1500 bytes at 240 kbit/s (50 ms) and 200 ms.
        #expect(driver.writeTimes.map(\.0) == [Self.ms(550)])
    }

    @Test func aConnectionWithoutARouteCrossesTheDeviceAlone() {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: .device)
        driver.connected(number)
        driver.receive(Array(repeating: 7, count: 1500), on: number, from: .upstream)
        driver.run(to: Self.ms(2000))
        #expect(driver.writeTimes.map(\.0) == [Self.ms(250)])
    }

    @Test func theHandshakeCrossesBothLinks() {
        var device = Self.device
        device.connectDelay = .milliseconds(400) ... .milliseconds(400)
        var path = Self.path
        path.connectDelay = .milliseconds(150) ... .milliseconds(150)
        var driver = Driver(device)
        let number = Self.open(&driver, route: Self.beyond(path))
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(549))
        #expect(driver.connects.isEmpty)
        driver.run(to: Self.ms(550))
        #expect(driver.connects == [number])
    }

    @Test func aDirectRouteCrossesNoLinkEvenWhileTheDevicesIsDown() {
        let down = ProxyHarness.steadyProfile(
            downRate: 240_000, upRate: 120_000, downDelay: .milliseconds(200), upDelay: .milliseconds(220),
            outages: [OutageProfile(start: .zero ... .zero, duration: .seconds(10) ... .seconds(10))])
        var driver = Driver(down)
        let shaped = Self.open(&driver, route: .device)
        let direct = Self.open(&driver, route: .direct)
        // Only the direct one is connected at once: the device's handshake waits for the outage.
        #expect(driver.connects == [direct])
        driver.connected(direct)
        driver.receive(Array(repeating: 1, count: 5000), on: direct, from: .upstream)
        #expect(driver.written[.client]?.count == 5000)
        #expect(driver.writeTimes.map(\.0) == [Self.ms(0)])
        driver.run(to: Self.ms(9000))
        #expect(!driver.connects.contains(shaped))
    }

    @Test func aFullPathStopsItsSourceUntilItDrainsAndLosesNothing() {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: Self.beyond(queue: 3000))
        driver.connected(number)
        let message = (0..<9000).map { UInt8(truncatingIfNeeded: $0) }
        driver.receive(message, on: number, from: .upstream)
        #expect(driver.reading[.upstream] == false)
        #expect(driver.events.contains { $0.kind == .pause && $0.detail == "path queue full" })
        driver.run(to: Self.ms(5000))
        #expect(driver.reading[.upstream] == true)
        #expect(driver.written[.client] == message)
    }

    @Test func aFullPathBehindTheDeviceStopsTheClient() {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: Self.beyond(queue: 3000))
        driver.connected(number)
        // The device drains 120 kbit/s into a 60 kbit/s path: the path's queue fills behind it.
        let message = (0..<30000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var sent = 0
        var pausedForThePath = false
        while sent < message.count {
            if driver.reading[.client] == true {
                let piece = Array(message[sent..<min(sent + 1500, message.count)])
                driver.receive(piece, on: number, from: .client)
                sent += piece.count
            }
            if driver.events.contains(where: { $0.kind == .pause && $0.detail == "path queue full" }) { pausedForThePath = true }
            driver.run(to: driver.now + .milliseconds(20))
        }
        driver.run(to: driver.now + .seconds(10))
        #expect(pausedForThePath)
        #expect(driver.written[.upstream] == message)
    }

    @Test func switchingTheDevicesLinkRepeatsAndLosesNothingOnThePath() throws {
        var driver = Driver(Self.device)
        let number = Self.open(&driver, route: Self.beyond())
        driver.connected(number)
        let up = (0..<6000).map { UInt8(truncatingIfNeeded: $0) }
        let down = (0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 3) }
        driver.receive(up, on: number, from: .client)
        driver.receive(down, on: number, from: .upstream)
        driver.run(to: Self.ms(450))
        let replacement = NetworkShaper(profile: try ProxyHarness.profile("perfect"), seed: 2)
        driver.apply(driver.machine.replaceShaper(replacement, description: "perfect seed 2", at: driver.now))
        driver.run(to: Self.ms(10_000))
        #expect(driver.written[.upstream] == up)
        #expect(driver.written[.client] == down)
    }

    @Test func aResetOnThePathResetsItsConnectionOnly() {
        var path = Self.path
        path.resets = ResetProfile(afterTime: .milliseconds(300) ... .milliseconds(300))
        var driver = Driver(Self.device)
        let onPath = Self.open(&driver, route: Self.beyond(path))
        let other = Self.open(&driver, route: .device)
        driver.connected(onPath)
        driver.connected(other)
        driver.run(to: Self.ms(1000))
        #expect(driver.closes.map(\.number) == [onPath])
        #expect(driver.closes.first?.reset == true)
        #expect(driver.events.contains { $0.kind == .reset && $0.detail == "the path to cdn.example dropped" })
    }
}
