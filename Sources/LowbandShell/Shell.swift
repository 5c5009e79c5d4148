import CLowbandNamespace
import Foundation
import Glibc
import LowbandProxy
package import LowbandShaper

/// What `lowband shell` runs and on which link.
package struct ShellConfiguration: Sendable {
    /// The link both directions of every frame cross.
    package var profile: NetworkProfile
    /// The seed of the link's random decisions.
    package var seed: UInt64
    /// The command and its arguments, as given (the command is searched on PATH).
    package var command: [String]
    /// The command's environment, to which `LOWBAND_HOST` is added.
    package var environment: [String: String]
    /// Where the link's decisions go, one per frame (enqueue, drop and its cause, deliver).
    package var trace: (any ShaperTraceSink)?
    /// Where `/stats` and `/metrics` listen (port 0: any free one); nil: no API.
    package var api: (host: String, port: Int)?
    /// Told the API's address once it listens, before the command starts.
    package var announce: @Sendable (String) -> Void
    /// What the API offers beyond the link's figures (the page's token, profiles, the record's
    /// app events); needed with ``api``.
    package var apiOptions: ShellAPIOptions?
    /// Called on the session's thread just before the link starts: a record notes the time.
    package var started: @Sendable () -> Void = {}
    /// A TCP port of the host's loopback whose frames skip the link both ways, like ARP: an
    /// observer's channel (`explore --shell`'s event sink), not the command's traffic. nil: none.
    package var unshapedPort: UInt16?

    package init(
        profile: NetworkProfile, seed: UInt64 = 1, command: [String], environment: [String: String] = [:], trace: (any ShaperTraceSink)? = nil,
        api: (host: String, port: Int)? = nil, announce: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.api = api
        self.announce = announce
        self.profile = profile
        self.seed = seed
        self.command = command
        self.environment = environment
        self.trace = trace
    }
}

/// `lowband shell`: a command in its own network namespace whose every frame crosses the
/// profile's link, then libslirp to the host.
package enum Shell {
    /// The variable that holds the address at which the host's loopback is reachable inside.
    package static let hostVariable = "LOWBAND_HOST"
    /// The variable that holds the API's URL as seen from inside (with `--api` on the loopback).
    package static let apiVariable = "LOWBAND_API"

    /// Runs the command to its end: its exit status and what crossed the link. Throws before
    /// anything runs when the command is not found, user namespaces are off, or setup fails.
    /// `link` is the profile and seed the link ended on (`3g, seed 7`: the API may have switched it).
    package static func run(_ configuration: ShellConfiguration) async throws(ShellError) -> (status: Int32, statistics: ShellStatistics, link: String) {
        guard let name = configuration.command.first else { throw ShellError(.commandNotFound, "no command given: lowband shell [OPTIONS] -- CMD ARGS…") }
        let path = try CommandSearch.resolve(name, path: configuration.environment["PATH"])
        var environment = configuration.environment
        environment[hostVariable] = ShellNetwork.host
        var signalPipe: [Int32] = [-1, -1]
        guard lowband_ns_pipe(&signalPipe) == 0 else {
            throw ShellError(.system, "pipe2 for signals: \(String(cString: strerror(errno)))")
        }
        defer {
            lowband_ns_release_signals()
            close(signalPipe[0])
            close(signalPipe[1])
        }
        var first = ShellSnapshot(profile: configuration.profile.name, seed: configuration.seed)
        first.networkProfile = configuration.profile
        let observer = ShellObserver(first, wake: signalPipe[1])
        // Every decision passes the tap on its way to the trace: the API streams them from it.
        let tap = ShellEventTap(next: configuration.trace)
        var api: ShellAPI?
        if let address = configuration.api {
            // Without options from the caller the API switches to no other profile (but seeds, yes).
            let options = configuration.apiOptions ?? ShellAPIOptions(
                pageToken: BrowserGate.makeToken(), loadProfile: { name in throw ShellError(.setup, "no profile loader: '\(name)'") }, profileNames: { [] })
            let server = try await ShellAPI.start(host: address.host, port: address.port, observer: observer, tap: tap, options: options)
            api = server
            configuration.announce("API on http://\(address.host):\(server.port) (GET /stats, GET /metrics, the proxy's routes under /proxies/\(ShellRoutes.linkName))")
            configuration.announce("live page: http://\(address.host):\(server.port)/ui?token=\(options.pageToken)")
            // Inside, the host's IPv4 loopback is LOWBAND_HOST: the command can read its own link's figures.
            if address.host.hasPrefix("127.") || address.host == "localhost" {
                environment[apiVariable] = "http://\(ShellNetwork.host):\(server.port)"
            }
        }
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<(status: Int32, statistics: ShellStatistics), ShellError>, Never>) in
            // The loop blocks in poll(2) for the whole session: a thread of its own, not one of
            // the cooperative pool's.
            let thread = Thread { [environment, signalPipe] in
                continuation.resume(returning: Result { () throws(ShellError) in
                    try runSession(configuration, path: path, environment: environment, signals: signalPipe, observer: observer, trace: tap)
                })
            }
            thread.name = "lowband shell"
            thread.start()
        }
        await api?.stop()
        let (status, statistics) = try outcome.get()
        let last = observer.snapshot
        return (status, statistics, "\(last.profile), seed \(last.seed)")
    }

    /// The namespace made, the command started in it and the session's loop run to its end.
    private static func runSession(
        _ configuration: ShellConfiguration, path: String, environment: [String: String], signals signalPipe: [Int32], observer: ShellObserver,
        trace: any ShaperTraceSink
    ) throws(ShellError) -> (status: Int32, statistics: ShellStatistics) {
        let variables = environment.keys.sorted().map { "\($0)=\(environment[$0]!)" }

        let resolvConf = try writeResolvConf()
        // libslirp writes to the host's sockets with send(2) and no MSG_NOSIGNAL: a peer that
        // closed must be an EPIPE for it to handle, not the end of this process (QEMU and
        // slirp4netns ignore SIGPIPE too). The namespace's init sets it back to the default.
        signal(SIGPIPE, SIG_IGN)
        guard lowband_ns_catch_signals(signalPipe[1]) == 0 else {
            throw ShellError(.system, "sigaction: \(String(cString: strerror(errno)))")
        }
        let spawned = Result { () throws(ShellError) in
            try NamespaceChild.spawn(path: path, arguments: configuration.command, environment: variables, mtu: configuration.profile.mtu, resolvConf: resolvConf)
        }
        // Bound inside by now, the file lives on in the namespace's mount: gone from /tmp at
        // once, even if this process is killed later.
        unlink(resolvConf)
        let child = try spawned.get()
        configuration.started()
        let link = PacketLink(profile: configuration.profile, seed: configuration.seed, trace: trace)
        let session: ShellSession
        do {
            session = try ShellSession(child: child, link: link, signals: signalPipe[0], observer: observer, unshapedPort: configuration.unshapedPort)
        } catch {
            // Nothing may stay behind: closing the lifeline ends the namespace.
            close(child.lifelineDescriptor)
            close(child.tapDescriptor)
            var status: Int32 = 0
            waitpid(child.pid, &status, 0)
            throw error
        }
        let status = session.run()
        return (status, session.statistics)
    }

    /// A resolv.conf naming slirp's DNS forwarder, bound over /etc/resolv.conf inside.
    private static func writeResolvConf() throws(ShellError) -> String {
        var template = Array("/tmp/lowband-shell-resolv-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw ShellError(.system, "cannot create a resolv.conf in /tmp: \(String(cString: strerror(errno)))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let text = "# lowband shell: DNS through slirp's forwarder, across the shell's link\nnameserver \(ShellNetwork.nameserver)\n"
        let written = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        fchmod(fd, 0o644)
        close(fd)
        guard written == text.utf8.count else {
            unlink(path)
            throw ShellError(.system, "cannot write \(path)")
        }
        return path
    }
}
