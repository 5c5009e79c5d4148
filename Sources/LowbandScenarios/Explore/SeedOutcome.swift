/// What one seed of an exploration did.
package struct SeedOutcome: Sendable, Hashable {
    /// The seed.
    package var seed: UInt64
    /// The faults the seed ran with, spelled out (`reset,app-kill`, `none`).
    package var faults: String
    /// Client engines in the run.
    package var clients: Int
    /// Virtual time the run lasted, in seconds.
    package var durationSeconds: Double
    /// Violations per broken invariant, in the checks' order.
    package var broken: [(name: String, count: Int)]
    /// The first violation, in words, with its place.
    package var firstViolation: String
    /// Wall-clock time of the run (both runs with `--check-determinism`), milliseconds.
    package var wallMilliseconds: Double
    /// FNV-1a 64 of the trace and the record's figures and checks, hex.
    package var traceHash: String
    /// `same` or `differs: <the first differing trace line>`; empty when not checked.
    package var determinism: String
    /// The `lowband run` command that reproduces the seed.
    package var command: String
    /// The shrunk reproducing command, when `--shrink` found a smaller failing run.
    package var shrunk: String
    /// With `--prove`: whether the cause was proved by runs without it and with it alone, and
    /// what made the difference when it was not; empty when not proved or not asked.
    package var proof = ""
    /// The seed's session folder relative to the sweep's folder (`sessions/seed-3`) when it was
    /// kept (an `--exec` seed that failed, or with `--keep-sessions`); empty otherwise.
    package var session = ""
    /// The promises the seed's run had no case of; nil when not known (an `--exec` seed, an
    /// outcome read back from `explore.csv`, which does not keep it).
    package var unchecked: [String]?

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
    package var failed: Bool { !broken.isEmpty || determinism.hasPrefix("differs") }

    /// The violations in one word group: `liveness×2 order×1`, or `determinism` .
    package var verdict: String {
        var parts = broken.map { "\($0.name)×\($0.count)" }
        if determinism.hasPrefix("differs") { parts.append("determinism") }
        return parts.isEmpty ? "ok" : parts.joined(separator: " ")
    }

    package static func == (lhs: SeedOutcome, rhs: SeedOutcome) -> Bool {
        lhs.seed == rhs.seed && lhs.faults == rhs.faults && lhs.clients == rhs.clients && lhs.durationSeconds == rhs.durationSeconds
            && lhs.broken.map(\.name) == rhs.broken.map(\.name) && lhs.broken.map(\.count) == rhs.broken.map(\.count)
            && lhs.firstViolation == rhs.firstViolation && lhs.wallMilliseconds == rhs.wallMilliseconds && lhs.traceHash == rhs.traceHash
            && lhs.determinism == rhs.determinism && lhs.command == rhs.command && lhs.shrunk == rhs.shrunk && lhs.proof == rhs.proof
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(seed)
        hasher.combine(traceHash)
    }
}
