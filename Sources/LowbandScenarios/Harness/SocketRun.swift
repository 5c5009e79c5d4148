import LowbandClient
import LowbandProxy
import LowbandServer
import LowbandShaper
import LowbandTransport
import NIOCore
import NIOPosix
import Synchronization

/// A run on loopback sockets and the wall clock: the server listens on an ephemeral port, a
/// ``ShapingProxy`` playing the profile sits in front of it, and the client engines connect
/// through the proxy.
///
/// The server and the client engines share one event loop (the run's scheduler), so the
/// scenario code is the same as in virtual time; the proxy has a loop of its own. Shaper times
/// are moved onto the run's clock (the proxy starts a few microseconds after it).
enum SocketRun {
    static func run(_ options: ScenarioOptions, progress: @escaping @Sendable (RunProgress) -> Void, stop: StopSignal) async throws -> ScenarioOutput {
        let directory = try WorkDirectory(options: options)
        defer { directory.remove() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let proxyGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let result: Result<ScenarioOutput, any Error>
        do {
            result = .success(try await runOnLoops(options, directory: directory.path, loop: group.next(), proxyGroup: proxyGroup, progress: progress, stop: stop))
        } catch {
            result = .failure(error)
        }
        try? await group.shutdownGracefully()
        try? await proxyGroup.shutdownGracefully()
        return try result.get()
    }

    private static func runOnLoops(
        _ options: ScenarioOptions, directory: String, loop: any EventLoop, proxyGroup: any EventLoopGroup,
        progress: @escaping @Sendable (RunProgress) -> Void, stop: StopSignal
    ) async throws -> ScenarioOutput {
        let implementation = options.scenario.implementation
        let profile = implementation.profile(adjusting: options.profile)
        let runZero = NIODeadline.now()
        let scheduler = EventLoopScheduler(eventLoop: loop)
        let serverConfiguration = ServerConfiguration(seed: options.seed, world: implementation.worldShape(clients: options.clients))
        let server = try await loop.submit {
            NIOLoopBoundBox(MessengerServer(configuration: serverConfiguration, scheduler: scheduler), eventLoop: loop)
        }.get()
        let ledger = try await loop.submit { NIOLoopBoundBox(RunLedger(), eventLoop: loop) }.get()
        let acceptor = try await loop.submit {
            NIOLoopBoundBox(ObservingAcceptor(inner: server.value, ledger: ledger.value), eventLoop: loop)
        }.get()
        let listener = SocketFrameListener(scheduler: scheduler)
        let serverPort = try await listener.start { acceptor.value }

        let proxyZero = NIODeadline.now()
        let trace = TraceLog(offset: .nanoseconds(proxyZero.uptimeNanoseconds - runZero.uptimeNanoseconds))
        let proxy = ShapingProxy(
            configuration: ShapingProxy.Configuration(
                name: "lowband-run", listen: ProxyEndpoint(host: "127.0.0.1", port: 0),
                upstream: ProxyEndpoint(host: "127.0.0.1", port: serverPort),
                link: .network(profile, seed: options.seed, trace: trace)),
            group: proxyGroup)
        do {
            guard let proxyPort = try await proxy.start().port else {
                throw ScenarioError(.setupFailed, "the shaping proxy did not report its port")
            }
            // The proxy's connection numbers by client port, so the breakdown can join each link
            // with the shaper's decisions about its bytes; read while the run lasts.
            let ports = ProxyPorts()
            let events = proxy.events()
            let output = try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await event in events { ports.record(event) } }
                defer { group.cancelAll() }
                return try await drive(
                    options, profile: profile, loop: loop, scheduler: scheduler, server: server, ledger: ledger, ports: ports,
                    trace: trace, directory: directory, proxyPort: proxyPort, progress: progress, stop: stop)
            }
            await proxy.stop()
            try? await listener.stop()
            return output
        } catch {
            await proxy.stop()
            try? await listener.stop()
            throw error
        }
    }

    /// Starts the scenario on the run's loop and waits for its end (the duration or a stop).
    private static func drive(
        _ options: ScenarioOptions, profile: NetworkProfile, loop: any EventLoop, scheduler: EventLoopScheduler,
        server: NIOLoopBoundBox<MessengerServer>, ledger: NIOLoopBoundBox<RunLedger>, ports: ProxyPorts, trace: TraceLog,
        directory: String, proxyPort: Int, progress: @escaping @Sendable (RunProgress) -> Void, stop: StopSignal
    ) async throws -> ScenarioOutput {
        let promise = loop.makePromise(of: ScenarioOutput.self)
        let state = try await loop.submit {
            ledger.value.traceConnection = { ports.traceConnection(forClientPort: $0) }
            let context = RunContext(
                options: options, profile: profile, scheduler: scheduler, server: server.value, trace: trace, ledger: ledger.value,
                directory: directory, workClock: ContinuousWorkClock(),
                makeConnector: { SocketFrameConnector(scheduler: scheduler, port: proxyPort) })
            let driver = RunDriver(context: context, scenario: options.scenario.implementation.init(context: context))
            let state = SocketRunState(driver: driver, promise: promise, progress: progress)
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
    private let promise: EventLoopPromise<ScenarioOutput>
    private let progress: @Sendable (RunProgress) -> Void

    init(driver: RunDriver, promise: EventLoopPromise<ScenarioOutput>, progress: @escaping @Sendable (RunProgress) -> Void) {
        self.driver = driver
        self.promise = promise
        self.progress = progress
    }

    func arm(until end: Duration) {
        let scheduler = driver.context.scheduler
        scheduler.schedule(at: end) { [weak self] in self?.finish(partial: false) }
        driver.context.every(.seconds(1)) { [weak self] in
            guard let self, !self.driver.isFinished else { return false }
            self.progress(self.driver.progress)
            return true
        }
    }

    func finish(partial: Bool) {
        guard !driver.isFinished else { return }
        let output = driver.finish(partial: partial)
        progress(driver.progress)
        promise.succeed(output)
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
