/// Where a running scenario is, for a progress bar or a live status line.
package struct RunProgress: Sendable, Hashable {
    /// The scenario running.
    package var scenario: ScenarioName
    /// The profile's name, as asked for.
    package var profile: String
    /// Time run so far on the run's clock (virtual with `--virtual-time`).
    package var elapsed: Duration
    /// How long the run lasts on its clock.
    package var total: Duration
    /// A short live figure, e.g. `delivered 42, p50 812 ms`.
    package var figure: String

    /// A progress report `elapsed` of `total` into the run.
    package init(scenario: ScenarioName, profile: String, elapsed: Duration, total: Duration, figure: String) {
        self.scenario = scenario
        self.profile = profile
        self.elapsed = elapsed
        self.total = total
        self.figure = figure
    }

    /// 0 … 1.
    package var fraction: Double {
        guard total > .zero else { return 1 }
        return min(1, max(0, elapsed / total))
    }
}
