import LowbandFixtures
import LowbandRunReport
import LowbandShaper

/// What a scenario reports at the end of a run (or when it is stopped).
struct ScenarioResult {
    var metrics: [RunMetric]
    /// The least time the profile allows for the main latency (``PhysicalFloor/least``).
    var floorMilliseconds: Double?
    /// The time the profile implies for its median sample (``PhysicalFloor/median``).
    var medianMilliseconds: Double? = nil
    /// Samples of the main latency faster than their own floor: zero unless something is wrong.
    var samplesBelowFloor: Int? = nil
}

/// One workload of `lowband run`, written once for both modes against a ``RunContext``.
///
/// A scenario schedules its workload on the context's scheduler in ``start()``, reacts to the
/// engines' events, and reports its figures in ``finish()``, which may come at any time (the
/// duration is over, or the user pressed Ctrl-C).
protocol Scenario: AnyObject, SendableMetatype {
    /// The server's world for a run with `clients` client engines (user `i + 1` is client `i`).
    static func worldShape(clients: Int) -> MessengerWorld.Shape
    /// The profile as this scenario plays it; most play it unchanged.
    static func profile(adjusting profile: NetworkProfile) -> NetworkProfile

    init(context: RunContext)
    func start() throws(ScenarioError)
    /// A short live figure for the status line.
    var liveFigure: String { get }
    func finish() -> ScenarioResult
}

extension Scenario {
    static func profile(adjusting profile: NetworkProfile) -> NetworkProfile { profile }
}

extension ScenarioName {
    var implementation: any Scenario.Type {
        switch self {
        case .pushToVisible: PushToVisibleScenario.self
        case .launchByPush: LaunchByPushScenario.self
        case .offlineBurst: OfflineBurstScenario.self
        case .scrollHistory: ScrollHistoryScenario.self
        case .subway: SubwayScenario.self
        case .crowd: CrowdScenario.self
        }
    }
}

/// The median and a short summary of samples, for live figures.
enum LiveFigure {
    /// The nearest-rank median, as ``RunMetric/summary`` gives it, found without sorting: the
    /// status line asks for it every 200 ms of a run (52,394 samples at the end of the crowd hour).
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let rank = Int((0.5 * Double(values.count)).rounded(.up))
        return smallest(min(max(rank, 1), values.count) - 1, of: values)
    }

    /// The `k`-th smallest of `values` (from 0): Hoare's selection, the middle element as pivot.
    static func smallest(_ k: Int, of values: [Double]) -> Double {
        var values = values
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // low...j hold values <= pivot, i...high values >= pivot, and between them the pivot.
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return values[k]
            }
        }
        return values[k]
    }

    static func describe(_ count: Int, _ noun: String, _ values: [Double]) -> String {
        guard let median = median(values) else { return "\(noun) \(count)" }
        return "\(noun) \(count), p50 \(Int(median.rounded())) ms"
    }
}
