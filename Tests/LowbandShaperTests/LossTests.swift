import LowbandShaper
import Testing

/// Loss as TCP feels it: stalls for an RTO that doubles on repeated loss, every byte delivered.
@Suite struct LossTests {
    private func lossyProfile(_ loss: LossProfile) -> NetworkProfile {
        TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(1_000_000), delay: .milliseconds(100), loss: loss))
    }

    @Test func lossDelaysButDeliversEveryByte() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.05, meanBurst: 3, rto: .seconds(1))), trace: recorder)
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

    @Test func theTimeoutFallsBackAfterASuccess() throws {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(lossyProfile(LossProfile(rate: 0.1, meanBurst: 3, rto: .seconds(1), maximumRTO: .seconds(60))), trace: recorder)
        let id = link.open().id
        link.send(1_000_000, on: id)
        link.run()
        let stalls = recorder.events.filter { $0.kind == .lossStall }
        var repeated = 0
        var fresh = 0
        for (previous, stall) in zip(stalls, stalls.dropFirst()) {
            // The lost piece goes again when its stall ends and takes 12 ms to cross the bottleneck;
            // a loss exactly then is a repeated loss, anything later follows a success.
            let retransmissionLost = stall.time == previous.time + previous.delay! + .milliseconds(12)
            if retransmissionLost {
                #expect(stall.delay == min(previous.delay! * 2, .seconds(60)))
                repeated += 1
            } else {
                #expect(stall.delay == .seconds(1))
                fresh += 1
            }
        }
        #expect(repeated > 0 && fresh > 0, "\(repeated) repeated, \(fresh) fresh")
    }

    @Test func burstyLossComesInRuns() {
        func runs(_ burst: Double) -> Double {
            let recorder = ShaperTraceRecorder()
            var link = VirtualLink(lossyProfile(LossProfile(rate: 0.05, meanBurst: burst, rto: .milliseconds(200))), seed: 3, trace: recorder)
            let id = link.open().id
            link.send(2_000_000, on: id)
            link.run()
            let stalls = recorder.events.filter { $0.kind == .lossStall }
            let repeats = zip(stalls, stalls.dropFirst()).filter { $1.delay! > $0.delay! }.count
            return Double(repeats) / Double(stalls.count)
        }
        let independent = runs(1)
        let bursty = runs(4)
        #expect(bursty > independent + 0.3, "share of losses that repeat: \(bursty) vs \(independent)")
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
