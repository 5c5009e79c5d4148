import LowbandShaper
import Testing

/// Loss as TCP feels it: stalls for an RTO (RFC 6298) that doubles on repeated loss, every byte
/// delivered.
@Suite struct LossTests {
    private func lossyProfile(_ loss: LossProfile, delay: Duration = .milliseconds(100)) -> NetworkProfile {
        TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: delay, loss: loss))
    }

    @Test func lossDelaysButDeliversEveryByte() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.05, rto: .seconds(1))), trace: recorder)
        let id = link.open().id
        link.send(2_000_000, on: id)
        link.run()
        #expect(link.delivered() == 2_000_000)
        let stalls = recorder.events.filter { $0.kind == .lossStall }
        let pieces = recorder.events.filter { $0.kind == .deliver }.count
        let fraction = Double(stalls.count) / Double(stalls.count + pieces)
        #expect(fraction > 0.025 && fraction < 0.08, "lost \(stalls.count) of \(stalls.count + pieces)")
        // One connection: the bottleneck idles through each stall and re-sends each lost piece,
        // so the transfer ends exactly that much later than on a clean link (0.1 s is the delay).
        let lostBytes = stalls.reduce(0) { $0 + $1.bytes! }
        let stalled = stalls.reduce(Duration.zero) { $0 + $1.delay! }
        let expectedEnd = Duration.seconds(Double(2_000_000 + lostBytes) * 8 / 1_000_000) + stalled + .milliseconds(100)
        let end = try #require(link.deliveries.last).time - .zero
        #expect(abs((end - expectedEnd).inSeconds) < 1e-6, "ended at \(end), expected \(expectedEnd)")
    }

    @Test func repeatedLossDoublesTheTimeoutUpToTheCap() {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 1, rto: .seconds(1), maximumRTO: .seconds(5))), trace: recorder)
        let id = link.open().id
        link.submit(100, on: id)
        link.run(until: .seconds(40))
        let stalls = recorder.events.filter { $0.kind == .lossStall }.map { $0.delay! }
        #expect(Array(stalls.prefix(6)) == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5)])
        #expect(link.deliveries.isEmpty)
        #expect(link.shaper.openConnections == 1, "loss never resets a connection")
    }

    /// Karn's algorithm: a retransmitted piece that gets through is no RTT sample, so the
    /// doubled timeout stays until a piece gets through on its first attempt.
    @Test func theBackoffLastsUntilAFreshSample() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.2, rto: .seconds(1), maximumRTO: .seconds(60))), trace: recorder)
        let id = link.open().id
        link.send(400_000, on: id)
        link.run()
        // Each piece in the order it left the bottleneck (12 ms on it, 100 ms to arrive): lost
        // (with its stall) or delivered. The piece that follows a stall is its retransmission.
        let lost = recorder.events.filter { $0.kind == .lossStall }.map { (left: $0.time, stall: $0.delay) }
        let through = recorder.events.filter { $0.kind == .deliver }.map { (left: ShaperInstant(nanoseconds: $0.time.nanoseconds - 100_000_000), stall: Duration?.none) }
        let pieces = (lost + through).sorted { $0.left < $1.left }
        var expected = Duration.seconds(1)
        var sampled = true
        var afterStall = false
        var kept = 0
        var fresh = 0
        for piece in pieces {
            guard let stall = piece.stall else {
                if !afterStall { sampled = true }
                afterStall = false
                continue
            }
            if sampled {
                expected = .seconds(1)
                fresh += 1
            } else {
                kept += 1
            }
            #expect(stall == expected, "stall of the piece that left at \(piece.left)")
            expected = min(expected * 2, .seconds(60))
            sampled = false
            afterStall = true
        }
        #expect(kept > 0 && fresh > 0, "\(kept) stalls kept the backoff, \(fresh) started fresh")
    }

    /// RFC 6298: above the 1 s floor the timeout follows the measured round trip, so a loss on a
    /// slow link costs SRTT + 4·RTTVAR, not the floor.
    @Test func theTimeoutFollowsTheMeasuredRoundTrip() throws {
        let recorder = ShaperTraceRecorder()
        // 12 ms on the bottleneck, 1.5 s there, 1.5 s for the acknowledgement back: 3.012 s.
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.02, rto: .seconds(1)), delay: .milliseconds(1500)), trace: recorder)
        let id = link.open().id
        link.send(1_000_000, on: id)
        link.run()
        let stalls = recorder.events.filter { $0.kind == .lossStall }.map { $0.delay! }
        let first = try #require(stalls.first)
        #expect(first >= .milliseconds(3012), "a loss after samples of 3.012 s stalled \(first)")
        #expect(stalls.allSatisfy { $0 >= .milliseconds(3012) }, "\(stalls)")
        // Identical samples shrink RTTVAR by a quarter each: the timeout converges on the RTT.
        #expect(try #require(stalls.last) < .milliseconds(3100), "\(stalls)")
    }

    @Test func aStallHoldsOnlyItsOwnConnection() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.01, rto: .seconds(5))), trace: recorder)
        let a = link.open().id
        let b = link.open().id
        link.send(3_000_000, on: a)
        link.send(3_000_000, on: b)
        link.run()
        let stall = try #require(recorder.events.first { $0.kind == .lossStall && $0.connection == a })
        // Pieces already on their way arrive within the 100 ms delay; then `a` is silent while `b` goes on.
        let (from, to) = (stall.time + .milliseconds(200), stall.time + stall.delay!)
        #expect(link.delivered(on: a, from: from, to: to) == 0)
        #expect(link.delivered(on: b, from: from, to: to) > 0)
        #expect(link.delivered(on: a) == 3_000_000 && link.delivered(on: b) == 3_000_000)
    }
}
