import Foundation
import LowbandFixtures
import LowbandProcess
import LowbandTestSupport
import Testing

/// Lowband's own engine driven the way any app is: `lowband client` processes print their
/// moments as app events, `lowband explore --exec` runs them against the real `lowband server`
/// behind its proxies, and the event checker judges them with the judges `lowband run`'s checker
/// hands its own facts to (PromiseJudges) — the verdict `lowband run` gives the engine on the same
/// profile and seed (every promise held), with the cases counted.
@Suite(.serialized, .tags(.wallClock, .sweep), .timeLimit(.minutes(5))) struct OwnEngineExecTests {
    // Real processes on sockets and the wall clock: the serial pass keeps them from starving.
    private let shape = MessengerWorld.Shape(users: 6, chatsPerUser: 3, messagesPerChat: 5)

    @Test func theEngineHoldsEveryPromiseAsLowbandRunSays() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-own-engine")
        let server = try await LowbandBinary.start([
            "server", "--listen", "127.0.0.1:0", "--seed", "4", "--users", "6", "--chats-per-user", "3", "--messages-per-chat", "5",
        ])
        defer { server.send(SIGTERM) }
        let (listening, _) = try await server.lines { $0.hasPrefix("listening on ") }
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let world = MessengerWorld(seed: 4, shape: shape)
        let alice = world.users[0]
        let chat = try #require(world.chats(of: alice.id).first { $0.memberIDs.count == 2 })
        let bob = try #require(world.users.first { $0.id != alice.id && chat.memberIDs.contains($0.id) })
        let lowband = LowbandBinary.path
        let command = """
            "\(lowband)" client --server "$LOWBAND_PROXY" --token \(bob.token) --database "\(directory.path)/bob-$LOWBAND_SEED.sqlite" --seed 2 \
            --app-events bob listen --for 11s --open \(chat.id) &
            sleep 2
            "\(lowband)" client --server "$LOWBAND_PROXY" --token \(alice.token) --database "\(directory.path)/alice-$LOWBAND_SEED.sqlite" --seed 1 \
            --app-events alice --timeout 60s send --chat \(chat.id) --count 5
            wait
            """
        // An aimed reset just after a send: where a messenger's promises are hardest to keep.
        for (faults, out) in [("after:sent=reset", "reset")] {
            let result = try await LowbandBinary.run([
                "explore", "--upstream", "chat=127.0.0.1:\(port)", "--exec", command, "--profile", "edge", "--seeds", "1",
                "--faults", faults, "--bound", "settle=3s", "--keep-sessions", "--out", directory.file(out),
            ])
            #expect(result.status == 0, "\(faults): \(result.stdoutText)\(result.stderrText)")
            let verdict = try String(contentsOfFile: directory.file("\(out)/sessions/seed-1/verdict.txt"), encoding: .utf8)
            #expect(verdict.contains("promises: 4 of 4 held"), "\(faults): \(verdict)")
            // Not vacuous: every message was judged on bob, who had the chat open.
            #expect(verdict.contains("acknowledged_lost: held on 5 cases"), "\(faults): \(verdict)")
            #expect(verdict.contains("duplicated: held on"))
            #expect(verdict.contains("liveness: held on 5 cases"))
        }
        // lowband run on the same profile and seed: every promise it judges held.
        let run = try await LowbandBinary.run([
            "run", "--scenario", "push-to-visible", "--profile", "edge", "--seed", "1", "--virtual-time", "--out", directory.file("run"),
        ])
        #expect(run.status == 0, "\(run.stdoutText)\(run.stderrText)")
    }
}
