/// How long the push-to-visible suite measures each profile.
///
/// Each sample waits for the previous push's 250 ms list animation to end (so every push finds
/// the screen idle) and for the link, so a sample costs about max(250 ms, the push's own time).
/// The bounds keep the whole suite at two to three minutes; slow profiles get fewer samples.
public struct PushBenchPlan: Hashable, Sendable {
    /// The profile file's name under `profiles/`.
    public var profile: String
    /// Measured pushes at most (after one warm-up push).
    public var maxIterations: Int
    /// Wall-clock budget for the measured pushes, the untimed waits between them included.
    public var maxDuration: Duration

    public init(profile: String, maxIterations: Int, maxDuration: Duration) {
        self.profile = profile
        self.maxIterations = maxIterations
        self.maxDuration = maxDuration
    }

    /// The benchmark's name: `<profile>/push-to-visible`.
    public var benchmarkName: String { "\(profile)/push-to-visible" }

    /// The suite: perfect, 3g, edge and gprs.
    public static let standard: [PushBenchPlan] = [
        PushBenchPlan(profile: "perfect", maxIterations: 150, maxDuration: .seconds(40)),
        PushBenchPlan(profile: "3g", maxIterations: 120, maxDuration: .seconds(35)),
        PushBenchPlan(profile: "edge", maxIterations: 120, maxDuration: .seconds(35)),
        PushBenchPlan(profile: "gprs", maxIterations: 80, maxDuration: .seconds(35)),
    ]
}
