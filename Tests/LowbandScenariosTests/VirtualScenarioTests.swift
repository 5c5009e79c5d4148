import LowbandRunReport
import LowbandScenarios
import Testing

/// Each scenario on a simulated clock, with the invariants a user relies on.
@Suite struct VirtualScenarioTests {
    @Test func pushToVisibleSamplesNeverBeatThePhysicalFloor() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.pushToVisible, clients: 2, seconds: 60))
        let record = output.record
        let samples = record.values("push_to_visible")
        let floor = try #require(record.floorMilliseconds)
        #expect(samples.count >= 15, "two clients, a push every 1–5 s each for most of a minute")
        #expect(samples.allSatisfy { $0 >= floor }, "floor \(floor) ms, smallest \(samples.min() ?? -1) ms")
        #expect(floor > 150 && floor < 200, "EDGE: 200 ms less 50 ms jitter plus a few hundred bytes at 150 kbit/s")
        #expect(record.samplesBelowFloor == 0, "each sample against its own push's floor")
        let median = try #require(record.medianMilliseconds)
        #expect(median > 200 && median < 250, "EDGE: 200 ms, normal jitter adds nothing at the median, plus the median push's bytes")
        #expect(record.partial == false)
        #expect(record.durationSeconds == 60)
        // One bucket a second, through the drain after the traffic.
        let drain = try #require(record.drain)
        #expect(record.traffic.count == 60 + Int(drain.seconds.rounded(.up)))
        #expect(record.traffic.reduce(0) { $0 + $1.downBytes } > 0)
        #expect(output.trace.allSatisfy { $0.hasPrefix("{\"t_ns\":") })
    }

    @Test func offlineBurstDeliversEveryMessageExactlyOnce() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.offlineBurst, clients: 2, seconds: 120))
        let record = output.record
        print(record.metrics)
        #expect(record.count("duplicates") == 0)
        #expect(record.count("lost") == 0)
        #expect((record.count("delivered") ?? 0) >= 40, "at least two cycles of 10 messages from each of 2 clients")
        #expect(record.values("outbox_drain").count >= 4)
        #expect(record.timeline.contains { $0.kind == .outageStart })
        #expect(record.timeline.contains { $0.kind == .outageEnd })
    }

    @Test func scrollHistoryPagesAddUp() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.scrollHistory, seconds: 120))
        let record = output.record
        print(record.metrics)
        let pages = try #require(record.count("pages"))
        #expect(pages >= 15, "600 messages in pages of 40, the first 3 pages read twice")
        #expect(record.count("pages_from_cache")! + record.count("pages_from_server")! == pages)
        #expect(record.count("pages_from_cache")! >= 2, "the second pass starts inside the cached pages")
        #expect(record.count("history_bytes")! > 20_000)
        #expect(record.count("readers_finished") == 1)
        #expect(!record.values("scroll_stall").isEmpty, "a quick reader outruns EDGE")
    }

    @Test func subwayReconnectsAcrossOutages() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.subway, seconds: 300))
        let record = output.record
        print(record.metrics)
        #expect(record.count("reconnects")! >= 1)
        #expect(record.count("outages")! >= 2)
        #expect(record.timeline.contains { $0.kind == .outageStart && $0.detail == "blackout" })
        #expect(record.timeline.contains { $0.kind == .reconnect })
        #expect(record.timeline.contains { $0.kind == .disconnect })
        #expect(record.values("delivery_delay").count >= 10)
    }

    /// Seed 1 on EDGE has a handover inside a blackout: the table, the caption and the bands
    /// must all count it as one outage, the one definition of `Outages`.
    @Test func subwayCountsOverlappingCausesAsOneOutage() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.subway, seconds: 300))
        let record = output.record
        let causes = record.timeline.count { $0.kind == .outageStart }
        let outages = Outages.count(in: record.timeline, runEnd: record.durationSeconds)
        #expect(causes > outages, "the fixture has overlapping causes: \(causes) starts, \(outages) outages")
        #expect(record.count("outages") == Double(outages))
        let delays = try #require(record.metric(named: "delivery_delay"))
        let starts = try #require(delays.startSeconds, "each sample's start is kept for the latency-over-time chart")
        #expect(starts.count == delays.values.count)
        #expect(starts.allSatisfy { $0 >= 0 && $0 <= record.durationSeconds })
        let report = RunReportHTML.render(records: [record])
        #expect(report.contains("Timeline of edge: \(outages) outages,"))
    }

    /// Every figure any scenario reports is defined in the report's glossary, and every
    /// scenario's floor, or its absence, is explained.
    @Test(arguments: ScenarioName.allCases)
    func everyMetricIsDefinedAndTheFloorExplained(_ scenario: ScenarioName) async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(scenario, clients: scenario == .crowd ? 2 : 1, seconds: 30))
        let report = RunReportHTML.render(records: [output.record])
        #expect(report.contains("<section id=\"glossary\">"))
        for metric in output.record.metrics {
            #expect(report.contains("<dt id=\"metric-\(metric.name.replacingOccurrences(of: "_", with: "-").replacingOccurrences(of: ".", with: "-").lowercased())\"><code>\(metric.name)</code></dt><dd>"), "\(metric.name)")
        }
        #expect(!report.contains("no description in this version"))
        #expect(report.contains("<p class=\"note floor-note\">\(output.record.floorMilliseconds == nil ? "No floor" : "Floor") (\(scenario.rawValue)): "))
    }

    /// Every scenario's latency figures say when each sample began, so the report plots them
    /// over the outages for every scenario, not only the ones with a delivery delay.
    @Test(arguments: ScenarioName.allCases)
    func everyLatencyFigureIsPlottedOverTime(_ scenario: ScenarioName) async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(scenario, clients: scenario == .crowd ? 2 : 1, seconds: 60))
        let latencies = output.record.metrics.filter { $0.unit == "ms" && !$0.values.isEmpty && $0.name != "floor" && $0.values.count > 1 }
        for metric in latencies {
            #expect(metric.startSeconds?.count == metric.values.count, "\(scenario.rawValue): \(metric.name) has no start times")
        }
        let report = RunReportHTML.render(records: [output.record])
        #expect(!report.contains("did not record when each"), "\(scenario.rawValue)")
    }

    @Test func launchByPushContentPushIsFaster() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.launchByPush, seconds: 120))
        let record = output.record
        print(record.metrics)
        #expect(record.values("launch_notify_then_fetch").count >= 3)
        #expect(record.values("launch_content_push").count >= 3)
        let gap = try #require(record.values("launch_gap").first)
        #expect(gap > 400, "a connect and a login round trip on EDGE")
    }

    @Test func crowdDeliversToEveryMember() async throws {
        let output = try await ScenarioFixtures.run(try ScenarioFixtures.virtualOptions(.crowd, clients: 6, seconds: 120))
        let record = output.record
        print(record.metrics)
        #expect(record.count("messages")! >= 12)
        #expect(Double(record.values("delivery_delay").count) >= record.count("messages")!)
        #expect(record.count("bytes_down")! > record.count("bytes_up")!)
    }
}

/// A phone whose clock jumps (`--faults clock-skew`) still has its samples timed on the run's
/// clock: the screens' own `visibleAt` is the phone's time, and a jump of +4,964 s once made
/// push-to-visible's p99 read 4,774 s, with 106 samples "below the physical floor".
@Suite struct SkewedClockSampleTests {
    @Test(arguments: [ScenarioName.pushToVisible, .subway])
    func samplesAreTimedOnTheRunsClock(_ scenario: ScenarioName) async throws {
        var options = try ScenarioFixtures.virtualOptions(scenario, seed: 1, seconds: 300)
        options.faults = try FaultPlan(parsing: "clock-skew")
        let output = try await ScenarioFixtures.run(options)
        #expect(output.trace.contains { $0.contains("phone clock jumps") })
        let name = scenario == .subway ? "delivery_delay" : "push_to_visible"
        let samples = output.record.values(name)
        #expect(samples.count >= 10)
        let runMilliseconds = output.record.endSeconds * 1000
        #expect(samples.allSatisfy { $0 >= 0 && $0 <= runMilliseconds }, "largest \(samples.max() ?? 0) ms in a run of \(runMilliseconds) ms")
        if scenario == .pushToVisible { #expect(output.record.samplesBelowFloor == 0) }
    }
}

/// A virtual run's trace is the proxy's record too: bytes a toxic or a reset discarded are
/// lines with their count and cause, as on the socket proxy's `--trace` (DroppedBytesTests).
@Suite struct VirtualDropLineTests {
    @Test func bytesAToxicOrAResetDiscardsAreTraced() async throws {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: 2, clients: 5, seconds: 600)
        options.faults = try FaultPlan(parsing: "swarm")
        let output = try await ScenarioFixtures.run(options)
        let drops = output.trace.filter { $0.contains("\"event\":\"drop\"") }
        #expect(!drops.isEmpty)
        #expect(drops.allSatisfy { $0.contains("\"bytes\":") && !$0.contains("\"bytes\":null") && $0.contains("\"conn\":") })
        #expect(drops.contains { $0.contains("\"detail\":\"a toxic\"") })
    }
}
