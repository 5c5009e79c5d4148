import Foundation
import LowbandDeterminism
import LowbandRunReport
import LowbandTestSupport

/// Realistic run records drawn from a seed: a subway-like scenario where the network drops out
/// every minute, clients disconnect and reconnect around each outage, pushes land near the
/// profile's floor with a tail from the outages, and traffic stalls while the network is away.
enum SyntheticRuns {
    struct Profile {
        var name: String
        var floorMilliseconds: Double
        var downBytesPerSecond: Double
    }

    static let profiles = [
        Profile(name: "gprs", floorMilliseconds: 720, downBytesPerSecond: 4_000),
        Profile(name: "edge", floorMilliseconds: 310, downBytesPerSecond: 14_000),
        Profile(name: "3g", floorMilliseconds: 95, downBytesPerSecond: 48_000),
    ]

    /// Eight profiles, some with floors close together (their labels compete for space).
    static let eightProfiles = profiles + [
        Profile(name: "edge-rural", floorMilliseconds: 340, downBytesPerSecond: 12_000),
        Profile(name: "gprs-busy", floorMilliseconds: 760, downBytesPerSecond: 3_000),
        Profile(name: "3g-city", floorMilliseconds: 110, downBytesPerSecond: 60_000),
        Profile(name: "hspa", floorMilliseconds: 60, downBytesPerSecond: 120_000),
        Profile(name: "lte-poor", floorMilliseconds: 75, downBytesPerSecond: 90_000),
    ]

    static func records(
        seed: UInt64 = 42, clients: Int = 6, samples: Int = 500, durationSeconds: Double = 300,
        partialProfiles: Set<String> = [], profiles: [Profile] = profiles
    ) -> [RunRecord] {
        let root = SeededGenerator(seed: seed)
        return profiles.enumerated().map { index, profile in
            var random = root.derived(UInt64(index))
            let outages = outageSpans(duration: durationSeconds, random: &random)
            var timeline: [TimelineEvent] = [TimelineEvent(seconds: 0, kind: .note, detail: "chat opened on all clients")]
            for outage in outages {
                timeline.append(TimelineEvent(seconds: outage.start, kind: .outageStart, detail: "tunnel"))
                timeline.append(TimelineEvent(seconds: outage.end, kind: .outageEnd))
                for client in 0..<clients {
                    timeline.append(TimelineEvent(seconds: outage.start + Double.random(in: 0.5...4, using: &random), kind: .disconnect, client: client, detail: "keep-alive timed out"))
                    timeline.append(TimelineEvent(seconds: outage.end + Double.random(in: 0.3...5, using: &random), kind: .reconnect, client: client))
                }
            }
            timeline.sort { $0.seconds < $1.seconds }

            let latencies = (0..<samples).map { _ -> Double in
                // Log-normal spread above the floor; one push in twelve waited out an outage.
                let u1 = Double.random(in: Double.ulpOfOne..<1, using: &random)
                let u2 = Double.random(in: 0..<1, using: &random)
                let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                var value = profile.floorMilliseconds * (1.05 + 0.35 * exp(0.7 * normal))
                if Double.random(in: 0..<1, using: &random) < 1.0 / 12 { value += Double.random(in: 1_500...18_000, using: &random) }
                return value
            }
            var traffic: [TrafficBucket] = []
            var second = 0.0
            while second < durationSeconds {
                let inOutage = outages.contains { second >= $0.start && second < $0.end }
                let afterOutage = outages.contains { second >= $0.end && second < $0.end + 6 }
                let load = inOutage ? 0 : (afterOutage ? 0.95 : Double.random(in: 0.1...0.6, using: &random))
                let down = Int(profile.downBytesPerSecond * load)
                let up = Int(Double(down) * Double.random(in: 0.08...0.2, using: &random))
                traffic.append(TrafficBucket(startSeconds: second, upBytes: up, downBytes: down))
                second += 1
            }
            let reconnects = timeline.filter { $0.kind == .reconnect }.count
            return RunRecord(
                scenario: "subway", profile: profile.name, seed: seed, clients: clients, virtualTime: true,
                command: "lowband run --scenario subway --profiles gprs,edge,3g --seed \(seed) --clients \(clients) --duration \(Int(durationSeconds))s --virtual-time",
                durationSeconds: durationSeconds, partial: partialProfiles.contains(profile.name),
                floorMilliseconds: profile.floorMilliseconds,
                metrics: [
                    RunMetric(name: "push_to_visible", unit: "ms", values: latencies, startSeconds: latencies.indices.map { Double($0) * durationSeconds / Double(samples) }),
                    RunMetric(name: "reconnect_time", unit: "s", values: (0..<reconnects).map { _ in Double.random(in: 0.4...6, using: &random) }),
                    RunMetric(name: "bytes_down", unit: "bytes", values: [Double(traffic.reduce(0) { $0 + $1.downBytes })]),
                    RunMetric(name: "reconnects", unit: "count", values: [Double(reconnects)]),
                ],
                traffic: traffic, timeline: timeline
            )
        }
    }

    private static func outageSpans(duration: Double, random: inout SeededGenerator) -> [(start: Double, end: Double)] {
        var spans: [(start: Double, end: Double)] = []
        var start = Double.random(in: 25...45, using: &random)
        while start < duration - 20 {
            let length = Double.random(in: 6...16, using: &random)
            spans.append((start, start + length))
            start += Double.random(in: 50...75, using: &random)
        }
        return spans
    }
}
