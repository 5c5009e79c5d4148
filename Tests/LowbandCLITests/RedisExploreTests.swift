import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband explore --exec` on a second stack nobody here wrote: the Redis server (Debian) and a
/// two-device pub/sub chat on redis-py (PyPI), Examples/RedisChat, each device on its own link.
/// Redis pub/sub keeps nothing for a subscriber that is away: when bob's connection is reset, what
/// alice publishes before he has subscribed again is lost — the network's doing, which Lowband
/// must name and prove. With a planted app bug (bob's app throws away what arrives just after a
/// reconnect) the network delivered those messages, and Lowband must say no fault touched them.
@Suite(.serialized, .tags(.wallClock, .sweep), .timeLimit(.minutes(10))) struct RedisExploreTests {
    // Real time on real sockets: the serial pass keeps these sweeps from starving under load.
    private static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/RedisChat").path

    /// A Redis server on a free port for `body`, stopped afterwards.
    private func withServer(_ body: (Int) async throws -> Void) async throws {
        let port = try ListeningPort().port
        let server = try await ChildProcess("/bin/bash", ["\(Self.example)/redis.sh", String(port)], ownGroup: true)
        defer { server.sendToGroup(SIGTERM) }
        let ready = try await Readiness.python("import redis; redis.Redis(port=\(port), socket_connect_timeout=1).ping()")
        try #require(ready, "redis-server did not start: \(server.stderrText)")
        try await body(port)
    }

    private func explore(_ port: Int, chat: String, _ extra: [String], out: String) async throws -> (stdout: String, stderr: String, status: Int32) {
        let result = try await LowbandBinary.run([
            "explore", "--upstream", "alice=127.0.0.1:\(port)", "--upstream", "bob=127.0.0.1:\(port)", "--exec", "python3 \(Self.example)/chat.py \(chat)",
            "--profile", "3g", "--faults", "after:received=reset", "--bound", "settle=2s", "--out", out,
        ] + extra)
        return (result.stdoutText, result.stderrText, result.status)
    }

    @Test func messagesPublishedWhileTheSubscribersLinkIsDownAreLostAndTheResetIsProved() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-redis-test")
        try await withServer { port in
            let result = try await explore(
                port, chat: "--messages 20 --interval 0.1 --linger 2", ["--seeds", "1", "--prove", "--prove-runs", "2"], out: directory.file("network"))
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            let found = result.stdout.split(separator: "\n").filter { $0.hasPrefix("seed ") && $0.contains(" — ") }
            #expect(found.count == 1, "\(result.stdout)")
            for line in found {
                // The cause: bob's connection reset by the aimed fault. Usually the message reaches
                // the server inside bob's gap; on a loaded machine it can reach it in the very
                // millisecond of the reset, and then the connection carried nothing of it before
                // the reset. Either way the verdict names that reset, not a neighbour.
                let inTheGap = line.contains("; cause: bob had no working connection from ") && line.contains("(bob's connection 1 was reset by fault 1 at ")
                    && line.contains("reached the server at ") && line.contains("inside that gap")
                let atTheReset = line.contains("; cause: bob's connection 1 carried nothing of m-") && line.contains("reached the server at ")
                    && line.contains(" before it was reset by fault 1 at ")
                #expect(inTheGap || atTheReset, "\(line)")
            }
            let proofs = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  cause:") }
            #expect(proofs.count == 1, "\(result.stdout)")
            for proof in proofs {
                #expect(proof.contains("proved: without fault 1 (after:received=reset) acknowledged_lost of m-"), "\(proof)")
                #expect(proof.hasSuffix(" on bob held 2 of 2, with it alone acknowledged_lost on bob broke 2 of 2"), "\(proof)")
            }
            for seed in 1 ... 1 {
                let faults = try String(contentsOfFile: directory.file("network/sessions/seed-\(seed)/faults.txt"), encoding: .utf8)
                #expect(faults.contains("recorder check: the proxies' events agree with the 1 fault(s) asked, link by link"), "\(faults)")
                #expect(faults.contains("fault 1 (after:received=reset): reset at ") && faults.contains(" on bob (connection 1)"), "\(faults)")
            }
        }
    }

    @Test func messagesTheAppThrowsAwayAreSaidToBeTheAppsNotTheNetworks() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-redis-test")
        try await withServer { port in
            let result = try await explore(
                port, chat: "--messages 30 --interval 0.1 --linger 2.5 --drop-after-reconnect 1.5", ["--seeds", "1"], out: directory.file("app"))
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            let verdict = try String(contentsOfFile: directory.file("app/sessions/seed-1/verdict.txt"), encoding: .utf8)
            let causes = verdict.split(separator: "\n").compactMap { line in line.range(of: "; cause: ").map { String(line[$0.upperBound...]) } }
            // Those the network delivered and bob's app dropped: no fault touched them.
            let apps = causes.filter { $0.hasPrefix("no fault touched m-") }
            #expect(!apps.isEmpty, "\(verdict)")
            for cause in apps {
                #expect(cause.contains(" on bob's link: it reached the server at ") && cause.contains("; bob's connection ") && cause.contains(" delivered "), "\(cause)")
                #expect(cause.contains("bob's app did not show it"), "\(cause)")
            }
            // Those published while his link was down are still the reset's.
            #expect(causes.contains { $0.hasPrefix("bob had no working connection from ") && $0.contains("reset by fault 1") }, "\(verdict)")
        }
    }
}
