import Foundation
import LowbandClient
import LowbandProxy
import LowbandProxyCore
import LowbandRunReport
import LowbandServer
import LowbandShaper
import LowbandTesting
import LowbandTransport
import LowbandTransportSockets
import NIOCore
import NIOPosix
import Synchronization

/// A run on loopback sockets and the wall clock, wired by ``SocketHarness`` as the push-to-visible
/// benchmark is: the server on a loop of its own behind a ``ShapingProxy`` playing the profile,
/// and the client engines, connecting through the proxy, on the harness's engine loop.
///
/// The scenario and its engines run on that engine loop (the run's scheduler), so the scenario
/// code is the same as in virtual time; the engines' SQLite work never runs on the server's loop.
/// What the scenario asks of the server hops there and back (``LoopRunServer``), the server's
/// frames reach the run's ledger by the same hop (``HoppingLedger``), and the checks read a copy
/// of the server's state taken when the run ends. Every clock shares the run's zero; shaper
/// times are moved onto it (the proxy starts a few milliseconds after it).
enum SocketRun {
    static func run(
        _ options: ScenarioOptions, implementation: (any Scenario.Type)? = nil, progress: @escaping @Sendable (RunProgress) -> Void = { _ in },
        stop: StopSignal = StopSignal()
    ) async throws -> ScenarioOutput {
        let directory = try WorkDirectory(options: options)
        defer { directory.remove() }
        let implementation = implementation ?? options.scenario.implementation
        let profile = DrainPhase.healing(implementation.profile(adjusting: options.profile), options: options)
        let runZero = NIODeadline.now()
        let traces = Mutex<TraceLog?>(nil)
        let serverLedger = HoppingLedger()
        let serverBox = Mutex<NIOLoopBoundBox<MessengerServer>?>(nil)
        let harness = try await SocketHarness.start(
            SocketHarness.Configuration(
                WorldDescription(seed: options.seed, shape: implementation.worldShape(clients: options.clients), network: .profile(profile)),
                proxyName: "lowband-run",
                trace: { proxyZero in
                    let trace = TraceLog(offset: .nanoseconds(proxyZero.uptimeNanoseconds - runZero.uptimeNanoseconds))
                    traces.withLock { $0 = trace }
                    return trace
                },
                serverAcceptor: { server, serverLoop in
                    serverBox.withLock { $0 = NIOLoopBoundBox(server, eventLoop: serverLoop) }
                    return ObservingAcceptor(inner: server, ledger: serverLedger)
                },
                directory: directory.path))
        let result: Result<ScenarioOutput, any Error>
        do {
            guard let trace = traces.withLock({ $0 }), let server = serverBox.withLock({ $0 }) else {
                throw ScenarioError(.setupFailed, "the socket harness did not start its proxy's trace or its server")
            }
            let loop = harness.engineLoops.next()
            let scheduler = EventLoopScheduler(eventLoop: loop, origin: runZero)
            let core = try await harness.server.withServer { $0.core }
            let ledger = try await loop.submit { NIOLoopBoundBox(RunLedger(), eventLoop: loop) }.get()
            serverLedger.connect(ledger, scheduler: scheduler)
            let runServer = try await loop.submit {
                NIOLoopBoundBox(LoopRunServer(world: harness.world, server: server, core: core, runScheduler: scheduler), eventLoop: loop)
            }.get()
            // The proxy's connection numbers by client port, so the breakdown can join each link
            // with the shaper's decisions about its bytes; read while the run lasts.
            let ports = ProxyPorts()
            let events = harness.proxy.events()
            let proxy = harness.proxy
            let output = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await event in events { ports.record(event) } }
                defer { group.cancelAll() }
                return try await drive(
                    options, implementation: implementation, profile: profile, loop: loop, scheduler: scheduler, server: runServer, ledger: ledger, ports: ports,
                    trace: trace, directory: directory.path, proxyPort: harness.proxyPort, radio: { try? await proxy.radioStatistics },
                    progress: progress, stop: stop)
            }
            result = .success(output)
        } catch {
            result = .failure(error)
        }
        _ = try? await harness.stop()
        return try result.get()
    }

    /// Starts the scenario on the run's loop and waits for its end (the duration or a stop).
    private static func drive(
        _ options: ScenarioOptions, implementation: any Scenario.Type, profile: NetworkProfile, loop: any EventLoop, scheduler: EventLoopScheduler,
        server: NIOLoopBoundBox<LoopRunServer>, ledger: NIOLoopBoundBox<RunLedger>, ports: ProxyPorts, trace: TraceLog,
        directory: String, proxyPort: Int, radio: @escaping @Sendable () async -> RadioStatistics?,
        progress: @escaping @Sendable (RunProgress) -> Void, stop: StopSignal
    ) async throws -> ScenarioOutput {
        let promise = loop.makePromise(of: ScenarioOutput.self)
        let state = try await loop.submit {
            // The run's clock started before the harness did; a setup that used the whole
            // duration (a starved machine) would end the run before any client connected.
            guard scheduler.now < options.duration else {
                let error = ScenarioError(
                    .setupFailed,
                    "starting the server, proxy and client loops took \(String(format: "%.1f", scheduler.now.seconds)) s, longer than the run's duration (\(String(format: "%.1f", options.duration.seconds)) s): nothing would run; give a longer --duration or a less busy machine")
                promise.fail(error)
                throw error
            }
            ledger.value.traceConnection = { ports.traceConnection(forClientPort: $0) }
            let context = RunContext(
                options: options, profile: profile, scheduler: scheduler, server: server.value, trace: trace, ledger: ledger.value,
                directory: directory, workClock: ContinuousWorkClock(),
                makeConnector: { SocketFrameConnector(scheduler: scheduler, port: proxyPort) })
            // The radio lives in the proxy's shaper, on the proxy's loop: the run reads it once,
            // as it ends (``SocketRunState/finish(partial:drain:)``), and its rows show that.
            let radioReading = RadioReading(loop: loop, read: radio)
            if let model = profile.radio {
                trace.mark(TimelineEvent(seconds: 0, kind: .radio, detail: model.states[0].name))
                context.radio = { radioReading.last }
            }
            let driver = RunDriver(context: context, scenario: implementation.init(context: context))
            let state = SocketRunState(driver: driver, server: server.value, radio: radioReading, promise: promise, progress: progress)
            try driver.start()
            state.arm(until: options.duration)
            return NIOLoopBoundBox(Optional(state), eventLoop: loop)
        }.get()
        let token = stop.onStop {
            loop.execute { state.value?.finish(partial: true) }
        }
        defer { stop.removeHandler(token) }
        let output = try await promise.futureResult.get()
        try? await loop.submit { state.value = nil }.get()
        return output
    }
}

/// The run's driver on its event loop: ends it at the duration or on a stop, reports progress
/// every second.
private final class SocketRunState {
    private let driver: RunDriver
    private let server: LoopRunServer
    private let radio: RadioReading
    private let promise: EventLoopPromise<ScenarioOutput>
    private let progress: @Sendable (RunProgress) -> Void
    private var finishing = false

    init(
        driver: RunDriver, server: LoopRunServer, radio: RadioReading, promise: EventLoopPromise<ScenarioOutput>,
        progress: @escaping @Sendable (RunProgress) -> Void
    ) {
        self.driver = driver
        self.server = server
        self.radio = radio
        self.promise = promise
        self.progress = progress
    }

    func arm(until end: Duration) {
        let context = driver.context
        context.scheduler.schedule(at: end) { [weak self] in
            guard let self else { return }
            if context.options.drain {
                self.driver.scenario.drainBegins()
                self.drain(DrainPhase(options: context.options, bounds: InvariantBounds(profile: context.profile)))
            } else {
                self.finish(partial: false)
            }
        }
        context.every(.seconds(1)) { [weak self] in
            guard let self, !self.driver.isFinished else { return false }
            self.progress(self.driver.progress)
            return true
        }
    }

    /// Looks every second whether the run has settled, on a fresh copy of the server's state;
    /// ends it when it has or when the bound passes. (The proxy's queues are not read: a
    /// message queued there is not yet in its receiver's chat list, and a send not yet in its
    /// sender's acknowledgements.)
    private func drain(_ phase: DrainPhase) {
        guard !driver.isFinished, !finishing else { return }
        server.refresh { [weak self] in
            guard let self, !self.driver.isFinished, !self.finishing else { return }
            let context = self.driver.context
            if phase.check(context, networkIdle: true) || context.now >= phase.bound {
                self.finish(partial: false, drain: phase)
            } else {
                context.scheduler.schedule(after: DrainPhase.checkInterval) { [weak self] in self?.drain(phase) }
            }
        }
    }

    /// Ends the run: the checks read the server's state and the radio's as of now, copied
    /// from their loops first.
    func finish(partial: Bool, drain: DrainPhase? = nil) {
        guard !driver.isFinished, !finishing else { return }
        finishing = true
        radio.refresh { [self] in
            server.refresh { [self] in
                let output = driver.finish(partial: partial, drain: drain)
                progress(driver.progress)
                promise.succeed(output)
            }
        }
    }
}

/// The proxy's radio statistics as last read, on the run's loop; the proxy keeps them on its
/// own loop, so a read hops there and back.
final class RadioReading {
    private let loop: any EventLoop
    private let read: @Sendable () async -> RadioStatistics?
    private(set) var last: RadioStatistics?

    init(loop: any EventLoop, read: @escaping @Sendable () async -> RadioStatistics?) {
        self.loop = loop
        self.read = read
    }

    /// Reads the proxy's radio now, then calls `done` on the run's loop.
    func refresh(_ done: @escaping () -> Void) {
        let loop = self.loop
        let read = self.read
        let box = NIOLoopBound((self, done), eventLoop: loop)
        Task {
            let statistics = await read()
            loop.execute {
                let (reading, done) = box.value
                reading.last = statistics
                done()
            }
        }
    }
}

/// Which proxy connection each client port opened, from the proxy's `open` events
/// (`127.0.0.1:51234 → 127.0.0.1:8080`): the proxy numbers connections from 1 in the order it
/// accepts them, in its events and its trace alike.
final class ProxyPorts: Sendable {
    private let numbers = Mutex<[Int: Int]>([:])

    func record(_ event: ProxyEvent) {
        guard event.kind == .open, let number = event.connection, let detail = event.detail,
              let peer = detail.split(separator: " ").first,
              let port = try? ProxyEndpoint(parsing: String(peer)).port else { return }
        numbers.withLock { $0[port] = number }
    }

    func traceConnection(forClientPort port: Int) -> Int? {
        numbers.withLock { $0[port] }
    }
}
