import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband proxy --socks … --route … --record DIR` with curl as the app: the record's timeline
/// has a lane per destination with its connections and rule, the blocked one as a refusal, the
/// seed switch made through the API, and the link's trace; Chromium draws a row per connection.
@Suite(.timeLimit(.minutes(2))) struct SessionTimelineRecordTests {
    @Test func aRecordDrawsEveryDestinationsConnectionsOnOneTimeline() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-timeline-test")
        let origin = directory.file("origin")
        try FileManager.default.createDirectory(atPath: origin, withIntermediateDirectories: true)
        try Data(repeating: 0x61, count: 20_000).write(to: URL(fileURLWithPath: "\(origin)/file.bin"))
        let originPort = try ListeningPort().port
        let server = try await ChildProcess("/usr/bin/env", ["python3", "-m", "http.server", "\(originPort)", "--bind", "127.0.0.1", "--directory", origin])
        defer { server.send(SIGKILL) }
        let ports = (socks: try ListeningPort().port, api: try ListeningPort().port)
        let record = directory.file("record")
        let proxy = try await LowbandBinary.start([
            "proxy", "--socks", "127.0.0.1:\(ports.socks)", "--api", "127.0.0.1:\(ports.api)", "--profile", "3g", "--seed", "5",
            "--route", "localhost=edge", "--route", "127.0.0.2=block", "--record", record,
        ])
        let curl = { (url: String) async throws -> ExternalProcess.Result in
            try await ExternalProcess.run("curl", ["-sS", "--max-time", "30", "-o", "/dev/null", "-w", "%{http_code}", "--socks5-hostname", "127.0.0.1:\(ports.socks)", url])
        }
        // The origin and the proxy are up once a fetch goes through.
        var first = try await curl("http://127.0.0.1:\(originPort)/file.bin")
        for _ in 0 ..< 50 where first.stdoutText != "200" {
            try await Task.sleep(for: .milliseconds(200))
            first = try await curl("http://127.0.0.1:\(originPort)/file.bin")
        }
        try #require(first.stdoutText == "200", "\(first.stderrText) \(proxy.stderrText)")
        #expect(try await curl("http://localhost:\(originPort)/file.bin").stdoutText == "200")
        #expect(try await curl("http://127.0.0.2:\(originPort)/file.bin").status == 97)
        let switched = try await ExternalProcess.run("curl", ["-sS", "-X", "POST", "http://127.0.0.1:\(ports.api)/proxies/lowband/seed", "-d", #"{"seed":6}"#])
        #expect(switched.status == 0)
        #expect(try await curl("http://localhost:\(originPort)/file.bin").stdoutText == "200")
        proxy.send(SIGINT)
        #expect(try await proxy.exitStatus(timeout: .seconds(30)) == 0, "\(proxy.stderrText)")

        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(record)/record.json"))) as? [String: Any])
        let timeline = try #require(document["timeline"] as? [String: Any])
        let connections = try #require(timeline["connections"] as? [[String: Any]])
        // The failed first fetches (the proxy not up yet) made no connection; the three that
        // went through did, each under its destination, the routed ones with their rule.
        let destinations = connections.map { "\($0["destination"] as? String ?? "?") \($0["rule"] as? String ?? "-") \($0["downstreamBytes"] as? Int ?? -1 > 20_000)" }
        #expect(destinations.suffix(3) == [
            "127.0.0.1:\(originPort) - true", "localhost:\(originPort) rule 1: localhost=edge true", "localhost:\(originPort) rule 1: localhost=edge true",
        ], "\(destinations)")
        let marks = try #require(timeline["marks"] as? [[String: Any]])
        #expect(marks.contains { $0["kind"] as? String == "denied" && ($0["detail"] as? String)?.hasSuffix("is blocked by rule 2: 127.0.0.2=block") == true })
        #expect(document["switches"] as? [String] == (marks.filter { $0["kind"] as? String == "link" }.map { String(format: "%.3f s: ", $0["at"] as? Double ?? 0) + "switched to 3g seed 6" }))
        #expect((document["recordedWith"] as? String)?.contains("--route localhost=edge --route 127.0.0.2=block") == true)
        #expect(document["command"] as? String == "lowband proxy --replay \(record)")
        let trace = try String(contentsOfFile: "\(record)/trace.jsonl", encoding: .utf8)
        #expect(trace.contains(#""event":"link""#) && trace.contains("3g seed 6"))

        // Chromium draws the timeline: a row per connection, a lane per destination.
        let browser = Chromium(executable: try #require(Chromium.executable, "no Chromium: run scripts/setup.sh"), workDirectory: directory.url)
        let dom = try await browser.dumpDOM(of: URL(fileURLWithPath: "\(record)/report.html"))
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(dom.stdout.components(separatedBy: "class=\"connection\"").count - 1 == connections.count, "\(dom.stdout)")
        #expect(dom.stdout.contains(">localhost:\(originPort)</text>"))
        #expect(dom.stdout.contains("class=\"mark mark-link\""))

        // No horizontal scrollbar at the widths of a laptop's browser window (the verdict's
        // long lines once pushed the page 125 px wider than a 1,200 px window).
        let probe = """
            <script>
            const d = document.documentElement, p = document.createElement('pre');
            p.id = 'width-probe'; p.textContent = d.scrollWidth + ' ' + d.clientWidth; document.body.appendChild(p);
            </script>
            """
        let report = try String(contentsOfFile: "\(record)/report.html", encoding: .utf8)
        let probed = directory.url.appendingPathComponent("report-probed.html")
        try Data(report.replacingOccurrences(of: "</body>", with: probe + "</body>").utf8).write(to: probed)
        for width in [1_200, 1_300, 1_400] {
            let laidOut = try await browser.dumpDOM(of: probed, arguments: ["--window-size=\(width),900"])
            let figures = laidOut.stdout.components(separatedBy: "<pre id=\"width-probe\">").last?.prefix { $0 != "<" }
                .split(separator: " ").compactMap { Int($0) } ?? []
            try #require(figures.count == 2, "\(laidOut.stderr)")
            #expect(figures[0] <= figures[1], "at \(width) px the page is \(figures[0]) px wide in a \(figures[1]) px viewport")
        }
    }

    @Test func reportSaysWhatIsWrongWithAFolderItCannotRender() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-report-test")
        let missing = try await LowbandBinary.run(["report", directory.file("nothing")])
        #expect(missing.status == 2)
        #expect(missing.stderrText.contains("record.json does not exist: give a folder `lowband proxy --record`"), "\(missing.stderrText)")
        let run = directory.file("run")
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        try "{}".write(toFile: "\(run)/record.json", atomically: true, encoding: .utf8)
        let notSession = try await LowbandBinary.run(["report", run])
        #expect(notSession.status == 2 && notSession.stderrText.contains("is no session folder (it has no network.jsonl)"), "\(notSession.stderrText)")
        try "".write(toFile: "\(run)/network.jsonl", atomically: true, encoding: .utf8)
        try #"{"format": 9}"#.write(toFile: "\(run)/record.json", atomically: true, encoding: .utf8)
        let future = try await LowbandBinary.run(["report", run])
        #expect(future.status == 2 && future.stderrText.contains("a session record of format 9; this lowband reads format 1"), "\(future.stderrText)")
        try #"{"format": 1, "title": 3}"#.write(toFile: "\(run)/record.json", atomically: true, encoding: .utf8)
        let broken = try await LowbandBinary.run(["report", run])
        #expect(broken.status == 2 && broken.stderrText.contains("is not a session record: 'title'"), "\(broken.stderrText)")
        #expect(broken.stderrText.split(separator: "\n").count == 1)
    }
}
