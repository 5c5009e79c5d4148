import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband explore --exec … --shell`: a real app (two Python clients of a relay on the host's
/// loopback) run per seed in a shell of its own, an outage aimed at its acknowledgement, the
/// verdict read from the packet link's decisions, and the printed line run again.
// Real time: a relay's fan-out of 0.8 s against a client's patience of 1.5 s, and outages of seconds.
// A sweep (verdicts, not figures): scripts/test.sh runs it beside the figure suites.
@Suite(.tags(.wallClock, .sweep), .enabled(if: UserNamespaces.available, UserNamespaces.why)) struct ExploreShellTests {
    @Test func aSeedWhoseAppCannotWaitOutTheOutageFailsAndTheVerdictNamesTheLinksDecision() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-shell")
        try Self.client.write(toFile: directory.file("client.py"), atomically: true, encoding: .utf8)
        let relay = try await ChildProcess("python3", ["-u", "-c", Self.relay])
        defer { relay.send(SIGTERM) }
        let port = try #require(try await relay.nextLine().flatMap { Int($0) })
        let exec = "python3 \(directory.file("client.py")) \(port)"
        // Run from the folder, as a user would: the reproducing line writes into reports/ beside the first run.
        func lowband(_ words: String) async throws -> ExternalProcess.Result {
            try await ExternalProcess.run("/bin/sh", ["-c", "cd '\(directory.path)' && '\(LowbandBinary.path)' \(words)"])
        }
        let first = try await lowband(
            "explore --shell --exec '\(exec)' --profile perfect --seeds 1..3 --jobs 3 --faults after:acked=outage:4s --bound settle=1s --repeat 1 --out reports/explore-exec-perfect")
        #expect(first.status == 3, "\(first.stdoutText)\(first.stderrText)")
        let out = first.stdoutText
        #expect(out.contains("in a lowband shell per seed on perfect, seeds 1..3: 3 runs, faults after:acked=outage:4s"), "\(out)")
        // Only seed 2's bob gives up (after 1.5 s); the others wait the outage out.
        #expect(out.contains("3 of 3 seeds run, 1 failing: acknowledged_lost in 1, exit in 1"), "\(out)")
        let verdict = try #require(out.split(separator: "\n").first { $0.hasPrefix("seed 2: acknowledged_lost×1 exit×1 — ") }, "\(out)")
        // The cause is the packet link's: bob's TCP connection, as the shell saw it, and the outage fault 1 forced.
        #expect(verdict.contains("cause: nothing came down bob's connection 2 after m-"), "\(verdict)")
        #expect(verdict.contains("bob's link was down from") && verdict.contains("(fault 1's outage ") && verdict.contains(" s on shell)"), "\(verdict)")
        #expect(out.contains("repeated:  fails every time (2 of 2 runs): the network's decisions decide it"), "\(out)")
        let reproduce = try #require(out.split(separator: "\n").first { $0.hasPrefix("  reproduce: ") }.map { String($0.dropFirst("  reproduce: ".count)) })
        #expect(reproduce == "lowband explore --shell --exec '\(exec)' --profile perfect --seeds 2 --faults after:acked=outage:4s --duration 30s --timeout 120s --bound settle=1s")

        // The session folder: the link's own trace, and its decisions in the record, fault by fault.
        let session = directory.file("reports/explore-exec-perfect/sessions/seed-2")
        let network = try String(contentsOfFile: "\(session)/network.jsonl", encoding: .utf8)
        #expect(network.contains(#""proxy":"shell""#) && network.contains(#""event":"outage-start""#) && network.contains("outage forced for 4.000 s (fault 1)"))
        #expect(network.contains(#""event":"open","connection":2"#), "bob's connection, opened by its SYN")
        let trace = try String(contentsOfFile: "\(session)/link.jsonl", encoding: .utf8)
        #expect(trace.hasPrefix(#"{"t_ns":0,"event":"link""#))
        let faults = try String(contentsOfFile: "\(session)/faults.txt", encoding: .utf8)
        #expect(faults.contains("recorder check: the proxies' events agree with the 1 fault(s) asked"), "\(faults)")
        let verdictFile = try String(contentsOfFile: "\(session)/verdict.txt", encoding: .utf8)

        // The printed line runs seed 2 alone, in a shell again, into a folder of its own.
        let again = try await lowband(String(reproduce.dropFirst("lowband ".count)))
        #expect(again.status == 3, "\(again.stdoutText)\(again.stderrText)")
        #expect(again.stdoutText.contains("seed 2: acknowledged_lost×1 exit×1 — "), "\(again.stdoutText)")
        #expect(again.stdoutText.contains("results in reports/explore-exec-perfect-2/"), "\(again.stdoutText)")
        #expect(try String(contentsOfFile: "\(session)/verdict.txt", encoding: .utf8) == verdictFile, "the first run's evidence is untouched")
    }

    @Test func anAimedResetResetsTheShellsConnectionsAndTheVerdictNamesIt() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-shell-reset")
        try Self.resetClient.write(toFile: directory.file("client.py"), atomically: true, encoding: .utf8)
        let relay = try await ChildProcess("python3", ["-u", "-c", Self.relay])
        defer { relay.send(SIGTERM) }
        let port = try #require(try await relay.nextLine().flatMap { Int($0) })
        let result = try await LowbandBinary.run([
            "explore", "--shell", "--exec", "python3 \(directory.file("client.py")) \(port)", "--profile", "perfect", "--seeds", "1",
            "--faults", "after:acked=reset", "--bound", "settle=1s", "--out", directory.file("out"),
        ])
        #expect(result.status == 3, "\(result.stdoutText)\(result.stderrText)")
        let out = result.stdoutText
        // Just after alice's m-1 is acknowledged every TCP connection of the shell is reset; bob's
        // app swallows its reset and never rejoins, so m-1 never reaches it: the cause is the reset.
        let verdict = try #require(out.split(separator: "\n").first { $0.hasPrefix("seed 1: acknowledged_lost×1 — ") }, "\(out)")
        #expect(verdict.contains("bob never got message m-1 of chat c-1"), "\(verdict)")
        #expect(verdict.contains("cause: bob's connection 2 carried nothing of m-1") && verdict.contains("before it was reset by fault 1 at "), "\(verdict)")
        let session = directory.file("out/sessions/seed-1")
        let network = try String(contentsOfFile: "\(session)/network.jsonl", encoding: .utf8)
        #expect(network.contains(#""event":"reset","connection":2,"detail":"the link reset it: fault 1: reset""#), "\(network)")
        let faults = try String(contentsOfFile: "\(session)/faults.txt", encoding: .utf8)
        #expect(faults.contains("fault 1 (after:acked=reset): reset at ") && faults.contains(" s on shell (connections 1, 2)"), "\(faults)")
        #expect(faults.contains("recorder check: the proxies' events agree with the 1 fault(s) asked"), "\(faults)")
    }

    @Test func faultsAShellCannotPlayAndUpstreamsAreRefusedBeforeAnySeedRuns() async throws {
        let reset = try await LowbandBinary.run(["explore", "--shell", "--exec", "true", "--faults", "outage,partition", "--seeds", "1"])
        #expect(reset.status == 1)
        #expect(reset.stderrText.contains("--faults outage,partition: 'partition' acts on a proxy's connections; with --shell the packet link plays outage, handover and reset"), "\(reset.stderrText)")
        let both = try await LowbandBinary.run(["explore", "--shell", "--exec", "true", "--upstream", "127.0.0.1:9", "--seeds", "1"])
        #expect(both.status == 1)
        #expect(both.stderrText.contains("--shell carries every destination through the seed's packet link; --upstream puts a proxy in front of one"), "\(both.stderrText)")
    }

    @Test func aSeedPastItsTimeoutEndsWithItsShellAndLeavesNothingRunning() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-explore-shell-timeout")
        // A daemon that left CMD's process group: it dies with the seed's namespace.
        let marker = "lowband-explore-shell-\(getpid())"
        let started = directory.file("started")
        let daemon = "setsid python3 -c 'import sys, time; open(sys.argv[1], \"w\").write(\"up\"); time.sleep(300)' \(started) \(marker) &"
        let result = try await LowbandBinary.run([
            "explore", "--shell", "--exec", "\(daemon) sleep 60", "--profile", "perfect", "--seeds", "1",
            "--faults", "none", "--timeout", "2s", "--out", directory.file("out"),
        ])
        #expect(result.status == 3, "\(result.stdoutText)\(result.stderrText)")
        #expect(result.stdoutText.contains("seed 1: timeout×1 — timeout: the command ran past --timeout"), "\(result.stdoutText)")
        #expect(FileManager.default.fileExists(atPath: started), "the daemon ran inside")
        let left = try await ExternalProcess.run("/usr/bin/pgrep", ["-f", marker])
        #expect(left.stdoutText.isEmpty, "still running: \(left.stdoutText)")
    }

    /// A relay on 127.0.0.1 (its port printed first): `hello NAME ROOM` names a connection and is
    /// answered `welcome`; `ROOM MESSAGE` is acknowledged at once and handed to the room's bob
    /// 0.8 s later (its fan-out).
    static let relay = """
        import socket, threading, time
        server = socket.create_server(("127.0.0.1", 0))
        print(server.getsockname()[1], flush=True)
        members = {}
        def fan_out(room, message):
            time.sleep(0.8)
            try:
                members[(room, "bob")].sendall(f"deliver {message}\\n".encode())
            except (KeyError, OSError):
                pass
        def serve(connection):
            try:
                for line in connection.makefile("rb"):
                    words = line.decode().split()
                    if words[0] == "hello":
                        members[(words[2], words[1])] = connection
                        connection.sendall(b"welcome\\n")
                    else:
                        connection.sendall(f"ack {words[1]}\\n".encode())
                        threading.Thread(target=fan_out, args=(words[0], words[1]), daemon=True).start()
            except OSError:
                pass
        while True:
            connection, _ = server.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """

    /// `PORT`: alice and bob join the relay (a connection each, from inside the shell, at
    /// $LOWBAND_HOST); alice sends three messages, bob waits for each — on seed 2 for 1.5 s
    /// only, elsewhere 20 s — and every step is posted to $LOWBAND_EVENTS.
    static let client = joined + """
        bob.settimeout(1.5 if room == "2" else 20)
        for number in range(1, 4):
            message = f"m-{number}"
            event(device="alice", kind="sent", message=message)
            alice.sendall(f"{room} {message}\\n".encode())
            assert alice_lines.readline().decode().strip() == f"ack {message}"
            event(device="alice", kind="acked", message=message)
            try:
                assert bob_lines.readline().decode().strip() == f"deliver {message}"
            except TimeoutError:
                sys.exit(f"bob gave up waiting for {message}")
            event(device="bob", kind="received", message=message)
        """
}

extension ExploreShellTests {
    /// What both clients start with: the event poster, and alice and bob joined to the relay on
    /// `PORT` (a connection each, from inside the shell, at $LOWBAND_HOST).
    static let joined = """
        import json, os, socket, sys, time, urllib.request
        url, room = os.environ["LOWBAND_EVENTS"], os.environ["LOWBAND_SEED"]
        def event(**fields):
            body = json.dumps(dict(chat="c-1", **fields)).encode()
            urllib.request.urlopen(urllib.request.Request(url, data=body, method="POST")).read()
        def join(name):
            connection = socket.create_connection((os.environ["LOWBAND_HOST"], int(sys.argv[1])), timeout=20)
            connection.sendall(f"hello {name} {room}\\n".encode())
            lines = connection.makefile("rb")
            assert lines.readline() == b"welcome\\n"
            event(device=name, kind="connected")
            return connection, lines
        (alice, alice_lines), (bob, bob_lines) = join("alice"), join("bob")

        """

    /// `PORT`: alice and bob join the relay; alice sends m-1 and is acknowledged; bob waits for
    /// it, and when his connection is reset he neither says so nor joins again (the bug an aimed
    /// reset finds): he stays 1.5 s, past the settle bound, and the command exits 0.
    static let resetClient = joined + """
        event(device="alice", kind="sent", message="m-1")
        alice.sendall(f"{room} m-1\\n".encode())
        assert alice_lines.readline().decode().strip() == "ack m-1"
        event(device="alice", kind="acked", message="m-1")
        try:
            if bob_lines.readline().decode().strip() == "deliver m-1":
                event(device="bob", kind="received", message="m-1")
        except ConnectionResetError:
            time.sleep(1.5)
        """
}
