import LowbandScenarios
import Testing

/// Seeds that once broke a promise, kept as tests: paste a failing seed's `reproduce:` or
/// `shrunk:` line from `lowband explore` into `commands` (docs/EXPLORE.md, "Seeds as
/// regression tests"). Each must keep every promise now.
@Suite struct RegressionSeedTests {
    static let commands: [String] = [
        // Live messages did not update the chat list's unread counts (chat_list_mismatch).
        "lowband run --scenario crowd --profile edge --seed 1 --clients 2 --duration 150s --virtual-time",
        // A send waited 196 s behind an uplink stalled on losses while pushes kept arriving: the
        // link looked alive, so nothing reconnected (liveness; the class of the crowd hour's 546 s).
        "lowband run --scenario crowd --profile edge --seed 313 --clients 5 --duration 600s --virtual-time --faults app-kill",
        // A reset_peer toxic dropped a login reply but not the pushes behind it: the login waited
        // while pushes kept the link busy, and the cache took them as continuing what it had,
        // hiding a message for good (acknowledged_lost; 69 of 1,000 swarm seeds).
        "lowband run --scenario crowd --profile edge --seed 466 --clients 4 --duration 600s --virtual-time --faults toxic-reset-peer",
        "lowband run --scenario crowd --profile edge --seed 965 --clients 3 --duration 300s --virtual-time --faults toxic-reset-peer",
        // The rider's message was acknowledged after the partner's newer one was on screen and
        // took its echo's place below it: the screen disagreed with the server's order (order).
        "lowband run --scenario subway --profile edge --seed 12 --clients 1 --duration 300s --virtual-time --faults outage,handover,connection-reset,partition,toxic-latency,toxic-bandwidth,toxic-reset-peer",
        // A send's reply was lost with its link; after the next login (whose unread count already
        // counted from that message) the resend's reply took the messages below it off the count
        // a second time: one unread too few (chat_list_mismatch).
        "lowband run --scenario crowd --profile edge --seed 134 --clients 5 --duration 600s --virtual-time --faults outage,reset,server-restart",
        "lowband run --scenario crowd --profile edge --seed 897 --clients 5 --duration 600s --virtual-time --faults outage,reset,server-restart",
    ]

    @Test(arguments: commands)
    func keepsEveryPromise(_ command: String) async throws {
        let options = try ScenarioOptions(reproducing: command, searchPath: [ScenarioFixtures.profiles])
        let output = try await ScenarioRunner.run(options)
        let broken = output.record.violations.prefix(5).map { "\($0.invariant): \($0.detail)" }
        let broke = output.record.hasViolations
        #expect(!broke, "\(command)\n\(broken.joined(separator: "\n"))")
        #expect(output.record.invariants.reduce(0) { $0 + $1.checked } > 0)
    }
}
