import LowbandProxyCore
import LowbandShaper
import LowbandShell
import Testing

/// The shell's toxics on packets, without I/O: times are handed in (nanoseconds), so every
/// figure is exact.
@Suite struct PacketToxicsTests {
    static let ms: Int64 = 1_000_000
    let frame = [UInt8](repeating: 0, count: 1014)

    @Test func latencyHoldsEachPacketAndNoneOvertakes() throws {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(type: .latency, stream: .downstream, attributes: ["latency": 100, "jitter": 50])])
        var order: [Int] = []
        for index in 0 ..< 200 {
            var marked = frame
            marked[0] = UInt8(index % 256)
            marked[1] = UInt8(index / 256)
            #expect(toxics.pass(marked, bytes: 1000, .downstream, at: Int64(index) * Self.ms) == .held)
        }
        // Upstream has no toxic: it passes at once.
        #expect(toxics.pass(frame, bytes: 1000, .upstream, at: 0) == .now)
        #expect(try #require(toxics.nextWakeup) >= 50 * Self.ms, "latency 100 ± 50 ms")
        var now: Int64 = 0
        while let due = toxics.nextWakeup {
            #expect(due >= now)
            now = due
            for (frame, direction) in toxics.release(at: now) {
                #expect(direction == .downstream)
                order.append(Int(frame[0]) + 256 * Int(frame[1]))
            }
        }
        #expect(order == Array(0 ..< 200), "none overtakes another")
        #expect(now >= 199 * Self.ms + 50 * Self.ms && now <= 199 * Self.ms + 150 * Self.ms + 50 * Self.ms)
    }

    @Test func bandwidthIsASecondBottleneckAtItsRate() {
        var toxics = PacketToxics(seed: 1)
        // 10 KB/s: 1000 bytes each take 100 ms.
        toxics.set([Toxic(type: .bandwidth, stream: .upstream, attributes: ["rate": 10])])
        for _ in 0 ..< 5 { #expect(toxics.pass(frame, bytes: 1000, .upstream, at: 0) == .held) }
        var dues: [Int64] = []
        while let due = toxics.nextWakeup {
            dues.append(due)
            _ = toxics.release(at: due)
        }
        #expect(dues == [100, 200, 300, 400, 500].map { $0 * Self.ms })
    }

    @Test func aTimeoutAtZeroDropsEveryPacketOfItsStreamUntilRemoved() {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(name: "hole", type: .timeout, stream: .upstream, attributes: ["timeout": 0])])
        #expect(toxics.pass(frame, bytes: 1000, .upstream, at: 0) == .dropped(toxic: "hole", cause: "toxic-timeout"))
        #expect(toxics.pass(frame, bytes: 1000, .downstream, at: 0) == .now)
        toxics.set([])
        #expect(toxics.pass(frame, bytes: 1000, .upstream, at: Self.ms) == .now)
    }

    @Test func toxicityIsDrawnPerPacketFromTheSeed() {
        func dropped(seed: UInt64) -> [Bool] {
            var toxics = PacketToxics(seed: seed)
            toxics.set([Toxic(type: .timeout, stream: .downstream, toxicity: 0.3)])
            return (0 ..< 10_000).map { toxics.pass(frame, bytes: 1000, .downstream, at: Int64($0)) != .now }
        }
        let first = dropped(seed: 7)
        // n = 10 000, p = 0.3: σ ≈ 46; ±5σ.
        #expect((2770 ... 3230).contains(first.filter { $0 }.count))
        #expect(dropped(seed: 7) == first, "the same seed drops the same packets")
        #expect(dropped(seed: 8) != first)
    }

    @Test func atMostTheCapWaitsPerDirection() {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(name: "slow", type: .latency, stream: .downstream, attributes: ["latency": 1000])])
        for _ in 0 ..< PacketToxics.maximumHeld { #expect(toxics.pass([], bytes: 40, .downstream, at: 0) == .held) }
        #expect(toxics.pass([], bytes: 40, .downstream, at: 0) == .dropped(toxic: "slow", cause: "toxic-held-cap"))
        #expect(toxics.heldCount == PacketToxics.maximumHeld)
    }

    @Test func resetPeerResetsAConnectionItsTimeoutAfterItsFirstDataOnce() throws {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(name: "rp", type: .resetPeer, stream: .downstream, attributes: ["timeout": 300])])
        let flow = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40000, remoteAddress: 0x0A00_0202, remotePort: 8000)
        // A handshake's segments (no data) start nothing; the first data does, later data not again.
        #expect(toxics.pass(frame, bytes: 40, .downstream, segment: (flow, 0), at: 0) == .now)
        #expect(toxics.nextWakeup == nil)
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 960), at: 10 * Self.ms) == .now)
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 960), at: 20 * Self.ms) == .now)
        #expect(toxics.nextWakeup == 310 * Self.ms)
        #expect(toxics.dueResets(at: 309 * Self.ms).isEmpty)
        let due = toxics.dueResets(at: 310 * Self.ms)
        #expect(due.map(\.flow) == [flow])
        #expect(due.first?.reason == "toxic rp: reset_peer 300 ms after its first data downstream")
        #expect(toxics.nextWakeup == nil)
        // Upstream data is another stream: untouched.
        #expect(toxics.pass(frame, bytes: 1000, .upstream, segment: (flow, 960), at: 400 * Self.ms) == .now)
        #expect(toxics.nextWakeup == nil)
        // Removed before it is due: cancelled.
        var other = PacketToxics(seed: 1)
        other.set([Toxic(name: "rp", type: .resetPeer, stream: .downstream, attributes: ["timeout": 300])])
        _ = other.pass(frame, bytes: 1000, .downstream, segment: (flow, 960), at: 0)
        other.set([])
        #expect(other.nextWakeup == nil && other.dueResets(at: Self.ms * 1000).isEmpty)
    }

    @Test func limitDataDropsThePacketPastTheLimitAndResetsTheConnectionAtOnce() throws {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(name: "ld", type: .limitData, stream: .downstream, attributes: ["bytes": 2500])])
        let flow = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40000, remoteAddress: 0x0A00_0202, remotePort: 8000)
        let another = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40001, remoteAddress: 0x0A00_0202, remotePort: 8000)
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 1000), at: 0) == .now)
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 1000), at: 1) == .now)
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (another, 1000), at: 2) == .now, "counted per connection")
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 1000), at: 3) == .dropped(toxic: "ld", cause: "toxic-limit-data"))
        let due = toxics.dueResets(at: 3)
        #expect(due.map(\.flow) == [flow])
        #expect(due.first?.reason == "toxic ld: limit_data, 2000 B of data downstream passed and the next 1000 B would exceed 2500 B")
        // Its later data (retransmissions) is dropped too, without another reset.
        #expect(toxics.pass(frame, bytes: 1000, .downstream, segment: (flow, 1000), at: 4) == .dropped(toxic: "ld", cause: "toxic-limit-data"))
        #expect(toxics.dueResets(at: 5).isEmpty)
        // Not TCP (no segment): untouched.
        #expect(toxics.pass(frame, bytes: 1000, .downstream, at: 6) == .now)
    }

    @Test func aTimeoutAboveZeroHoldsEverythingAndResetsEachConnectionAfterIt() throws {
        var toxics = PacketToxics(seed: 1)
        toxics.set([Toxic(name: "t", type: .timeout, stream: .upstream, attributes: ["timeout": 200])])
        let flow = PacketFlow(transport: 6, deviceAddress: 0x0A00_0264, devicePort: 40000, remoteAddress: 0x0A00_0202, remotePort: 8000)
        // Every packet of the stream is dropped; the connection's first one starts its timeout, once.
        #expect(toxics.pass(frame, bytes: 40, .upstream, segment: (flow, 0), at: 5 * Self.ms) == .dropped(toxic: "t", cause: "toxic-timeout"))
        #expect(toxics.pass(frame, bytes: 1000, .upstream, segment: (flow, 960), at: 50 * Self.ms) == .dropped(toxic: "t", cause: "toxic-timeout"))
        #expect(toxics.pass(frame, bytes: 1000, .upstream, at: 60 * Self.ms) == .dropped(toxic: "t", cause: "toxic-timeout"), "not TCP: dropped, nothing to reset")
        #expect(toxics.nextWakeup == 205 * Self.ms)
        let due = toxics.dueResets(at: 205 * Self.ms)
        #expect(due.map(\.flow) == [flow])
        #expect(due.first?.reason == "toxic t: timeout 200 ms after the first packet it held upstream")
        #expect(toxics.pass(frame, bytes: 40, .upstream, segment: (flow, 0), at: 300 * Self.ms) == .dropped(toxic: "t", cause: "toxic-timeout"))
        #expect(toxics.nextWakeup == nil, "one reset per connection")
        // At 0 it is a blackhole only.
        var hole = PacketToxics(seed: 1)
        hole.set([Toxic(name: "h", type: .timeout, stream: .upstream, attributes: ["timeout": 0])])
        _ = hole.pass(frame, bytes: 40, .upstream, segment: (flow, 0), at: 0)
        #expect(hole.nextWakeup == nil)
    }

    @Test(arguments: [ToxicType.slicer, .slowClose])
    func theTypesThatActOnAConnectionsStreamAreRefusedWithWhy(type: ToxicType) {
        #expect(throws: ProxyError.self) { try PacketToxics.check(Toxic(type: type)) }
        #expect(throws: Never.self) { try PacketToxics.check(Toxic(type: .timeout, attributes: ["timeout": 100])) }
        #expect(throws: Never.self) { try PacketToxics.check(Toxic(type: .timeout, attributes: ["timeout": 0])) }
    }
}
