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

    @Test(arguments: [ToxicType.slicer, .slowClose, .resetPeer, .limitData])
    func theTypesThatActOnAConnectionAreRefusedWithWhy(type: ToxicType) {
        #expect(throws: ProxyError.self) { try PacketToxics.check(Toxic(type: type)) }
        #expect(throws: ProxyError.self) { try PacketToxics.check(Toxic(type: .timeout, attributes: ["timeout": 100])) }
        #expect(throws: Never.self) { try PacketToxics.check(Toxic(type: .timeout, attributes: ["timeout": 0])) }
    }
}
