/// What one seed of an exploration did.
public struct SeedOutcome: Sendable, Hashable {
    /// The seed.
    public var seed: UInt64
    /// The faults the seed ran with, spelled out (`reset,app-kill`, `none`).
    public var faults: String
    /// Client engines in the run.
    public var clients: Int
    /// Virtual time the run lasted, in seconds.
    public var durationSeconds: Double
    /// Violations per broken invariant, in the checks' order.
    public var broken: [(name: String, count: Int)]
    /// The first violation, in words, with its place.
    public var firstViolation: String
    /// Wall-clock time of the run (both runs with `--check-determinism`), milliseconds.
    public var wallMilliseconds: Double
    /// FNV-1a 64 of the trace and the record's figures and checks, hex.
    public var traceHash: String
    /// `same` or `differs: <the first differing trace line>`; empty when not checked.
    public var determinism: String
    /// The `lowband run` command that reproduces the seed.
    public var command: String
    /// The shrunk reproducing command, when `--shrink` found a smaller failing run.
    public var shrunk: String
    /// With `--prove`: whether the cause was proved by runs without it and with it alone, and
    /// what made the difference when it was not; empty when not proved or not asked.
    public var proof = ""
    /// The seed's session folder relative to the sweep's folder (`sessions/seed-3`) when it was
    /// kept (an `--exec` seed that failed, or with `--keep-sessions`); empty otherwise.
    public var session = ""
    /// The promises the seed's run had no case of; nil when not known (an `--exec` seed, an
    /// outcome read back from `explore.csv`, which does not keep it).
    public var unchecked: [String]?

    /// An outcome with every column given.
    package init(
        seed: UInt64, faults: String, clients: Int, durationSeconds: Double, broken: [(name: String, count: Int)], firstViolation: String,
        wallMilliseconds: Double, traceHash: String, determinism: String, command: String, shrunk: String
    ) {
        self.seed = seed
        self.faults = faults
        self.clients = clients
        self.durationSeconds = durationSeconds
        self.broken = broken
        self.firstViolation = firstViolation
        self.wallMilliseconds = wallMilliseconds
        self.traceHash = traceHash
        self.determinism = determinism
        self.command = command
        self.shrunk = shrunk
    }

    /// True when an invariant broke or the seed did not replay the same.
    public var failed: Bool { !broken.isEmpty || determinism.hasPrefix("differs") }

    /// The violations in one word group: `liveness×2 order×1`, or `determinism` .
    public var verdict: String {
        var parts = broken.map { "\($0.name)×\($0.count)" }
        if determinism.hasPrefix("differs") { parts.append("determinism") }
        return parts.isEmpty ? "ok" : parts.joined(separator: " ")
    }

    public static func == (lhs: SeedOutcome, rhs: SeedOutcome) -> Bool {
        lhs.seed == rhs.seed && lhs.faults == rhs.faults && lhs.clients == rhs.clients && lhs.durationSeconds == rhs.durationSeconds
            && lhs.broken.map(\.name) == rhs.broken.map(\.name) && lhs.broken.map(\.count) == rhs.broken.map(\.count)
            && lhs.firstViolation == rhs.firstViolation && lhs.wallMilliseconds == rhs.wallMilliseconds && lhs.traceHash == rhs.traceHash
            && lhs.determinism == rhs.determinism && lhs.command == rhs.command && lhs.shrunk == rhs.shrunk && lhs.proof == rhs.proof
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seed)
        hasher.combine(traceHash)
    }
}
