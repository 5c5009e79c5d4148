import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband shell`'s record, control API and live page, end to end: the built binary, a real
/// command inside, curl driving the proxy's routes from inside (at $LOWBAND_API) and a web
/// server on the host's loopback. Every timing checked is a floor the link (or a toxic)
/// imposes, never a ceiling a loaded machine could miss.
@Suite(.tags(.wallClock), .enabled(if: UserNamespaces.available, UserNamespaces.why)) struct ShellControlTests {
    /// A web server on 127.0.0.1 serving `files` (name → size in bytes); its port.
    static func serve(_ files: [String: Int], in directory: TemporaryDirectory) async throws -> (ChildProcess, Int) {
        for (name, size) in files {
            try Data(repeating: 0x61, count: size).write(to: URL(fileURLWithPath: directory.file(name)))
        }
        let server = try await ChildProcess("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path])
        return (server, try await ShellCommandTests.port(from: server))
    }

    @Test func ctrlCEndsTheCommandAndStillFinishesTheRecord() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-record")
        let (server, port) = try await Self.serve(["30k.bin": 30_000], in: directory)
        defer { server.send(SIGTERM) }
        let record = directory.file("session")
        let shell = try await LowbandBinary.start([
            "shell", "--profile", "edge", "--seed", "2", "--record", record, "--api", "127.0.0.1:0", "--",
            "sh", "-c",
            #"curl -sS -o /dev/null http://$LOWBAND_HOST:\#(port)/30k.bin && echo '{"device":"d","kind":"sent","message":"m-1","chat":"c"}' | curl -sS -o /dev/null -X POST --data-binary @- $LOWBAND_API/events && echo fetched && exec sleep 600"#,
        ])
        #expect(try await shell.nextLine(timeout: .seconds(120)) == "fetched")
        // Ctrl-C: SIGINT to lowband, which passes it on; sleep dies of it, the record is written.
        shell.send(SIGINT)
        #expect(try await shell.exitStatus(timeout: .seconds(120)) == 130)
        let stderr = shell.stderrText
        #expect(stderr.contains("lowband shell: recorded 1 app events"), "the app's event, posted through the link: \(stderr)")
        #expect(stderr.contains("written to \(record)/ (report.html, record.json, trace.jsonl, verdict.txt, results.csv)"), "\(stderr)")
        #expect(stderr.contains("lowband shell: same network again: lowband shell --profile edge --seed 2 -- sh -c 'curl -sS"), "\(stderr)")

        let data = try Data(contentsOf: URL(fileURLWithPath: "\(record)/record.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect((document["command"] as? String)?.hasPrefix("lowband shell --profile edge --seed 2 -- sh -c ") == true, "\(document["command"] ?? "")")
        let shellPart = try #require(document["shell"] as? [String: Any], "record.json has the shell's part")
        #expect(shellPart["exitStatus"] as? Int == 130)
        #expect(shellPart["profile"] as? String == "edge" && shellPart["seed"] as? Int == 2)
        #expect((shellPart["command"] as? [String])?.first == "sh")
        let down = try #require(shellPart["downstream"] as? [String: Any])
        #expect((down["deliveredBytes"] as? Int ?? 0) >= 30_000, "the file's bytes crossed the downlink: \(down)")
        #expect((shellPart["seconds"] as? Double ?? 0) > 0)
        let verdict = try String(contentsOfFile: "\(record)/verdict.txt", encoding: .utf8)
        #expect(verdict.hasPrefix("lowband shell -- sh -c "), "\(verdict)")
        #expect(verdict.contains("on edge, seed 2: exit status 130"))
        #expect(try String(contentsOfFile: "\(record)/events.jsonl", encoding: .utf8).contains(#""message":"m-1""#))
        let trace = try String(contentsOfFile: "\(record)/trace.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(trace.contains { $0.contains(#""event":"deliver""#) && $0.contains(#""dir":"downstream""#) })
        let report = try String(contentsOfFile: "\(record)/report.html", encoding: .utf8)
        #expect(report.contains("The command's packets") && report.contains("exited 130"))
        // `lowband report DIR` renders it again from record.json.
        try FileManager.default.removeItem(atPath: "\(record)/report.html")
        let again = try await LowbandBinary.run(["report", record])
        #expect(again.status == 0, "\(again.stderrText)")
        #expect(FileManager.default.fileExists(atPath: "\(record)/report.html"))
    }

    @Test func aProfileSwitchedThroughTheAPIShowsInTheNextTransfersTime() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-switch")
        let (server, port) = try await Self.serve(["30k.bin": 30_000], in: directory)
        defer { server.send(SIGTERM) }
        let record = directory.file("session")
        // 3g first, then edge (150 kbit/s down) with seed 5 through the proxy's route.
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", "3g", "--seed", "1", "--api", "127.0.0.1:0", "--record", record, "--", "sh", "-c",
            """
            fetch() { curl -sS -o /dev/null -w '%{time_total}\\n' http://$LOWBAND_HOST:\(port)/30k.bin; }
            fetch
            curl -sS -X POST $LOWBAND_API/proxies/shell/profile -d '{"profile": "edge", "seed": 5}'; echo
            curl -sS $LOWBAND_API/stats
            fetch
            curl -sS -X POST $LOWBAND_API/proxies/shell/seed -d '{"seed": 6}'; echo
            curl -sS -X POST $LOWBAND_API/proxies/shell/profile -d '{"profile": "no-such-profile"}'; echo
            curl -sS -X POST $LOWBAND_API/proxies/shell/profile -d '{"profil": "edge"}'; echo
            """,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 7, "\(lines)")
        let switched = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(switched["name"] as? String == "shell" && switched["profile"] as? String == "edge" && switched["seed"] as? Int == 5, "\(switched)")
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as? [String: Any])
        #expect(stats["profile"] as? String == "edge" && stats["seed"] as? Int == 5, "\(stats)")
        // Physics: 30,000 bytes at edge's 150 kbit/s take at least 1.6 s, whatever the load.
        let afterSwitch = try #require(Double(lines[3]))
        #expect(afterSwitch >= 30_000 * 8 / 150_000.0, "the second fetch crossed edge: \(afterSwitch) s")
        #expect(lines[4].contains(#""profile":"edge""#) && lines[4].contains(#""seed":6"#), "\(lines[4])")
        #expect(lines[5] == #"{"error":"'no-such-profile' is not a valid profile: give a name from GET /profiles","status":400}"#)
        #expect(lines[6] == #"{"error":"unknown key 'profil' in the body of POST /proxies/shell/profile; known keys: profile, seed","status":400}"#)
        // The trace says where the link changed; the record lists the switches after its command.
        let trace = try String(contentsOfFile: "\(record)/trace.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(trace.contains { $0.contains(#""event":"link""#) && $0.contains("edge, seed 5") })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(record)/record.json"))) as? [String: Any])
        let switches = document["switches"] as? [String] ?? []
        #expect(switches.count == 2 && switches[0].contains("switched to edge, seed 5") && switches[1].contains("switched to edge, seed 6"), "\(switches)")
    }

    @Test func theToxicsThatMakeSenseForPacketsActOnTheLink() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-toxics")
        let (server, port) = try await Self.serve(["20k.bin": 20_000, "small.txt": 10], in: directory)
        defer { server.send(SIGTERM) }
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", "perfect", "--api", "127.0.0.1:0", "--", "sh", "-c",
            """
            T=$LOWBAND_API/proxies/shell/toxics
            get() { curl -sS -o /dev/null --max-time ${2:-60} -w '%{time_total}\\n' http://$LOWBAND_HOST:\(port)/$1; }
            curl -sS -X POST $T -d '{"type": "latency", "stream": "downstream", "attributes": {"latency": 400}}'; echo
            get small.txt
            curl -sS -X DELETE -w '%{http_code}\\n' $T/latency_downstream
            curl -sS -X POST $T -d '{"name": "slow", "type": "bandwidth", "stream": "downstream", "attributes": {"rate": 10}}'; echo
            get 20k.bin
            curl -sS -X DELETE -w '%{http_code}\\n' $T/slow
            curl -sS -X POST $T -d '{"type": "slicer"}'; echo
            curl -sS -X POST $T -d '{"type": "slow_close"}'; echo
            curl -sS $T; echo
            """,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        try #require(lines.count == 9, "\(lines)")
        #expect(lines[0] == #"{"attributes":{"jitter":0,"latency":400},"name":"latency_downstream","stream":"downstream","toxicity":1,"type":"latency"}"#)
        // The SYN-ACK and the answer each wait 400 ms more on their way down.
        #expect(try #require(Double(lines[1])) >= 0.8, "latency: \(lines[1])")
        #expect(lines[2] == "204")
        #expect(lines[3].contains(#""name":"slow""#))
        // 20,000 bytes (and their headers) through 10 KB/s take at least 2 s.
        #expect(try #require(Double(lines[4])) >= 2.0, "bandwidth: \(lines[4])")
        #expect(lines[5] == "204")
        #expect(lines[6].contains("the shell does not play slicer on packets") && lines[6].contains(#""status":400"#), "\(lines[6])")
        #expect(lines[7].contains("the shell does not play slow_close on packets: a connection's close is a packet (FIN)"), "\(lines[7])")
        #expect(lines[8] == "[]")
    }

    /// A blackhole silences the API's answers to the command too, so the host adds and removes it.
    @Test func aTimeoutToxicAtZeroIsABlackholeUntilRemoved() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-blackhole")
        let (server, port) = try await Self.serve(["small.txt": 10], in: directory)
        defer { server.send(SIGTERM) }
        let shell = try await LowbandBinary.start([
            "shell", "--quiet", "--api", "127.0.0.1:0", "--", "sh", "-c",
            "while :; do curl -sS -o /dev/null --max-time 1 -w '%{http_code}\\n' http://$LOWBAND_HOST:\(port)/small.txt 2>/dev/null || echo failed; sleep 0.1; done",
        ])
        _ = try await shell.lines(until: { $0 == "200" }, timeout: .seconds(120))
        let apiLine = try #require(shell.stderrText.split(separator: "\n").first { $0.hasPrefix("lowband shell: API on ") }, "\(shell.stderrText)")
        let api = String(apiLine.dropFirst("lowband shell: API on ".count).prefix { $0 != " " })
        let added = try await ExternalProcess.run("curl", ["-sS", "-X", "POST", "\(api)/proxies/shell/toxics", "-d", #"{"name": "hole", "type": "timeout", "stream": "upstream"}"#])
        #expect(added.stdoutText == #"{"attributes":{"timeout":0},"name":"hole","stream":"upstream","toxicity":1,"type":"timeout"}"#, "\(added.stdoutText)")
        // Every packet up is dropped: the fetches fail, and /stats says why.
        _ = try await shell.lines(until: { $0 == "failed" }, timeout: .seconds(120))
        let stats = try await ExternalProcess.run("curl", ["-sS", "\(api)/stats"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stats.stdoutText.utf8)) as? [String: Any])
        let dropped = (object["upstream"] as? [String: Any])?["dropped"] as? [String: Int] ?? [:]
        #expect((dropped["toxic-timeout"] ?? 0) >= 1, "\(stats.stdoutText)")
        let removed = try await ExternalProcess.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "DELETE", "\(api)/proxies/shell/toxics/hole"])
        #expect(removed.stdoutText == "204")
        _ = try await shell.lines(until: { $0 == "200" }, timeout: .seconds(120))
        shell.send(SIGINT)
        _ = try await shell.exitStatus(timeout: .seconds(60))
    }

    @Test func theLivePageShowsTheShellsLinkAndItsEventsStream() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-page")
        let shell = try await LowbandBinary.start([
            "shell", "--profile", "edge", "--seed", "4", "--api", "127.0.0.1:0", "--", "sh", "-c",
            // Its own requests to the API cross the link: the stream reports their packets.
            #"curl -sSN "$LOWBAND_API/proxies/shell/events?limit=3"; echo streamed; exec sleep 600"#,
        ])
        var events: [String] = []
        while let line = try await shell.nextLine(timeout: .seconds(120)), line != "streamed" { events.append(line) }
        #expect(events.count == 3, "\(events)")
        for event in events {
            let object = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
            #expect(object?["time_ms"] is Double && object?["event"] is String, "\(event)")
        }
        let pageLine = try #require(shell.stderrText.split(separator: "\n").first { $0.hasPrefix("lowband shell: live page: ") }, "\(shell.stderrText)")
        let page = try #require(URL(string: String(pageLine.dropFirst("lowband shell: live page: ".count))))
        let api = try #require(URL(string: "/", relativeTo: page)?.absoluteURL)

        let served = try await ExternalProcess.run("curl", ["-sS", page.absoluteString])
        let html = served.stdoutText
        #expect(html.contains(#"<span id="profile" class="profile">edge, seed 4</span>"#), "\(html)")
        #expect(html.contains(#"<span id="link" class="badge up">link up</span>"#))
        #expect(html.contains(#"<td id="down-rate">150 kbit/s</td>"#) && html.contains(#"<td id="down-queue-limit">30 KB</td>"#))
        #expect(html.contains(#"<table id="frames""#) && !html.contains(#"id="connections""#), "frames in place of connections")
        #expect(html.contains(#"<select id="toxic-type" aria-label="type"><option>latency</option><option>bandwidth</option><option>timeout</option><option>reset_peer</option><option>limit_data</option></select>"#))
        #expect(html.range(of: #"<td id="up-offered" class="number">[1-9][0-9]*</td>"#, options: .regularExpression) != nil, "the page's first view counts the frames")
        #expect(html.contains(#"id="outage""#))
        // Without the token: 403; a browser without it: 403 too.
        let noToken = try await ExternalProcess.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", api.appendingPathComponent("ui").absoluteString])
        #expect(noToken.stdoutText == "403")
        let browser = try await ExternalProcess.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-A", "Mozilla/5.0", api.appendingPathComponent("stats").absoluteString])
        #expect(browser.stdoutText == "403")

        // Chromium runs the page's scripts: they fill the frames from GET /stats and the
        // profiles from GET /profiles, with the token the page carries.
        if let executable = Chromium.executable {
            let chromium = Chromium(executable: executable, workDirectory: directory.url)
            let dom = try await chromium.dumpDOM(of: page, arguments: ["--virtual-time-budget=4000", "--window-size=1280,900"])
            #expect(dom.stdout.contains(#"<span id="profile" class="profile">edge, seed 4</span>"#), "\(dom.stdout)\(dom.stderr)")
            #expect(dom.stdout.range(of: #"<td id="down-delivered" class="number">[1-9][0-9]*</td>"#, options: .regularExpression) != nil, "\(dom.stdout)")
            #expect(dom.stdout.contains("<option>3g</option>") || dom.stdout.contains("<option selected=\"\">3g</option>"), "the profiles list came from GET /profiles")
            #expect(dom.stdout.contains(#"<p id="status" role="status"></p>"#), "no call of the page's failed: \(dom.stdout)")
        }
        shell.send(SIGINT)
        #expect(try await shell.exitStatus(timeout: .seconds(120)) == 130)
    }
}
