import LowbandClient
import LowbandDeterminism
import LowbandProxy
import LowbandServer
import LowbandShaper
import LowbandSimulation
import LowbandTesting
import LowbandTransport

/// A run on a simulated clock: the server and the client engines on one ``VirtualScheduler``,
/// connected by an ``InMemoryNetwork`` shaped by the profile. Time jumps from one piece of
/// work to the next, so an hour passes as fast as the work in it; the same options give the
/// same run to the byte.
enum VirtualRun {
    static func run(
        _ options: ScenarioOptions, implementation: (any Scenario.Type)? = nil, progress: @Sendable (RunProgress) -> Void = { _ in }, stop: StopSignal = StopSignal()
    ) throws(ScenarioError) -> ScenarioOutput {
        let implementation = implementation ?? options.scenario.implementation
        let directory = try WorkDirectory(options: options)
        defer { directory.remove() }
        return try simulate(options, implementation: implementation, directory: directory.path, progress: progress, stop: stop)
    }

    private static func simulate(_ options: ScenarioOptions, implementation: any Scenario.Type, directory: String, progress: @Sendable (RunProgress) -> Void, stop: StopSignal) throws(ScenarioError) -> ScenarioOutput {
            let profile = options.faults.profile(
                implementation.profile(adjusting: options.profile), seed: options.seed, duration: options.duration, clients: options.clients)
            let trace = TraceLog()
            let ledger = RunLedger()
            let world: VirtualWorld
            do {
                world = try VirtualWorld(
                    WorldDescription(seed: options.seed, shape: implementation.worldShape(clients: options.clients), network: .profile(profile)),
                    directory: directory, trace: trace, acceptor: { server in ObservingAcceptor(inner: server, ledger: ledger) })
            } catch {
                throw ScenarioError(.setupFailed, "cannot build the run's world: \(error)")
            }
            let (scheduler, server, network, acceptor) = (world.scheduler, world.server, world.network, world.acceptor)
            network.onFrame = { event in
                guard let connection = event.traceConnection else { return }
                ledger.place(
                    FramePlacement(connection: connection, direction: event.direction, streamEnd: event.streamEnd),
                    command: event.frame.command, sequence: event.frame.sequence)
            }
            let context = RunContext(
                options: options, profile: profile, scheduler: scheduler, server: DirectRunServer(server, scheduler: scheduler), trace: trace, ledger: ledger,
                directory: directory, workClock: world.workClock, makeConnector: { network.makeConnector(to: acceptor) })
            for direction in Direction.allCases {
                // The shaper takes every read and then pauses the reader, so each connection
                // may hold one submit over the queue (two connections a client at most).
                let cap = profile.link(direction).queueBytes + network.configuration.submitChunkSize * 2 * max(1, options.clients)
                context.probe.watch("network \(direction.rawValue) queue (bytes)", cap: cap) { network.shaper?.queuedBytes(direction) }
            }
            let driver = RunDriver(context: context, scenario: implementation.init(context: context))
            try driver.start()
            if !options.faults.isNone {
                FaultInjector(context: context, network: network, plan: options.faults).arm()
            }
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

extension InMemoryNetwork: FaultNetwork {
    func reset(_ link: any FrameLink) {
        if let link = link as? InMemoryLink { reset(link) }
    }
}
