import ArgumentParser
import Foundation
import LowbandAppEvents
import LowbandBasics
import LowbandProxy
import LowbandProxyCore
import LowbandReports
import LowbandScenarios
import LowbandShaper
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `lowband proxy`: the shaping TCP proxy, and its toxiproxy-compatible control API.
///
/// With `--upstream` it proxies `--listen` → `--upstream` through one simulated device on the
/// `--profile` link. The control API serves on 127.0.0.1:8474 unless `--api` says otherwise or
/// `--no-api` turns it off, as `toxiproxy-server` does; without `--upstream` only the API runs.
/// When the API was not asked for by `--api` and 8474 is taken, the proxy warns and runs
/// without it; an address given with `--api` that cannot be bound is an error. Every address is
/// bound before the first "listening on" line. SIGINT or SIGTERM stops it cleanly: listeners
/// close, connections close, exit status 0.
struct ProxyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proxy",
        abstract: "Run the shaping TCP proxy (and its toxiproxy-compatible control API).",
        discussion: """
            Every connection to --listen gets its own upstream connection, and all of them share one \
            simulated device whose link follows --profile with random decisions from --seed. One status \
            line per connection goes to stderr at open and close. Stop it with Ctrl-C or SIGTERM. \
            See docs/PROXY.md for the control API.
            """
    )

    @Option(help: "Address the proxy listens on (host:port; port 0 picks one).")
    var listen: String = "127.0.0.1:9000"

    @Option(help: "Server the proxy connects to (host:port). Without it only the control API runs.")
    var upstream: String?

    @Option(help: "Network profile of the device's link: a name from `lowband profiles`, a YAML file, or perfect.")
    var profile: String = "perfect"

    @OptionGroup var seedOption: SeedOption
    /// ``SeedOption``'s `--seed`.
    var seed: UInt64 { seedOption.seed }

    @Option(help: "Write the link's decisions to this file as JSON lines.")
    var trace: String?

    @Option(help: "Serve the control API on this address (host:port); default 127.0.0.1:8474, skipped with a warning when that is taken.")
    var api: String?

    @Flag(name: .customLong("no-api"), help: "Run the proxy without the control API (needs --upstream).")
    var noAPI = false

    @Option(help: "The proxy's name in the control API.")
    var name: String = "lowband"

    @Option(
        name: .customLong("api-profile-dir"),
        help: ArgumentHelp(
            "A directory whose .yaml profile files control API requests may load by path (repeatable).",
            discussion: "Without it the API loads only profile names from the profile directories, never a path."
        )
    )
    var apiProfileDirectories: [String] = []

    @Option(help: "Record a session into this folder: the app's events (POST /events on the API, or --events), the proxy's decisions, and at the end the promises judged from them (docs/APP-EVENTS.md).")
    var record: String?

    @OptionGroup var boundsOption: BoundsOption
    /// ``BoundsOption``'s `--bound` overrides.
    var bound: [String] { boundsOption.bound }

    @Option(help: "Play the network of a session `--record` wrote again: its command line and every switch, toxic, outage and reset made through the API, each at its recorded time; other options given here replace the recorded ones (docs/APP-EVENTS.md).")
    var replay: String?

    @Option(help: "With --record: a file the app appends its events to (JSON lines), followed as it grows.")
    var events: String?

    @Flag(help: "Allow --api on an address other machines can reach (anything but localhost, 127.x.x.x, ::1); prints a warning.")
    var apiAllowRemote = false

    @Option(help: "Also (or only) serve a SOCKS5 proxy on this address (host:port): an app told to use it names each destination itself, and every tunnel shares the one shaped link (docs/PROXY.md, \"Front doors\").")
    var socks: String?

    @Option(name: .customLong("socks-auth"), help: "With --socks: require this username and password (USER:PASS, RFC 1929) instead of no authentication.")
    var socksAuth: String?

    @Option(name: .customLong("http-proxy"), help: "Also (or only) serve an HTTP proxy on this address (host:port): CONNECT tunnels and http:// requests, on the same shaped link.")
    var httpProxy: String?

    @Flag(name: .customLong("allow-remote"), help: "Allow --socks or --http-proxy on an address other machines can reach (a phone on the same Wi-Fi); prints a warning.")
    var allowRemote = false

    @Option(name: .customLong("route"), help: "A per-destination rule, PATTERN=ACTION (repeatable; the first that matches wins): PATTERN a host glob with an optional :PORT ('*.cdn.example.com', 'api.example.com:443', '*:5222'), ACTION a profile for the path beyond the device's link, 'direct' (not shaped) or 'block' (docs/PROXY.md, \"Routes\").")
    var route: [String] = []

    @Option(name: .customLong("routes"), help: "A file of rules, one PATTERN=ACTION per line ('#' starts a comment), tried before any --route.")
    var routesFile: String?

    /// The front doors asked for, SOCKS5 first.
    var doors: [DoorListener] {
        get throws {
            var doors: [DoorListener] = []
            if let socks {
                let credentials = try socksAuth.map { text in
                    guard let parsed = SocksCredentials(parsing: text) else {
                        throw ValidationError("--socks-auth must be USER:PASS with a non-empty user, each at most 255 bytes")
                    }
                    return parsed
                }
                doors.append(DoorListener(listen: try AddressOption.parse(socks, option: "--socks"), door: .socks5(credentials)))
            }
            if let httpProxy { doors.append(DoorListener(listen: try AddressOption.parse(httpProxy, option: "--http-proxy"), door: .httpProxy)) }
            return doors
        }
    }

    /// Whether the proxy has anything to serve: an upstream or a front door.
    var servesTraffic: Bool { upstream != nil || socks != nil || httpProxy != nil }

    init() {}

    func validate() throws {
        // A replay's options are checked once laid over the recorded command line.
        guard replay == nil else { return }
        _ = try AddressOption.parse(listen, option: "--listen")
        if let upstream { _ = try AddressOption.parse(upstream, option: "--upstream", allowsPortZero: false) }
        if let api { _ = try AddressOption.parse(api, option: "--api") }
        if name.isEmpty { throw ValidationError("--name must not be empty") }
        if noAPI, api != nil { throw ValidationError("--api and --no-api cannot be combined") }
        if noAPI, !servesTraffic { throw ValidationError("--no-api leaves nothing to run without --upstream, --socks or --http-proxy") }
        if socksAuth != nil, socks == nil { throw ValidationError("--socks-auth goes with --socks") }
        for door in try doors where !door.listen.isLoopback && !allowRemote {
            let option = door.door == .httpProxy ? "--http-proxy" : "--socks"
            throw ValidationError("\(option) \(door.listen) is reachable from other machines, and anyone who reaches it can use it to connect anywhere: pass --allow-remote to allow it")
        }
        if let api = try? apiEndpoint, !api.isLoopback, !apiAllowRemote {
            throw ValidationError(
                "--api \(api) is reachable from other machines, and the control API can create proxies and load profiles: pass --api-allow-remote to allow it"
            )
        }
        if trace != nil && !servesTraffic {
            throw ValidationError("--trace records the proxy's link, so it needs --upstream, --socks or --http-proxy")
        }
        if record != nil && !servesTraffic {
            throw ValidationError("--record records a session through the proxy, so it needs --upstream, --socks or --http-proxy")
        }
        if record == nil && (!bound.isEmpty || events != nil) {
            throw ValidationError("--bound and --events go with --record")
        }
        if record != nil && noAPI && events == nil {
            throw ValidationError("--record with --no-api takes events only from --events FILE: give one, or keep the API for POST /events")
        }
        _ = try sessionBounds
        if try !routeRules.isEmpty && !servesTraffic {
            throw ValidationError("--route and --routes pick paths for the proxy's connections, so they need --upstream, --socks or --http-proxy")
        }
    }

    /// The bounds a recorded session is judged with: the profile's, with `--bound` overrides.
    var sessionBounds: EventBounds {
        get throws {
            do {
                return try boundsOption.bounds(for: try? NetworkProfile.load(named: profile))
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    /// Where the control API listens, if it runs.
    var apiEndpoint: ProxyEndpoint? {
        get throws {
            if noAPI { return nil }
            if let api { return try AddressOption.parse(api, option: "--api") }
            return Self.defaultAPIEndpoint
        }
    }

    /// toxiproxy's address, where its clients look by default.
    static let defaultAPIEndpoint = ProxyEndpoint(host: "127.0.0.1", port: 8474)

    /// Whether a control API that cannot be bound stops the command: it was asked for with
    /// `--api`, or it is all there is to run.
    var apiIsRequired: Bool { api != nil || !servesTraffic }

    func run() async throws {
        if let replay {
            try await runReplay(replay)
            return
        }
        try await serveUntilStopped()
    }

    /// Serves until a signal stops it; with `replay`, plays its changes (and records as
    /// `recordedWith`).
    func serveUntilStopped(replay: SessionReplay? = nil, recordedWith: String? = nil) async throws {
        let command = "lowband proxy"
        do {
            try await CommandShutdown.watching(command: command, announce: { signal in Self.log("stopping on signal \(signal.rawValue)") }) { shutdown in
                try await serve(shutdown: shutdown, replay: replay, recordedWith: recordedWith)
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CommandIO.failure(error, command: command)
        }
    }

    /// What the registry calls with each proxy it makes: the recorder's watch, when recording.
    func watching(_ recorder: SessionRecorder?) -> (@Sendable (String, ShapingProxy) -> Void)? {
        guard let recorder else { return nil }
        return { name, proxy in recorder.watch(proxy, name: name, offset: recorder.clock()) }
    }

    /// Judges the recorded session and writes its folder; one line on stderr says the verdict.
    func writeRecord(_ recorder: SessionRecorder, to folder: String, problems: [String], recordedWith: String?) async throws {
        let loaded = try? NetworkProfile.load(named: profile)
        let roundTrip = loaded.map { $0.uplink.delay + $0.downlink.delay } ?? .zero
        let session = await recorder.finish(
            bounds: try sessionBounds, roundTrip: roundTrip, floor: loaded.map(NetworkRecord.Floor.init) ?? NetworkRecord.Floor(up: 0, down: 0))
        var header = [
            "lowband proxy \(name) → \(upstream ?? (socks != nil ? "SOCKS5" : "HTTP proxy") + " (the app names each destination)") on \(profile), seed \(seed), \(String(format: "%.1f", session.elapsed.seconds)) s recorded",
        ]
        // What the network did that someone made (the API, the profile), from the proxies' events.
        if !session.played.isEmpty { header.append("faults played: " + session.played.joined(separator: "; ")) }
        // The same network again is this folder replayed; the line that recorded it is kept for that.
        let again = CommandWords.join(["lowband", "proxy", "--replay", folder])
        do {
            try session.write(
                to: folder, header: header, problems: problems, suite: "proxy.record", benchmark: profile, command: again,
                recordedWith: recordedWith ?? RunEnvironment.current().command)
        } catch {
            throw CommandIO.IOError(description: "--record: cannot write \(folder): \(SystemErrorText.describe(error))")
        }
        Self.log("recorded \(session.events.count) events from \(session.devices) device(s); promises: \(session.book.checks.tally); written to \(folder)/ (report.html, record.json, trace.jsonl, verdict.txt, results.csv)")
        for violation in session.book.violations.prefix(5) { Self.log("  \(violation.summary)") }
    }

    /// One line on stderr.
    static func log(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}

/// The `--trace` file: the link's decisions as JSON lines, written as they are made.
final class TraceFile: Sendable {
    private let output: Output
    let writer: JSONLinesTraceWriter

    /// The descriptor, shared by the writer's closure and `close()`.
    private final class Output: Sendable {
        let descriptor: Mutex<Int32>

        init(_ descriptor: Int32) {
            self.descriptor = Mutex(descriptor)
        }

        func write(_ line: String) {
            descriptor.withLock { descriptor in
                guard descriptor >= 0 else { return }
                Array(line.utf8).withUnsafeBytes { _ = try? CommandIO.write($0, to: descriptor) }
            }
        }

        func close() {
            descriptor.withLock { descriptor in
                if descriptor >= 0 {
                    #if canImport(Darwin)
                        Darwin.close(descriptor)
                    #elseif canImport(Musl)
                        Musl.close(descriptor)
                    #else
                        Glibc.close(descriptor)
                    #endif
                }
                descriptor = -1
            }
        }
    }

    init(path: String) throws {
        let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard opened >= 0 else {
            throw CommandIO.IOError(description: "cannot write the trace file \(path): \(SystemErrorText.errno())")
        }
        let output = Output(opened)
        self.output = output
        writer = JSONLinesTraceWriter { line in output.write(line) }
    }

    func close() {
        output.close()
    }
}
