import Foundation
import LowbandAppEvents
import LowbandProxy
import LowbandProxyCore
import LowbandScenarios
import NIOCore
import ServiceLifecycle

/// `lowband proxy` serving: the registry and its control API, the main proxy and its doors, the
/// record, each a step of its own; ``serve(shutdown:replay:recordedWith:)`` runs them in order.
extension ProxyCommand {
    func serve(shutdown: CommandShutdown, replay: SessionReplay?, recordedWith: String?) async throws {
        if let record { try OutputDirectory.prepare(record, option: "--record") }
        // A record keeps the link's decisions too, unless --trace sends them elsewhere.
        let traceFile = try (trace ?? record.map { "\($0)/trace.jsonl" }).map { try TraceFile(path: $0) }
        defer { traceFile?.close() }
        // Every proxy is recorded from its first moment: this one and any made through the API.
        let recorder = record.map { _ in SessionRecorder() }
        let origin = ContinuousClock.now
        let registry = try makeRegistry(trace: traceFile, recorder: recorder)
        // Every address is bound before anything says "listening", so a taken port is the
        // only line a failed start prints.
        let (control, apiAddress, pageToken) = try await startControl(registry: registry, recorder: recorder)
        try await startMainProxy(registry: registry)
        if let apiAddress { try announceControl(at: apiAddress, pageToken: pageToken) }
        // The registry stops the proxies it created; the control API, when it runs, closes its
        // socket and stops them too. It ending on its own stops everything, as a signal does.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: registry)]
        if let control {
            services.append(.init(service: control, successTerminationBehavior: .gracefullyShutdownGroup))
        }
        let follower = recorder.flatMap { recorder in events.map { AppEventFile(path: $0, log: recorder.log) } }
        let following = Task { [follower] in await follower?.follow() }
        announceRecording(apiAddress: apiAddress)
        let replaying = Task { [registry] in
            guard let replay else { return }
            for line in replay.skipped { Self.log("replay: \(line)") }
            Self.log("replay: \(replay.actions.count) change(s) made through the API, each at its recorded time")
            await replay.play(on: registry, from: origin, log: { Self.log($0) })
        }
        try await shutdown.run(services)
        replaying.cancel()
        await replaying.value
        following.cancel()
        await following.value
        if let recorder, let record {
            try await writeRecord(recorder, to: record, problems: follower?.problems ?? [], recordedWith: recordedWith)
        }
    }

    /// The registry of proxies, every link made from a profile and seed (the main proxy's
    /// decisions traced into `trace`); fails early, with the profile loader's message, on a
    /// profile that does not exist.
    private func makeRegistry(trace traceFile: TraceFile?, recorder: SessionRecorder?) throws -> ProxyRegistry {
        let mainProxy = name
        let makeLink: @Sendable (String, String, UInt64) throws(ProxyError) -> ProxyLink = { proxy, profile, seed throws(ProxyError) in
            let sink = proxy == mainProxy ? traceFile?.writer : nil
            return try ProxyRegistry.profileLink(profile, seed, trace: sink)
        }
        _ = try makeLink("", profile, seed)
        return ProxyRegistry(
            configuration: ProxyRegistry.Configuration(
                defaultProfile: profile,
                defaultSeed: seed,
                makeLink: makeLink,
                statusHandler: { proxy, line in
                    Self.log(proxy == mainProxy ? line : "\(proxy): \(line)")
                },
                onCreate: watching(recorder)
            )
        )
    }

    /// The control API bound (when asked for, or when it is all there is to run), with the live
    /// page's token (browsers are served only with it); without `--api` a taken default port
    /// is a warning, not a failure.
    private func startControl(registry: ProxyRegistry, recorder: SessionRecorder?) async throws -> (ControlServer?, SocketAddress?, String) {
        let pageToken = ControlServer.makePageToken()
        let control = try apiEndpoint.map { endpoint in
            ControlServer(
                registry: registry,
                configuration: .init(
                    listen: endpoint, profiles: APIProfileAccess(directories: apiProfileDirectories), log: { Self.log($0) }, events: recorder?.log,
                    pageToken: pageToken, record: recorder?.pause)
            )
        }
        do {
            return (control, try await control?.start(), pageToken)
        } catch let error as ProxyError where !apiIsRequired {
            Self.log("warning: no control API: \(error.message); pass --api HOST:PORT for another address, or --no-api")
            return (nil, nil, pageToken)
        } catch let error as ProxyError {
            throw CommandIO.IOError(description: "--api: \(error.message)")
        }
    }

    /// The proxy of `--listen`/`--upstream` (or the first front door's) with its other doors and
    /// routes, each announced on stderr; nothing when the command only serves the API.
    private func startMainProxy(registry: ProxyRegistry) async throws {
        guard servesTraffic else { return }
        var doors = try self.doors
        let routes = try loadedRoutes
        // Without --upstream the first front door is the proxy's own listener.
        var specification = ProxySpecification(name: name, listen: listen, upstream: upstream)
        var credentials: SocksCredentials?
        if upstream == nil {
            let first = doors.removeFirst()
            specification = ProxySpecification(name: name, listen: first.listen.description, upstream: first.door.description)
            if case .socks5(let given) = first.door { credentials = given }
        }
        let created: ProxyDescription
        do {
            created = try await registry.create(specification, credentials: credentials, doors: doors, routes: routes)
        } catch {
            guard error.code == .listenFailed else { throw error }
            throw CommandIO.IOError(description: "\(upstream == nil ? "--socks/--http-proxy" : "--listen"): \(error.message)")
        }
        let target = upstream == nil ? "\(created.upstream) (the client names each destination)" : created.upstream
        Self.log("proxy \(name) listening on \(created.listen) → \(target) (\(created.profile), seed \(created.seed))")
        if let proxy = try? await registry.proxy(named: name) {
            for door in (try? await proxy.configuration.doors) ?? [] {
                Self.log("proxy \(name) also serves \(door.door == .httpProxy ? "an HTTP proxy" : "SOCKS5") on \(door.listen), on the same link")
            }
        }
        for (position, rule) in routes.routes.enumerated() {
            Self.log("proxy \(name) route \(position + 1): \(rule)")
        }
        for door in try self.doors where !door.listen.isLoopback {
            Self.log("warning: \(door.door) on \(door.listen) can be reached from other machines; anyone who reaches it can connect anywhere through it")
        }
    }

    private func announceControl(at address: SocketAddress, pageToken: String) throws {
        let api = ProxyEndpoint(host: address.ipAddress ?? "?", port: address.port ?? 0)
        Self.log("control API listening on \(api)")
        Self.log("live page: http://\(api)/ui?token=\(pageToken)")
        if let endpoint = try apiEndpoint, !endpoint.isLoopback {
            Self.log("warning: the control API on \(endpoint) can be reached from other machines; anyone who reaches it can create proxies")
        }
    }

    /// Where a record's events come from, in one line (or a warning that none can).
    private func announceRecording(apiAddress: SocketAddress?) {
        if let record, let apiAddress {
            Self.log("recording into \(record)/: POST events to http://\(apiAddress.ipAddress ?? "127.0.0.1"):\(apiAddress.port ?? 0)/events\(events.map { " or append them to \($0)" } ?? ""); the verdict is written when the proxy stops")
        } else if let record, let events {
            Self.log("recording into \(record)/: append events to \(events); the verdict is written when the proxy stops")
        } else if let record {
            Self.log("warning: recording into \(record)/ without a control API or --events: the record will hold the proxy's decisions but no app events")
        }
    }
}
