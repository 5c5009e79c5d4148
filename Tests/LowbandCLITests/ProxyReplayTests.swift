import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband proxy --replay DIR`: a session recorded with changes made through the control API
/// (a toxic, a forced outage, a seed switch, a connection reset) plays the same network again:
/// the replay's own record lists the same faults, on the same link, at the same times.
// Real time: two sessions of seconds on sockets, at recorded times; the serial pass keeps them on time.
@Suite(.serialized, .tags(.wallClock)) struct ProxyReplayTests {
    /// The API is up once it answers.
    private func waitForAPI(_ port: Int, _ proxy: ChildProcess) async throws {
        try #require(try await Readiness.controlAPI(port: port), "\(proxy.stderrText)")
    }

    /// A device's connection through the proxy from the session's first second, and (with
    /// `changes`) a user's changes through the API at about 1, 1.5, 2.5 and 2.8 s in.
    private func drive(api: Int, listen: Int, changes: Bool) -> String {
        """
        import json, socket, time, urllib.request as u
        api = 'http://127.0.0.1:\(api)'
        def call(method, path, body=None):
            u.urlopen(u.Request(api + path, data=json.dumps(body).encode() if body is not None else None, method=method)).read()
        device = socket.create_connection(('127.0.0.1', \(listen)), timeout=5)
        time.sleep(0.5)
        if \(changes ? "True" : "False"):
            call('POST', '/proxies/lowband/toxics', {"name": "slow", "type": "latency", "stream": "downstream", "attributes": {"latency": 300}})
            time.sleep(0.5)
            call('POST', '/proxies/lowband/outage', {"seconds": 0.8, "kind": "outage"})
            time.sleep(1.0)
            call('DELETE', '/proxies/lowband/toxics/slow')
            call('POST', '/proxies/lowband/seed', {"seed": 9})
            time.sleep(0.3)
            call('DELETE', '/proxies/lowband/connections/1')
        time.sleep(\(changes ? "0.8" : "3.1"))
        """
    }

    private func played(_ folder: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/record.json"))) as? [String: Any])
        return [["command": document["command"] ?? "", "played": document["played"] ?? [], "switches": document["switches"] ?? []]]
    }

    @Test func aRecordedSessionsNetworkIsPlayedAgainWithItsAPIChanges() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-replay-test")
        let upstream = try ListeningPort()
        let ports = (try ListeningPort().port, try ListeningPort().port)
        let first = directory.file("first")
        let recording = try await LowbandBinary.start([
            "proxy", "--listen", "127.0.0.1:\(ports.0)", "--upstream", "127.0.0.1:\(upstream.port)", "--api", "127.0.0.1:\(ports.1)",
            "--profile", "3g", "--seed", "3", "--record", first,
        ])
        try await waitForAPI(ports.1, recording)
        let driven = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", drive(api: ports.1, listen: ports.0, changes: true)])
        #expect(driven.status == 0, "\(driven.stderrText)")
        recording.send(SIGINT)
        #expect(try await recording.exitStatus(timeout: .seconds(30)) == 0, "\(recording.stderrText)")

        // The same network again is the replay of this folder, as record.json and the report say.
        let recorded = try played(first)[0]
        #expect(recorded["command"] as? String == "lowband proxy --replay \(first)")
        let report = try String(contentsOfFile: "\(first)/report.html", encoding: .utf8)
        #expect(report.contains("Same network again: <code>lowband proxy --replay \(first)</code>"))

        // The replay, recorded into a second folder, with the device connecting as before and
        // nobody touching the API.
        let second = directory.file("second")
        let replaying = try await LowbandBinary.start(["proxy", "--replay", first, "--record", second])
        try await waitForAPI(ports.1, replaying)
        let again = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", drive(api: ports.1, listen: ports.0, changes: false)])
        #expect(again.status == 0, "\(again.stderrText)")
        replaying.send(SIGINT)
        #expect(try await replaying.exitStatus(timeout: .seconds(30)) == 0, "\(replaying.stderrText)")
        #expect(replaying.stderrText.contains("replay: 5 change(s) made through the API"), "\(replaying.stderrText)")

        // The same fault lines, kind by kind and link by link, within a tenth of a second.
        let lines = [recorded["played"] as? [String] ?? [], try played(second)[0]["played"] as? [String] ?? []]
        #expect(lines[0].count == 3, "\(lines[0])")
        #expect(lines[0].count == lines[1].count, "\(lines)")
        for (one, other) in zip(lines[0], lines[1]) {
            let words = [one, other].map { $0.replacingOccurrences(of: #"[0-9]+\.[0-9]+"#, with: "T", options: .regularExpression) }
            #expect(words[0] == words[1], "\(one) / \(other)")
            let times = [one, other].map { line in
                line.matches(of: #/[0-9]+\.[0-9]+/#).compactMap { Double(line[$0.range]) }
            }
            for (a, b) in zip(times[0], times[1]) { #expect(abs(a - b) < 0.1, "\(one) / \(other)") }
        }
        #expect(lines[0].contains { $0.hasPrefix("the control API: outage ") })
        #expect(lines[0].contains { $0.hasPrefix("the control API: toxic latency downstream ") })
        #expect(lines[0].contains { $0.hasPrefix("the control API: reset at ") && $0.hasSuffix("(connection 1)") })
        let switches = try played(second)[0]["switches"] as? [String] ?? []
        #expect(switches.count == 1 && switches[0].hasSuffix("switched to 3g seed 9"), "\(switches)")
    }

    @Test func aFolderThatIsNoRecordedProxySessionIsRefusedInOneLine() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-replay-test")
        // Nothing there.
        let missing = try await LowbandBinary.run(["proxy", "--replay", directory.file("none")])
        #expect(missing.status == 2, "\(missing.stderrText)")
        #expect(missing.stderrText.contains("does not exist"), "\(missing.stderrText)")
        #expect(missing.stderrText.split(separator: "\n").count == 1)
        // Another format.
        let other = directory.file("other")
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try #"{"format": 99}"#.write(toFile: "\(other)/record.json", atomically: true, encoding: .utf8)
        try "".write(toFile: "\(other)/network.jsonl", atomically: true, encoding: .utf8)
        let format = try await LowbandBinary.run(["proxy", "--replay", other])
        #expect(format.status == 2 && format.stderrText.contains("format 99"), "\(format.stderrText)")
        // Recording over the session being replayed would destroy it.
        let upstream = try ListeningPort()
        let ports = (try ListeningPort().port, try ListeningPort().port)
        let first = directory.file("first")
        let recording = try await LowbandBinary.start([
            "proxy", "--listen", "127.0.0.1:\(ports.0)", "--upstream", "127.0.0.1:\(upstream.port)", "--api", "127.0.0.1:\(ports.1)", "--record", first,
        ])
        try await waitForAPI(ports.1, recording)
        recording.send(SIGINT)
        #expect(try await recording.exitStatus(timeout: .seconds(30)) == 0)
        let before = try String(contentsOfFile: "\(first)/record.json", encoding: .utf8)
        let over = try await LowbandBinary.run(["proxy", "--replay", first, "--record", first])
        #expect(over.status == 2 && over.stderrText.contains("would write over the session being replayed"), "\(over.stderrText)")
        // However the folder is spelled.
        let spelled = try await LowbandBinary.run(["proxy", "--replay", first, "--record=\(first)/./"])
        #expect(spelled.status == 2 && spelled.stderrText.contains("would write over the session being replayed"), "\(spelled.stderrText)")
        #expect(try String(contentsOfFile: "\(first)/record.json", encoding: .utf8) == before)
    }
}
