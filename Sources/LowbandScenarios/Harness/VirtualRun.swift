import LowbandClient
import LowbandDeterminism
import LowbandServer
import LowbandSimulation

/// A run on a simulated clock: the server and the client engines on one ``VirtualScheduler``,
/// connected by an ``InMemoryNetwork`` shaped by the profile. Time jumps from one piece of
/// work to the next, so an hour passes as fast as the work in it; the same options give the
/// same run to the byte.
enum VirtualRun {
    static func run(_ options: ScenarioOptions, progress: @Sendable (RunProgress) -> Void, stop: StopSignal) throws(ScenarioError) -> ScenarioOutput {
        let implementation = options.scenario.implementation
        let directory = try WorkDirectory(options: options)
        defer { directory.remove() }
        return try simulate(options, implementation: implementation, directory: directory.path, progress: progress, stop: stop)
    }

    private static func simulate(_ options: ScenarioOptions, implementation: any Scenario.Type, directory: String, progress: @Sendable (RunProgress) -> Void, stop: StopSignal) throws(ScenarioError) -> ScenarioOutput {
            let scheduler = VirtualScheduler()
            let profile = implementation.profile(adjusting: options.profile)
            let trace = TraceLog()
            let server = MessengerServer(
                configuration: ServerConfiguration(seed: options.seed, world: implementation.worldShape(clients: options.clients)),
                scheduler: scheduler)
            let network = InMemoryNetwork(scheduler: scheduler, profile: profile, seed: options.seed, trace: trace)
            let context = RunContext(
                options: options, profile: profile, scheduler: scheduler, server: server, trace: trace,
                directory: directory, workClock: ManualWorkClock(), makeConnector: { network.makeConnector(to: server) })
            let driver = RunDriver(context: context, scenario: implementation.init(context: context))
            try driver.start()
            let end = options.duration
            var nextReport: Duration = .seconds(1)
            var stopped = false
            while true {
                if stop.isStopped {
                    stopped = true
                    break
                }
                guard let next = scheduler.nextDeadline, next <= end else {
                    scheduler.advance(to: end)
                    break
                }
                scheduler.advance(to: next)
                if scheduler.now >= nextReport {
                    progress(driver.progress)
                    nextReport = scheduler.now + .seconds(1)
                }
            }
            let output = driver.finish(partial: stopped)
            progress(driver.progress)
            // Let the engines' stops settle (their links close) before the databases go.
            scheduler.advance(by: .seconds(1))
            return output
    }
}
