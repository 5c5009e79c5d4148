import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband proxy --record DIR`: a recording proxy whose record carries the verdict judged
/// from the app's events.
// Real time: a recorded session of seconds on sockets; the serial pass keeps it from starving.
@Suite(.tags(.wallClock)) struct ProxyRecordTests {
    @Test func recordOptionsAreCheckedBeforeAnythingStarts() {
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--record", "r"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--upstream", "127.0.0.1:1", "--bound", "settle=1s"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--upstream", "127.0.0.1:1", "--record", "r", "--bound", "patience=1s"]) }
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["proxy", "--upstream", "127.0.0.1:1", "--record", "r", "--no-api"]) }
    }

    @Test func aRecordedSessionIsJudgedWhenTheProxyStops() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-record-test")
        let upstream = try ListeningPort()
        let ports = (try ListeningPort().port, try ListeningPort().port)
        let record = directory.file("record")
        let events = directory.file("events.jsonl")
        let proxy = try await LowbandBinary.start([
            "proxy", "--listen", "127.0.0.1:\(ports.0)", "--upstream", "127.0.0.1:\(upstream.port)", "--api", "127.0.0.1:\(ports.1)",
            "--profile", "3g", "--record", record, "--bound", "settle=1s", "--events", events,
        ])
        // The API is up once it answers.
        try #require(try await Readiness.controlAPI(port: ports.1), "\(proxy.stderrText)")
        // A user adds a toxic through the toxiproxy API; one device posts, the other appends to
        // the file; bob never gets m-1.
        let post = """
            import json, time, urllib.request as u
            api = 'http://127.0.0.1:\(ports.1)'
            def post(body, path='/events'): u.urlopen(u.Request(api + path, data=body, method='POST')).read()
            name = list(json.load(u.urlopen(api + '/proxies')).keys())[0]
            post(json.dumps({"name": "slow", "type": "latency", "stream": "downstream", "attributes": {"latency": 500}}).encode(), f'/proxies/{name}/toxics')
            # A proxy made through the API later is recorded too: a device's connection through it.
            made = json.loads(u.urlopen(u.Request(api + '/proxies', data=json.dumps({"name": "second", "listen": "127.0.0.1:0", "upstream": "127.0.0.1:\(upstream.port)"}).encode(), method='POST')).read())
            import socket
            host, port = made["listen"].rsplit(":", 1)
            socket.create_connection((host, int(port)), timeout=5).close()
            post(b'{"device":"alice","kind":"sent","message":"m-1","chat":"c"}')
            time.sleep(0.3)
            post(b'{"device":"alice","kind":"acked","message":"m-1","chat":"c"}')
            """
        try #"{"device":"bob","kind":"connected","chat":"c"}"#.appending("\n").write(toFile: events, atomically: true, encoding: .utf8)
        let posted = try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", post])
        #expect(posted.status == 0, "\(posted.stderrText)")
        // All three events are in once GET /events shows them (the file is followed every 50 ms);
        // then bob stays connected past the 1 s settle bound, so m-1 is judged.
        let count = "import urllib.request as u; print(len(u.urlopen('http://127.0.0.1:\(ports.1)/events').read().splitlines()))"
        var seen = 0
        for _ in 0 ..< 100 where seen < 3 {
            seen = Int(try await ExternalProcess.run("/usr/bin/env", ["python3", "-c", count]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        #expect(seen == 3)
        try await Task.sleep(for: .milliseconds(1_200))
        proxy.send(SIGINT)
        #expect(try await proxy.exitStatus(timeout: .seconds(30)) == 0, "\(proxy.stderrText)")
        #expect(proxy.stderrText.contains("recorded 3 events from 2 device(s); promises: 1 of 4 broken"), "\(proxy.stderrText)")
        let verdict = try String(contentsOfFile: "\(record)/verdict.txt", encoding: .utf8)
        #expect(verdict.contains("bob never got message m-1 of chat c"))
        // The toxic the user added is in what the network did, from the proxy's own events.
        #expect(verdict.contains("toxic latency downstream"), "\(verdict)")
        let network = try String(contentsOfFile: "\(record)/network.jsonl", encoding: .utf8)
        #expect(network.contains(#""event":"toxic-added","direction":"downstream","detail":"slow: latency jitter=0 latency=500""#), "\(network)")
        #expect(network.contains(#"{"proxy":"second","at_ns":"#) && network.contains(#""event":"open","connection":1"#), "\(network)")
        let results = try String(contentsOfFile: "\(record)/results.csv", encoding: .utf8)
        #expect(results.contains("proxy.record,3g,invariant.acknowledged_lost,count,1,"))
        // Each proxy is a device's link on 3g, with its radio: the record says what the two
        // radios did and cost, one sample per link.
        #expect(verdict.contains("radios of 2 device links: on ") && verdict.contains(" s in all, each of ") && verdict.contains(" J per hour per radio"), "\(verdict)")
        let energy = try #require(results.split(separator: "\n").first { $0.hasPrefix("proxy.record,3g,energy.total,J,") }, "\(results)")
        let columns = energy.split(separator: ",", omittingEmptySubsequences: false)
        #expect(columns[9] == "2" && (Double(columns[7]) ?? 0) > 0, "\(energy)")
        #expect(results.contains("proxy.record,3g,radio.state.CELL_DCH,s,"))
        let report = try String(contentsOfFile: "\(record)/report.html", encoding: .utf8)
        #expect(report.contains("<h2 id=\"promises\">Promises</h2>"))
        #expect(report.contains("acknowledged_lost"))
        // A browser reads the page as written: headless Chromium's DOM has the promises, the
        // broken case and alice's acknowledgement leg as an SVG bar.
        let browser = Chromium(executable: try #require(Chromium.executable, "no Chromium: run scripts/setup.sh"), workDirectory: directory.url)
        let dom = try await browser.dumpDOM(of: URL(fileURLWithPath: "\(record)/report.html"))
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.contains("<td><code>acknowledged_lost</code></td><td>broken once in 1 case</td>"), "\(dom.stdout)")
        #expect(dom.stdout.contains("<h3>Broken cases</h3>"))
        // The waterfall of the run report, drawing alice's acknowledgement leg part by part.
        #expect(dom.stdout.contains("id=\"chart-waterfall-session\""), "\(dom.stdout)")
        #expect(dom.stdout.contains("m-1 → acked"))
        #expect(dom.stdout.contains("data-stage=\"transit\""))
        #expect(dom.stdout.contains("<td>m-1</td><td>acked</td>"))
        // The network's timeline: both proxies' connections, the toxic, the app's three events.
        #expect(dom.stdout.contains("id=\"chart-session-timeline\""), "\(dom.stdout)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(record)/record.json"))) as? [String: Any])
        let timeline = try #require(document["timeline"] as? [String: Any])
        let connections = try #require(timeline["connections"] as? [[String: Any]])
        #expect(connections.contains { $0["proxy"] as? String == "second" && $0["destination"] as? String == "127.0.0.1:\(upstream.port)" }, "\(connections)")
        #expect((timeline["stretches"] as? [[String: Any]])?.contains { $0["kind"] as? String == "toxic latency downstream" } == true)
        #expect((timeline["marks"] as? [[String: Any]])?.filter { $0["kind"] as? String == "app" }.count == 3)
        // The same network again is this folder replayed; the line that recorded it is kept for that.
        #expect(document["command"] as? String == "lowband proxy --replay \(record)", "\(document["command"] ?? "")")
        #expect((document["recordedWith"] as? String)?.hasPrefix("lowband proxy --listen 127.0.0.1:\(ports.0) --upstream 127.0.0.1:\(upstream.port)") == true, "\(document["recordedWith"] ?? "")")
        #expect(FileManager.default.fileExists(atPath: "\(record)/trace.jsonl"))
        // `lowband report DIR` renders the same page again from record.json alone.
        try FileManager.default.removeItem(atPath: "\(record)/report.html")
        let again = try await LowbandBinary.run(["report", record])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(try String(contentsOfFile: "\(record)/report.html", encoding: .utf8) == report)
    }
}
