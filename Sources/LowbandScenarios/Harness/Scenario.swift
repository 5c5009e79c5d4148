import LowbandBasics
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
    /// The metric that times each delivery from the sender storing a message to the receiver's
    /// engine holding it, counted from pushes as they arrive; the driver adds the deliveries a
    /// later login carried (the breakdown's), so the headline and the breakdown count the same.
    var deliveryMetric: String? = nil
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
    /// The traffic is over and the run drains (``DrainPhase``): a scenario whose apps are not
    /// running between its actions starts them, so the checks can read their caches.
    func drainBegins()
}

extension Scenario {
    static func profile(adjusting profile: NetworkProfile) -> NetworkProfile { profile }
    func drainBegins() {}
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
        case .pocket: PocketScenario.self
        }
    }
}

/// The median and a short summary of samples, for live figures.
enum LiveFigure {
    /// The nearest-rank median (LowbandBasics' `Percentile`), found without sorting: the status line asks
    /// for it every 200 ms of a run (52,394 samples at the end of the crowd hour).
    static func median(_ values: [Double]) -> Double? {
        Percentile.median(values)
    }

    static func describe(_ count: Int, _ noun: String, _ values: [Double]) -> String {
        guard let median = median(values) else { return "\(noun) \(count)" }
        return "\(noun) \(count), p50 \(Int(median.rounded())) ms"
    }
}
