import LowbandShaper
import Testing

/// A full queue stops the reader instead of dropping: memory stays bounded, nothing is lost.
@Suite struct BackPressureTests {
    private let profile = TestProfiles.symmetric(TestProfiles.link(rate: .bitsPerSecond(150_000), delay: .milliseconds(200), queue: 30_000))

    @Test func aMegabyteIntoAThirtyKilobyteQueue() {
        let recorder = ShaperTraceRecorder()
        var link = VirtualLink(profile, trace: recorder)
        let id = link.open().id
        let chunk = 16 * 1024
        link.send(1_000_000, on: id, chunk: chunk)
        #expect(link.refusals == 1, "the second chunk fills the queue")
        link.run()
        #expect(link.delivered() == 1_000_000)
        #expect(link.refusals > 10)
        #expect(link.resumes.count == link.refusals)
        #expect(link.peakQueued[.downstream]! <= 30_000 + chunk)
        // A lone reader resumes once the queue is down to half.
        let resumes = recorder.events.filter { $0.kind == .resume }
        #expect(resumes.allSatisfy { $0.queued! <= 15_000 })
        #expect(recorder.events.filter { $0.kind == .backpressure }.count == link.refusals)
    }

    @Test func oneBigSubmitIsAcceptedButStopsTheReader() {
        var link = VirtualLink(profile)
        let id = link.open().id
        let accepting = link.submit(1_000_000, on: id)
        #expect(!accepting)
        #expect(link.shaper.queuedBytes(.downstream) == 1_000_000, "bytes already read are never dropped")
        link.run()
        #expect(link.delivered() == 1_000_000)
        #expect(link.resumes.count == 1)
        // …when the queue is down to 15 KB: 985 KB at 150 kbit/s later.
        #expect(link.resumes.first.map { $0.time >= .seconds(52.5) && $0.time < .seconds(52.6) } == true)
    }

    @Test func theQueueIsSharedByTheDevice() {
        var link = VirtualLink(profile)
        let first = link.open().id
        let second = link.open().id
        let firstAccepted = link.submit(20_000, on: first)
        #expect(firstAccepted)
        let secondAccepted = link.submit(20_000, on: second)
        #expect(!secondAccepted, "the second connection finds the device's queue full")
        let upstreamAccepted = link.submit(100, on: first, .upstream)
        #expect(upstreamAccepted, "the other direction has its own queue")
        link.run()
        #expect(link.resumes.map(\.id) == [second])
        #expect(link.delivered() == 40_100)
    }

    @Test func closingAConnectionMakesRoomForOthers() {
        var link = VirtualLink(profile)
        let first = link.open().id
        let second = link.open().id
        link.submit(40_000, on: first)
        let accepting = link.submit(1_000, on: second)
        #expect(!accepting)
        link.close(first)
        link.run(until: .milliseconds(1))
        #expect(link.resumes.map(\.id) == [second])
    }
}
