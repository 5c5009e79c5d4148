import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband explore --exec` on a stack nobody here wrote: the Mosquitto broker (Debian) and a
/// two-device chat on the paho-mqtt client (PyPI), Examples/MQTTChat. Lowband must find both
/// of MQTT's documented behaviours on a bad link: QoS 0 loses a message when the link dies
/// under a publish, QoS 1 delivers one twice after a reconnect; and shrink a failure to a
/// command that fails again alone.
@Suite(.serialized, .tags(.wallClock, .sweep), .timeLimit(.minutes(10))) struct MQTTExploreTests {
    // Real time on real sockets: the serial pass keeps these sweeps from starving under load.
    private static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/MQTTChat").path

    /// A broker on a free port for `body`, stopped afterwards.
    private func withBroker(_ body: (Int) async throws -> Void) async throws {
        let port = try ListeningPort().port
        let broker = try await ChildProcess("/bin/bash", ["\(Self.example)/mosquitto.sh", String(port)], ownGroup: true)
        defer { broker.sendToGroup(SIGTERM) }
        // Ready once it accepts a connection.
        let ready = try await Readiness.python("import socket; socket.create_connection(('127.0.0.1', \(port)), timeout=1)")
        try #require(ready, "mosquitto did not start: \(broker.stderrText)")
        try await body(port)
    }

    private func explore(_ arguments: [String]) async throws -> (stdout: String, stderr: String, status: Int32) {
        let result = try await LowbandBinary.run(["explore"] + arguments)
        return (result.stdoutText, result.stderrText, result.status)
    }

    /// The recorder's own check on every session a sweep kept (repeats and the shrink's runs
    /// included): what it says was played agrees with what was asked, fault by fault, link by link.
    private func expectRecorderAgrees(_ sweep: String) throws {
        let sessions = try FileManager.default.contentsOfDirectory(atPath: "\(sweep)/sessions")
        #expect(!sessions.isEmpty)
        for session in sessions {
            let faults = try String(contentsOfFile: "\(sweep)/sessions/\(session)/faults.txt", encoding: .utf8)
            #expect(faults.contains("recorder check: the proxies' events agree with the"), "\(session): \(faults)")
        }
    }

    private func chat(qos: Int) -> String {
        "python3 \(Self.example)/chat.py --qos \(qos) --messages 5 --interval 0.1 --linger 2.5 --ack-wait 4"
    }

    @Test func qos0LosesMessagesWhenTheLinkDiesUnderAPublishAndTheCauseIsProved() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-mqtt-test")
        try await withBroker { port in
            // Each device its own link; the reset is aimed at the link of the device that said
            // `acked`, the moment its publish is on the way.
            let result = try await explore([
                "--upstream", "alice=127.0.0.1:\(port)", "--upstream", "bob=127.0.0.1:\(port)", "--exec", chat(qos: 0), "--profile", "3g",
                "--seeds", "1..2", "--jobs", "2", "--faults", "after:acked+0ms=reset", "--bound", "settle=2s", "--prove", "--prove-runs", "2",
                "--out", directory.file("qos0"),
            ])
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("acknowledged_lost in"), "\(result.stdout)")
            #expect(result.stdout.contains("bob never got message m-"))
            // One cause: the reset of alice's own link under her publish, and nothing of bob's.
            let causes = result.stdout.split(separator: "\n").filter { $0.hasPrefix("seed ") && $0.contains(" — ") }
            #expect(!causes.isEmpty)
            for line in causes {
                #expect(line.contains("; cause: ") && line.contains("alice's connection 1 was reset by fault 1 at"), "\(line)")
                #expect(!line.contains("bob's connection"), "\(line)")
            }
            // Proved by runs without the reset (the promise held) and with it alone (it broke).
            let proofs = result.stdout.split(separator: "\n").filter { $0.hasPrefix("  cause:") }
            #expect(proofs.count == causes.count, "\(result.stdout)")
            for proof in proofs {
                // That very message reached bob every time without the reset; with it alone bob lost one every time.
                #expect(proof.contains("proved: without fault 1 (after:acked+0s=reset) acknowledged_lost of m-"), "\(proof)")
                #expect(proof.hasSuffix(" on bob held 2 of 2, with it alone acknowledged_lost on bob broke 2 of 2"), "\(proof)")
            }
            // The session's verdict and report say it too, and explore.html links the report.
            let verdict = try String(contentsOfFile: directory.file("qos0/sessions/seed-1/verdict.txt"), encoding: .utf8)
            #expect(verdict.contains("\nproof: proved: without fault 1 (after:acked+0s=reset)"), "\(verdict)")
            let report = try String(contentsOfFile: directory.file("qos0/sessions/seed-1/report.html"), encoding: .utf8)
            #expect(report.contains("<strong>Cause proved</strong>: without fault 1 (after:acked+0s=reset)"), "\(report.prefix(2000))")
            let html = try String(contentsOfFile: directory.file("qos0/explore.html"), encoding: .utf8)
            #expect(html.contains("href=\"sessions/seed-1/report.html\""), "\(html)")
            let csv = try String(contentsOfFile: directory.file("qos0/explore.csv"), encoding: .utf8)
            #expect(csv.contains(",\"proved: without fault 1 (after:acked+0s=reset)"), "\(csv)")
            try expectRecorderAgrees(directory.file("qos0"))
        }
    }

    @Test func qos1DuplicatesAfterAReconnectAndShrinks() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-mqtt-test")
        try await withBroker { port in
            let result = try await explore([
                "--upstream", "mqtt=127.0.0.1:\(port)", "--exec", chat(qos: 1), "--profile", "3g", "--seeds", "1..3", "--jobs", "3",
                "--faults", "partition,after:sent=reset", "--duration", "4s", "--bound", "settle=2s", "--shrink", "--out", directory.file("qos1"),
            ])
            #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("duplicated in"), "\(result.stdout)")
            #expect(result.stdout.contains("bob received message m-"))
            try expectRecorderAgrees(directory.file("qos1"))
            // Every failing seed prints its shrunk command; the first must fail again run alone.
            let shrunk = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("  shrunk:") })
            var command = String(shrunk.dropFirst("  shrunk:".count)).trimmingCharacters(in: .whitespaces)
            if let note = command.range(of: "  (") { command = String(command[..<note.lowerBound]) }
            #expect(command.hasPrefix("lowband explore --upstream mqtt=127.0.0.1:\(port) --exec"))
            let alone = try await ExternalProcess.run(
                "/bin/sh", ["-c", LowbandBinary.path + command.dropFirst("lowband".count) + " --out " + directory.file("alone")])
            #expect(alone.status == 3, "\(command)\n\(alone.stdoutText)\(alone.stderrText)")
        }
    }

    /// A session driven by hand through `lowband proxy --record`, with an outage, a toxic and a
    /// reset made through the API while the chat runs, replayed by `lowband proxy --replay` with
    /// the chat run again: the replay's record lists the same faults at the same times.
    @Test func aRecordedChatSessionsNetworkIsReplayed() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-mqtt-test")
        try await withBroker { port in
            let listen = try ListeningPort().port
            let api = try ListeningPort().port
            func session(_ arguments: [String], changes: Bool) async throws -> ChildProcess {
                let proxy = try await LowbandBinary.start(arguments)
                try #require(try await Readiness.controlAPI(port: api), "\(proxy.stderrText)")
                var environment = ProcessInfo.processInfo.environment
                environment["LOWBAND_PROXY"] = "127.0.0.1:\(listen)"
                environment["LOWBAND_EVENTS"] = "http://127.0.0.1:\(api)/events"
                let chat = try await ChildProcess(
                    "/usr/bin/env", ["python3", "\(Self.example)/chat.py", "--qos", "1", "--messages", "12", "--interval", "0.2", "--linger", "2", "--ack-wait", "8"],
                    environment: environment)
                if changes {
                    // A user's changes through the toxiproxy API while the chat runs.
                    let change = """
                        import json, time, urllib.request as u
                        def call(method, path, body=None):
                            u.urlopen(u.Request('http://127.0.0.1:\(api)' + path, data=json.dumps(body).encode() if body is not None else None, method=method)).read()
                        time.sleep(1.5)
                        call('POST', '/proxies/lowband/outage', {"seconds": 1.0, "kind": "outage"})
                        time.sleep(1.5)
                        call('POST', '/proxies/lowband/toxics', {"name": "slow", "type": "latency", "stream": "downstream", "attributes": {"latency": 400}})
                        time.sleep(0.5)
                        call('DELETE', '/proxies/lowband/connections/1')
                        time.sleep(0.5)
                        call('DELETE', '/proxies/lowband/toxics/slow')
                        """
                    let changed = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", change])
                    #expect(changed.status == 0, "\(changed.stderrText)")
                }
                #expect(try await chat.exitStatus(timeout: .seconds(60)) == 0, "\(chat.stderrText)")
                proxy.send(SIGINT)
                #expect(try await proxy.exitStatus(timeout: .seconds(30)) == 0, "\(proxy.stderrText)")
                return proxy
            }
            let first = directory.file("recorded")
            _ = try await session([
                "proxy", "--listen", "127.0.0.1:\(listen)", "--upstream", "127.0.0.1:\(port)", "--api", "127.0.0.1:\(api)", "--profile", "3g",
                "--record", first,
            ], changes: true)
            let second = directory.file("replayed")
            let replay = try await session(["proxy", "--replay", first, "--record", second], changes: false)
            #expect(replay.stderrText.contains("replay: 4 change(s) made through the API"), "\(replay.stderrText)")
            func played(_ folder: String) throws -> [String] {
                let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/record.json"))) as? [String: Any]
                return document?["played"] as? [String] ?? []
            }
            let lines = [try played(first), try played(second)]
            #expect(lines[0].count == 3, "\(lines[0])")
            #expect(lines[0].count == lines[1].count, "\(lines)")
            for (one, other) in zip(lines[0], lines[1]) {
                let shapes = [one, other].map { $0.replacingOccurrences(of: #"[0-9]+\.[0-9]+"#, with: "T", options: .regularExpression) }
                #expect(shapes[0] == shapes[1], "\(one) / \(other)")
                let times = [one, other].map { line in line.matches(of: #/[0-9]+\.[0-9]+/#).compactMap { Double(line[$0.range]) } }
                for (a, b) in zip(times[0], times[1]) { #expect(abs(a - b) < 0.25, "\(one) / \(other)") }
            }
        }
    }
}
