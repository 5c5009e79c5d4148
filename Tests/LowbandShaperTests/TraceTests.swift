import Foundation
import LowbandShaper
import Testing

/// The decision trace: one JSON line per event, fixed key order, the same bytes for the same seed.
@Suite struct TraceTests {
    /// A busy run on a profile with everything switched on: loss, jitter, outages, wake-ups,
    /// resets, back-pressure, several connections both ways.
    private func tracedRun(seed: UInt64) -> String {
        var link = TestProfiles.link(
            rate: .bitsPerSecond(150_000), delay: .milliseconds(200),
            jitter: JitterProfile(amount: .milliseconds(50), distribution: .normal, correlation: 0.25),
            loss: LossProfile(rate: 0.05, burst: .milliseconds(200), rto: .seconds(1)), queue: 30_000
        )
        var profile = TestProfiles.symmetric(link)
        link.rate = .bitsPerSecond(60_000)
        profile.uplink = link
        profile.connectDelay = .milliseconds(300) ... .milliseconds(500)
        profile.wakeUp = WakeUpProfile(idle: .seconds(10), delay: .milliseconds(300) ... .milliseconds(500))
        profile.outages = [OutageProfile(kind: .handover, start: .seconds(20) ... .seconds(40), duration: .seconds(1) ... .seconds(3), every: .seconds(30) ... .seconds(60))]
        profile.resets = ResetProfile(probability: 0.5, afterTime: .seconds(30) ... .seconds(90))
        let writer = JSONLinesTraceWriter()
        var run = VirtualLink(profile, seed: seed, trace: writer)
        var ids: [ConnectionID] = []
        for round in 0 ..< 4 {
            run.run(until: .seconds(Double(round) * 40))
            let id = run.open().id
            ids.append(id)
            run.send(120_000, on: id, .downstream)
            run.send(20_000, on: id, .upstream, chunk: 2_000)
        }
        run.run(until: .seconds(400))
        for id in ids { run.close(id) }
        return writer.text
    }

    @Test func sameSeedGivesTheSameTraceByteForByte() {
        let first = tracedRun(seed: 42)
        let second = tracedRun(seed: 42)
        #expect(first == second)
        #expect(first.split(separator: "\n").count > 500)
    }

    @Test func differentSeedsGiveDifferentTraces() {
        #expect(tracedRun(seed: 42) != tracedRun(seed: 43))
    }

    @Test func everyKindOfEventIsTraced() throws {
        let names = Set(try tracedRun(seed: 42).split(separator: "\n").map { line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["event"] as? String)
        })
        #expect(names == ["open", "close", "enqueue", "deliver", "loss-stall", "outage-start", "outage-end", "reset", "wakeup", "backpressure", "resume"])
    }

    @Test func eventsComeInTimeOrder() throws {
        let times = try tracedRun(seed: 7).split(separator: "\n").map { line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["t_ns"] as? Int)
        }
        #expect(times == times.sorted())
    }

    @Test func linesHaveAFixedKeyOrder() {
        let deliver = ShaperEvent(time: .milliseconds(412), kind: .deliver, connection: ConnectionID(index: 0), direction: .downstream, bytes: 1500, delay: .milliseconds(400))
        #expect(JSONLinesTraceWriter.line(for: deliver) == #"{"t_ns":412000000,"event":"deliver","conn":0,"dir":"downstream","bytes":1500,"delay_ns":400000000,"queued":null,"detail":null}"#)
        let outage = ShaperEvent(time: .seconds(30), kind: .outageStart, delay: .seconds(2), detail: "handover")
        #expect(JSONLinesTraceWriter.line(for: outage) == #"{"t_ns":30000000000,"event":"outage-start","conn":null,"dir":null,"bytes":null,"delay_ns":2000000000,"queued":null,"detail":"handover"}"#)
        let quoted = ShaperEvent(time: .zero, kind: .reset, detail: "a \"b\"\n")
        #expect(JSONLinesTraceWriter.line(for: quoted).hasSuffix(#""detail":"a \"b\"\n"}"#))
    }

    @Test func writerHandsLinesToItsClosure() {
        let collected = ShaperTraceRecorder()
        let writer = JSONLinesTraceWriter { line in
            collected.record(ShaperEvent(time: .zero, kind: .open, detail: line))
        }
        var shaper = NetworkShaper(profile: TestProfiles.symmetric(TestProfiles.link()), seed: 1, trace: writer)
        _ = shaper.open(at: .zero)
        #expect(collected.events.map(\.detail) == [#"{"t_ns":0,"event":"open","conn":0,"dir":null,"bytes":null,"delay_ns":0,"queued":null,"detail":null}"# + "\n"])
        #expect(writer.text.isEmpty)
    }

    @Test func connectionStreamsDoNotDependOnEachOther() throws {
        // Connection 1's decisions are the same whether or not connection 0 carried traffic.
        func jitterOfSecond(busyFirst: Bool) -> [Duration] {
            let profile = TestProfiles.symmetric(TestProfiles.link(rate: .unlimited, delay: .milliseconds(100), jitter: JitterProfile(amount: .milliseconds(50))))
            var link = VirtualLink(profile, seed: 5)
            let first = link.open().id
            let second = link.open().id
            if busyFirst { link.send(100_000, on: first) }
            for index in 0 ..< 10 {
                link.run(until: .seconds(Double(index + 1)))
                link.submit(100, on: second)
            }
            link.run()
            return link.deliveries.filter { $0.id == second }.enumerated().map { $1.time - .seconds(Double($0 + 1)) }
        }
        #expect(jitterOfSecond(busyFirst: false) == jitterOfSecond(busyFirst: true))
    }
}
