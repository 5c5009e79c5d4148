import Foundation
import LowbandDeterminism
import LowbandFindings
import LowbandRunReport
import LowbandTestSupport

/// What a run's checks and latency breakdown find, drawn from a seed and added to
/// ``SyntheticRuns`` records: every promise checked, broken on the profiles asked for, and a few
/// hundred deliveries split into stages the way a subway ride splits them (mostly transit, now
/// and then a loss stall, a retry in the outbox or a wait for the next login).
enum SyntheticFindings {
    static let promises: [(name: String, promise: String)] = [
        ("acknowledged_lost", "every message the server stored reaches every member engine that logs in afterwards or stays online long enough"),
        ("duplicated", "no message is stored twice (server: per sender and client id; caches and screens: per message)"),
        ("order", "a sender's messages in a chat are stored in the order written; screens show a chat in the server's order"),
        ("outbox_not_drained", "an engine online for the settle time at the end has no task older than that in its outbox"),
        ("resource_bounds", "queues and buffers stay under their caps"),
    ]

    /// `records` with findings; the profiles named in `violating` broke `order` and `resource_bounds`.
    static func adding(to records: [RunRecord], seed: UInt64 = 42, deliveries: Int = 300, violating: Set<String> = []) -> [RunRecord] {
        let root = SeededGenerator(seed: seed).derived(1_000)
        return records.enumerated().map { index, record in
            var random = root.derived(UInt64(index))
            var record = record
            let breakdowns = self.breakdowns(count: deliveries, clients: record.clients, duration: record.durationSeconds, floor: record.floorMilliseconds ?? 300, random: &random)
            record.stages = LatencyStage.allCases.enumerated().map { stage, value in
                RunMetric(name: "stage.\(value.rawValue)", unit: "ms", values: breakdowns.map { $0.stages[stage] })
            } + [RunMetric(name: "stage.total", unit: "ms", values: breakdowns.map(\.totalMilliseconds))]
            record.slowest = Array(breakdowns.sorted {
                ($0.totalMilliseconds, -$0.message, -$0.receiver) > ($1.totalMilliseconds, -$1.message, -$1.receiver)
            }.prefix(20))
            let broken = violating.contains(record.profile)
            record.violations = broken ? violations(clients: record.clients, duration: record.durationSeconds, random: &random) : []
            record.invariants = promises.map { name, promise in
                InvariantCheck(name: name, promise: promise, checked: Int.random(in: 20...900, using: &random), violations: record.violations.filter { $0.invariant == name }.count)
            }
            return record
        }
    }

    private static func breakdowns(count: Int, clients: Int, duration: Double, floor: Double, random: inout SeededGenerator) -> [MessageBreakdown] {
        (0..<count).map { index in
            func sometimes(_ chance: Double, _ range: ClosedRange<Double>) -> Double {
                Double.random(in: 0..<1, using: &random) < chance ? Double.random(in: range, using: &random) : 0
            }
            let resync = sometimes(0.06, 5_000...40_000)
            let stages: [Double] = [
                sometimes(0.1, 500...8_000),
                Double.random(in: 0...150, using: &random),
                sometimes(0.05, 1_000...4_000),
                floor * Double.random(in: 0.4...0.55, using: &random),
                Double.random(in: 0.5...5, using: &random),
                resync,
                Double.random(in: 0...200, using: &random),
                sometimes(0.04, 1_000...6_000),
                floor * Double.random(in: 0.4...0.55, using: &random),
                Double.random(in: 2...15, using: &random),
                sometimes(0.3, 5...120),
            ]
            let sender = Int.random(in: 0..<Swift.max(clients, 1), using: &random)
            return MessageBreakdown(
                message: Int64(2_000 + index), chat: Int64.random(in: 1...12, using: &random), sender: index % 9 == 0 ? nil : sender,
                receiver: (sender + 1 + index % Swift.max(clients - 1, 1)) % Swift.max(clients, 1),
                startSeconds: Double.random(in: 0..<duration, using: &random), stages: stages,
                carrier: resync > 0 ? "login" : "push", attempts: stages[0] > 4_000 ? 2 : 1
            )
        }
    }

    private static func violations(clients: Int, duration: Double, random: inout SeededGenerator) -> [InvariantViolation] {
        var found: [InvariantViolation] = (0..<4).map { number in
            let client = Int.random(in: 0..<Swift.max(clients, 1), using: &random)
            let seconds = Double.random(in: 10..<duration, using: &random)
            let chat = Int64.random(in: 1...12, using: &random)
            return InvariantViolation(
                invariant: "order", seconds: seconds, client: client, chat: chat, message: Int64(2_100 + number),
                detail: "client \(client)'s screen of chat \(chat) shows message \(2_100 + number) before \(2_099 + number)",
                traceLines: (0..<3).map { line in
                    "{\"t_ns\":\(Int64(seconds * 1e9) - Int64(3 - line) * 1_000_000),\"event\":\"arrived\",\"client\":\(client),\"chat\":\(chat),\"message\":\(2_098 + number + line)}"
                }
            )
        }
        // Two at one moment on one client: their marks must not hide each other.
        found.append(InvariantViolation(invariant: "order", seconds: found[0].seconds, client: found[0].client, chat: found[0].chat, detail: "a second case at the same moment"))
        found.append(InvariantViolation(invariant: "resource_bounds", seconds: duration, detail: "the proxy's uplink buffer held 70 KB, over its 64 KB cap"))
        return found.sorted { $0.seconds < $1.seconds }
    }
}
