import LowbandClient
import LowbandDeterminism
import LowbandProxy
import LowbandRunReport
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
            let profile = DrainPhase.healing(
                options.faults.profile(implementation.profile(adjusting: options.profile), seed: options.seed, duration: options.duration, clients: options.clients),
                options: options)
            let trace = TraceLog()
            let ledger = RunLedger()
            let world: VirtualWorld
            do {
                var description = WorldDescription(seed: options.seed, shape: implementation.worldShape(clients: options.clients), network: .profile(profile))
                options.serverIdleTimeout.map { description.server.connections.idleTimeout = $0 }
                world = try VirtualWorld(
                    description,
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
                options: options, profile: profile, scheduler: scheduler, server: DirectRunServer(server, world: world.world, scheduler: scheduler), trace: trace, ledger: ledger,
                directory: directory, workClock: world.workClock, makeConnector: { network.makeConnector(to: acceptor) })
            for direction in Direction.allCases {
                // The shaper takes every read and then pauses the reader, so each connection
                // may hold one submit over the queue (two connections a client at most).
                let cap = profile.link(direction).queueBytes + network.configuration.submitChunkSize * 2 * max(1, options.clients)
                context.probe.watch("network \(direction.rawValue) queue (bytes)", cap: cap) { network.shaper?.queuedBytes(direction) }
            }
            if let radio = profile.radio {
                trace.mark(TimelineEvent(seconds: 0, kind: .radio, detail: radio.states[0].name))
            }
            context.radio = {
                network.shaper?.radioStatistics(at: ShaperInstant(nanoseconds: (scheduler.now - network.origin).nanosecondsClamped))
            }
            let driver = RunDriver(context: context, scenario: implementation.init(context: context))
            try driver.start()
            if !options.faults.isNone {
                FaultInjector(context: context, network: network, plan: options.faults).arm()
            }
            var stopped = !advance(scheduler, to: options.duration, driver: driver, progress: progress, stop: stop)
            var drain: DrainPhase?
            if options.drain, !stopped {
                let phase = DrainPhase(options: options, bounds: InvariantBounds(profile: profile))
                drain = phase
                driver.scenario.drainBegins()
                var checkAt = scheduler.now
                while !phase.check(context, networkIdle: network.isIdle), scheduler.now < phase.bound {
                    checkAt = min(checkAt + DrainPhase.checkInterval, phase.bound)
                    if !advance(scheduler, to: checkAt, driver: driver, progress: progress, stop: stop) {
                        stopped = true
                        break
                    }
                }
            }
            let output = driver.finish(partial: stopped, drain: drain)
            progress(driver.progress)
            // Let the engines' stops settle (their links close) before the databases go.
            scheduler.advance(by: .seconds(1))
            return output
    }

    /// Runs the scheduler's work up to `end`, reporting progress every second of the run's
    /// clock; false when the user stopped the run first.
    private static func advance(_ scheduler: VirtualScheduler, to end: Duration, driver: RunDriver, progress: @Sendable (RunProgress) -> Void, stop: StopSignal) -> Bool {
        while true {
            if stop.isStopped { return false }
            guard let next = scheduler.nextDeadline, next <= end else {
                scheduler.advance(to: end)
                return true
            }
            scheduler.advance(to: next)
            if scheduler.now >= driver.nextReport {
                progress(driver.progress)
                driver.nextReport = scheduler.now + .seconds(1)
            }
        }
    }
}

extension InMemoryNetwork {
    /// No bytes wait in the shaper's queues either way.
    var isIdle: Bool {
        guard let shaper else { return true }
        return Direction.allCases.allSatisfy { shaper.queuedBytes($0) == 0 }
    }
}

extension InMemoryNetwork: FaultNetwork {
    func reset(_ link: any FrameLink) {
        if let link = link as? InMemoryLink { reset(link) }
    }

    func forgetBinding(_ link: any FrameLink) {
        if let link = link as? InMemoryLink { forgetBinding(link) }
    }
}
