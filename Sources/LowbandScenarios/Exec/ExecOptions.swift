import Foundation
package import LowbandAppEvents
import LowbandBasics
package import LowbandShaper

/// What `lowband explore --exec` runs: the user's command against fresh proxies in front of
/// their upstreams, once per seed (docs/APP-EVENTS.md).
package struct ExecOptions: Sendable {
    /// One upstream: its name (for `LOWBAND_PROXY_<NAME>`) and address.
    package struct Upstream: Sendable, Hashable {
        /// Its name: `mqtt` in `mqtt=127.0.0.1:1883`, else `up1`, `up2`…
        package var name: String
        /// Its host.
        package var host: String
        /// Its TCP port.
        package var port: Int

        /// An upstream named `name` at `host:port`.
        package init(name: String, host: String, port: Int) {
            self.name = name
            self.host = host
            self.port = port
        }

        /// `[NAME=]HOST:PORT` as written.
        package var spelled: String { "\(name)=\(host):\(port)" }
    }

    /// The servers the app talks to, each of which gets a proxy.
    package var upstreams: [Upstream]
    /// The command, run by `/bin/sh -c`.
    package var command: String
    /// The network every proxy's link plays.
    package var profile: NetworkProfile
    /// The name the profile was asked for by, for the reproducing commands.
    package var profileName: String
    /// The seeds to run.
    package var seeds: SeedSelection
    /// The faults each seed plays.
    package var faults: ExecFaultPlan
    /// The fault window: faults are placed in its first 80 % and their lengths scale with it.
    package var window: Duration
    /// A command still running after this is killed with its whole process group.
    package var timeout: Duration
    /// Seeds run side by side, each with its own proxies and ports.
    package var jobs: Int
    /// Runs of a failing seed again, to tell a failure every run shows from a timing one.
    package var repeats: Int
    /// Reduce every failing seed to a smaller plan and window that fail the same way.
    package var shrink: Bool
    /// The promises' bounds (the profile's, with `--bound` overrides).
    package var bounds: EventBounds
    /// `--bound` options as given, for the reproducing commands.
    package var boundOptions: [String]
    /// Where failing seeds keep their session folders.
    package var directory: String
    /// A file the app appends its events to, `{seed}` standing for the seed; nil: none.
    package var eventsFile: String?
    /// Keep the session folder of every seed, not only of the failing ones.
    package var keepSessions: Bool
    /// Which of each seed's numbered faults are played (`--without-faults`, `--only-faults`).
    package var selection: FaultSelection = .all
    /// With `--prove`: how many runs without the cause, and with it alone, each failing seed gets
    /// (0: no proof).
    package var proveRuns = 0
    /// With `--shell`: the `lowband` executable that runs each seed's command in a `lowband
    /// shell` of its own (no upstreams: every packet crosses the seed's link); nil: proxies.
    package var shellExecutable: String?

    /// The links faults act on and the record names: the upstreams' proxies, or the shell's one
    /// packet link (`shell`).
    package var links: [String] { shellExecutable == nil ? upstreams.map(\.name) : [ExecShell.linkName] }

    /// The fault kinds a seed may play: every kind with proxies, the link's own with `--shell`.
    package var faultKinds: [ExecFaultKind] { shellExecutable == nil ? ExecFaultKind.allCases : ExecFaultKind.shellKinds }

    /// Options with every field given.
    package init(
        upstreams: [Upstream], command: String, profile: NetworkProfile, profileName: String, seeds: SeedSelection, faults: ExecFaultPlan,
        window: Duration, timeout: Duration, jobs: Int, repeats: Int, shrink: Bool, bounds: EventBounds, boundOptions: [String], directory: String,
        eventsFile: String? = nil, keepSessions: Bool = false
    ) {
        self.eventsFile = eventsFile
        self.keepSessions = keepSessions
        self.upstreams = upstreams
        self.command = command
        self.profile = profile
        self.profileName = profileName
        self.seeds = seeds
        self.faults = faults
        self.window = window
        self.timeout = timeout
        self.jobs = jobs
        self.repeats = repeats
        self.shrink = shrink
        self.bounds = bounds
        self.boundOptions = boundOptions
        self.directory = directory
    }

    /// `[NAME=]HOST:PORT`; without a name the upstreams are `up1`, `up2`…
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` naming the bad part.
    package static func upstream(_ text: String, index: Int) throws(ScenarioError) -> Upstream {
        var name = "up\(index + 1)"
        var address = text
        if let equals = text.firstIndex(of: "=") {
            name = String(text[..<equals])
            address = String(text[text.index(after: equals)...])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw ScenarioError(.invalidOptions, "--upstream \(text): the name must be letters, digits, _ or -")
            }
        }
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]), (1 ... 65535).contains(port) else {
            throw ScenarioError(.invalidOptions, "--upstream \(text): expected [NAME=]HOST:PORT with a port 1-65535")
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return Upstream(name: name, host: host.isEmpty ? "127.0.0.1" : host, port: port)
    }

    /// The events file of `seed`, if the app writes one.
    func eventsFile(seed: UInt64) -> String? {
        eventsFile?.replacingOccurrences(of: "{seed}", with: String(seed))
    }

    /// The environment variable of an upstream's proxy: `LOWBAND_PROXY_MQTT` for `mqtt`.
    static func variable(of upstream: Upstream) -> String {
        "LOWBAND_PROXY_" + upstream.name.uppercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
    }

    /// The command that runs `seed` again alone, with `faults`, `window` and `selection`
    /// (by default the options' own).
    package func command(seed: UInt64, faults: ExecFaultPlan, window: Duration, selection: FaultSelection? = nil) -> String {
        var parts = ["lowband", "explore"]
        if shellExecutable != nil { parts.append("--shell") }
        for upstream in upstreams { parts += ["--upstream", upstream.spelled] }
        parts += ["--exec", command, "--profile", profileName, "--seeds", String(seed), "--faults", faults.description,
                  "--duration", DurationText.format(window), "--timeout", DurationText.format(timeout)]
        parts += (selection ?? self.selection).words
        for bound in boundOptions { parts += ["--bound", bound] }
        if let eventsFile { parts += ["--events", eventsFile] }
        return CommandWords.join(parts)
    }
}
