import ArgumentParser
import Foundation
import LowbandBasics
import LowbandProfiles
import LowbandProxy
import LowbandShaper
import LowbandShell

/// `lowband shell`: a command whose every packet crosses the profile's link, without root.
struct ShellCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shell",
        abstract: "Run a command whose every packet (TCP, UDP, DNS) crosses the profile's link, in its own network namespace, without root.",
        discussion: """
            CMD runs in new user, network, mount and PID namespaces (no root, no setuid helper): \
            its only interface besides lo is a TAP device whose frames this process carries, each \
            through the profile's link — rate counting the packet's bytes, delay, jitter, loss as \
            real drops (bursty when the profile says so), a drop-tail queue of the profile's size, \
            outages, handovers, the radio's wake-up — and then through libslirp to the host. The \
            host's loopback is reachable inside at $LOWBAND_HOST (10.0.2.2); DNS goes to slirp's \
            forwarder at 10.0.2.3. CMD's exit status is the shell's (127: not found); when it ends \
            everything it started inside is killed. No user namespaces: one line naming the \
            sysctl, exit 2. See docs/SHELL.md.

            Example: lowband shell --profile edge --seed 7 -- curl -s http://$LOWBAND_HOST:8000/
            (quote it so that the shell inside expands it: -- sh -c 'curl http://$LOWBAND_HOST:8000/')
            """
    )

    @Option(help: "Network profile of the link: a name from `lowband profiles list`, a YAML file, or perfect.")
    var profile: String = "perfect"

    @OptionGroup var seedOption: SeedOption

    @Option(help: "Write every decision of the link (a JSON line per frame: enqueue, drop and its cause, deliver; outages) to this file.")
    var trace: String?

    @Option(help: "Serve the link's control API at this loopback host:port (port 0: any free one; printed on stderr, with the live page's address): GET /stats, GET /metrics, POST /outage, and the proxy's routes for the link named shell (switch profile or seed, outage, handover, toxics, /ui). The command reads it too, at $LOWBAND_API.")
    var api: String?

    @Option(help: "Record the session into this folder, as `lowband proxy --record` does: the link's trace (trace.jsonl), the app's events (POST /events on the API), record.json with the command, its exit status and the frames each way, and report.html (`lowband report DIR` renders it again). Ctrl-C ends the command and still finishes the record.")
    var record: String?

    @OptionGroup var boundsOption: BoundsOption

    @Option(name: .customLong("unshaped-port"), help: .hidden)
    var unshapedPort: Int?

    @Flag(help: "Do not print the summary line (frames delivered and dropped each way) on stderr at the end.")
    var quiet = false

    @Argument(parsing: .captureForPassthrough, help: "-- CMD ARGS…: the command to run inside and its arguments.")
    var command: [String] = []

    init() {}

    static let options = ["--profile", "--seed", "--trace", "--api", "--record", "--bound", "--unshaped-port", "--quiet"]

    func validate() throws {
        try PassedThrough.validate(command, of: self, options: Self.options, program: "the command to run")
        if let api {
            let endpoint = try AddressOption.parse(api, option: "--api")
            // POST /outage changes the link: only this machine may ask.
            guard endpoint.isLoopback else {
                throw ValidationError("--api \(api) would be reachable from other machines, and POST /outage changes the link: give a loopback address (127.0.0.1:PORT)")
            }
        }
        if let unshapedPort, !(1 ... 65535).contains(unshapedPort) {
            throw ValidationError("--unshaped-port \(unshapedPort): a TCP port is 1-65535")
        }
        if arguments.isEmpty {
            throw ValidationError("no command to run: lowband shell [--profile P] [--seed N] -- CMD ARGS…")
        }
    }

    func run() async throws {
        let name = "lowband shell"
        let loaded: NetworkProfile
        do {
            loaded = try NetworkProfile.load(named: profile)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
        if let record { try OutputDirectory.prepare(record, option: "--record") }
        // A record keeps the link's decisions too, unless --trace sends them elsewhere.
        let traceFile = try (trace ?? record.map { "\($0)/trace.jsonl" }).map { path in
            do { return try TraceFile(path: path) } catch { throw CommandIO.failure(error, command: name) }
        }
        defer { traceFile?.close() }
        let recording = record.map { _ in ShellRecording(trace: traceFile?.writer) }
        var configuration = ShellConfiguration(
            profile: loaded, seed: seedOption.seed, command: arguments,
            environment: ProcessInfo.processInfo.environment, trace: recording ?? traceFile?.writer,
            api: try api.map { text in
                let endpoint = try AddressOption.parse(text, option: "--api")
                return (endpoint.host, endpoint.port)
            },
            announce: { line in
                let bytes = Array("\(name): \(line)\n".utf8)
                bytes.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
            }
        )
        configuration.apiOptions = ShellAPIOptions(
            pageToken: ControlServer.makePageToken(), loadProfile: { try NetworkProfile.load(named: $0) }, profileNames: ProxyRegistry.profileNames,
            events: recording?.recorder.log, record: recording?.recorder.pause, log: { Self.log($0) })
        if let recording { configuration.started = { recording.linkStarted() } }
        if let record, api == nil {
            Self.log("lowband shell: warning: recording into \(record)/ without --api: the record will hold the link's decisions but no app events (POST /events)")
        }
        // `explore --shell`'s event sink on the host's loopback: its frames skip the link.
        configuration.unshapedPort = unshapedPort.map { UInt16($0) }
        let outcome: (status: Int32, statistics: ShellStatistics, link: String)
        do {
            outcome = try await Shell.run(configuration)
        } catch {
            throw CommandIO.failure(error, command: name, status: error.exitStatus)
        }
        if !quiet {
            let started = "\(loaded.name), seed \(seedOption.seed)"
            let switched = outcome.link == started ? "" : " (switched through the API; \(outcome.link) at the end)"
            Self.log("\(name): \(started)\(switched): \(outcome.statistics.summary)")
        }
        if let recording, let record {
            try await writeRecord(recording, to: record, profile: loaded, status: outcome.status, statistics: outcome.statistics)
        }
        throw ExitCode(outcome.status)
    }
}
