import Foundation
package import LowbandShaper

/// Everything that decides a run: which scenario, on which network, with which seed, how many
/// clients, for how long, and on which clock.
///
/// Two runs with equal options in virtual time are identical to the byte; on sockets the
/// network's and the workload's decisions are the same, the timings are the machine's.
package struct ScenarioOptions: Sendable {
    /// The workload and its promises (`push-to-visible`, `crowd`, …).
    package var scenario: ScenarioName
    /// The network, already loaded (`NetworkProfile/load(named:searchPath:)`).
    package var profile: NetworkProfile
    /// The name the profile was asked for by (a name or a file path), for the record.
    package var profileName: String
    /// Seeds the world, the network's decisions, the client engines and the workload.
    package var seed: UInt64
    /// Client engines, each logged in as its own user (user `i + 1` for client `i`).
    package var clients: Int
    /// How long the run lasts on its clock (virtual with ``virtualTime``).
    package var duration: Duration
    /// True: the in-memory network on a simulated clock; false: loopback sockets, the shaping
    /// proxy and the wall clock.
    package var virtualTime: Bool
    /// The command line that reproduces the run; copied into the record.
    package var command: String
    /// Where the client databases go (a fresh directory is made inside and removed at the end);
    /// nil picks `/dev/shm` when it exists, the system's temporary directory otherwise: the
    /// caches' disk syncs would otherwise measure the build machine's disk (seconds under load),
    /// not the network, and on sockets they block the loop the engines share.
    package var workDirectory: String?
    /// Faults to inject (virtual time only): none, a swarm drawn from the seed, or chosen kinds.
    package var faults: FaultPlan
    /// The engines' heartbeat interval (`--heartbeat`); nil: the engine's default
    /// (`ConnectionConfiguration`).
    package var heartbeat: Duration? = nil

    /// The server's idle timeout for a run whose engines ping every ``heartbeat``: it must
    /// outlast a heartbeat interval, or the server drops a client for being quiet exactly as
    /// long as it was told to be — twice the interval and 30 s more; nil: the server's default.
    package var serverIdleTimeout: Duration? {
        heartbeat.map { max(.seconds(90), $0 * 2 + .seconds(30)) }
    }
    /// After ``duration`` the run drains: the scenario sends nothing new, the network heals
    /// (its outages, resets and injected faults end), and the run goes on until nothing is in
    /// flight or the settle bound passes, so every promise the traffic made is judged
    /// (docs/RUN.md, "The drain"). False ends the run at ``duration``, as it stands.
    package var drain: Bool
    /// Whether the client engines offer the shipped wire dictionaries at login, so that the
    /// server agrees one and both directions compress with it (the product's default); false
    /// runs them as clients from before dictionaries, plain LZ4 (docs/PROTOCOL.md,
    /// "Compression dictionaries").
    package var compressionDictionary: Bool

    /// The most client engines one run on sockets may have.
    package static let maximumClients = 1_000
    /// The most client engines one virtual-time run may have: no sockets, one descriptor per
    /// cache (docs/RUN.md has the 10,000-client crowd's time and memory).
    package static let maximumVirtualClients = 10_000
    /// The longest run.
    package static let maximumDuration: Duration = .seconds(24 * 3600)

    /// Options with the scenario's defaults: one client, the scenario's default duration, seed
    /// 1, sockets. Nothing is checked here; ``validate()`` says what is out of range.
    package init(
        scenario: ScenarioName = .pushToVisible,
        profile: NetworkProfile,
        profileName: String? = nil,
        seed: UInt64 = 1,
        clients: Int = 1,
        duration: Duration? = nil,
        virtualTime: Bool = false,
        command: String = "",
        workDirectory: String? = nil,
        faults: FaultPlan = .none,
        drain: Bool = true,
        compressionDictionary: Bool = true
    ) {
        self.scenario = scenario
        self.profile = profile
        self.profileName = profileName ?? profile.name
        self.seed = seed
        self.clients = clients
        self.duration = duration ?? scenario.defaultDuration
        self.virtualTime = virtualTime
        self.command = command
        self.workDirectory = workDirectory
        self.faults = faults
        self.drain = drain
        self.compressionDictionary = compressionDictionary
    }

    /// Rejects impossible combinations before anything starts.
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` saying which option is wrong and what would do.
    package func validate() throws(ScenarioError) {
        if clients < 1 {
            throw ScenarioError(.invalidOptions, "--clients must be at least 1 (got \(clients))")
        }
        if clients < scenario.minimumClients {
            throw ScenarioError(.invalidOptions, "scenario \(scenario) needs at least \(scenario.minimumClients) clients (got \(clients)); try --clients \(scenario.minimumClients)")
        }
        if clients > (virtualTime ? Self.maximumVirtualClients : Self.maximumClients) {
            let limit = virtualTime ? "\(Self.maximumVirtualClients) in virtual time" : "\(Self.maximumClients) on sockets (\(Self.maximumVirtualClients) with --virtual-time)"
            throw ScenarioError(.invalidOptions, "--clients must be at most \(limit) (got \(clients))")
        }
        if duration <= .zero {
            throw ScenarioError(.invalidOptions, "--duration must be positive (got \(duration))")
        }
        if duration > Self.maximumDuration {
            throw ScenarioError(.invalidOptions, "--duration must be at most 24h (got \(duration))")
        }
        if duration < .milliseconds(1) {
            throw ScenarioError(.invalidOptions, "--duration must be at least 1ms (got \(duration))")
        }
        if !faults.isNone, !virtualTime {
            throw ScenarioError(.invalidOptions, "--faults needs --virtual-time (faults are injected into the in-memory network and the simulated apps)")
        }
        if let workDirectory, !FileManager.default.fileExists(atPath: workDirectory) {
            throw ScenarioError(.invalidOptions, "the work directory \(workDirectory) does not exist")
        }
    }
}
