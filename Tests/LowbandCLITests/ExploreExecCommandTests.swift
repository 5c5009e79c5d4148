import Foundation
import LowbandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A TCP port on 127.0.0.1 that accepts connections (the kernel completes them in the backlog)
/// and never answers: an upstream that is there. Closed when released.
final class ListeningPort: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// `lowband explore --exec` as a user runs it, with small commands standing in for an app:
/// events on stdout and over HTTP, the verdict, the session folder, the timeout and bad input.
// Real time: settle bounds and timeouts of seconds, which starved runs in the parallel pass stretch.
@Suite(.serialized, .tags(.wallClock, .sweep)) struct ExploreExecCommandTests {
    private func explore(_ arguments: [String], out: String) async throws -> (stdout: String, stderr: String, status: Int32) {
        let result = try await LowbandBinary.run(["explore"] + arguments + ["--out", out])
        return (result.stdoutText, result.stderrText, result.status)
    }

    /// A command that prints events: alice sends and sees m-1 acknowledged, bob is connected
    /// through the settle bound and (when `delivered`) receives it.
    private func script(delivered: Bool) -> String {
        var lines = [
            #"{"device":"bob","kind":"connected","chat":"c-1"}"#,
            #"{"device":"alice","kind":"sent","message":"m-1","chat":"c-1"}"#,
            #"{"device":"alice","kind":"acked","message":"m-1","chat":"c-1"}"#,
        ]
        if delivered { lines.append(#"{"device":"bob","kind":"received","message":"m-1","chat":"c-1"}"#) }
        return lines.map { "echo 'LOWBAND_EVENT \($0)'" }.joined(separator: "; ") + "; sleep 2"
    }

    @Test func eventsOnStdoutAreJudgedAndAFailingSeedKeepsItsSession() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let common = ["--upstream", "app=127.0.0.1:\(upstream.port)", "--profile", "perfect", "--seeds", "1", "--faults", "none", "--bound", "settle=1s"]

        let lost = try await explore(common + ["--exec", script(delivered: false)], out: directory.file("lost"))
        #expect(lost.status == 3, "\(lost.stderr)")
        #expect(lost.stdout.contains("seed 1: acknowledged_lost×1 — acknowledged_lost"), "\(lost.stdout)")
        #expect(lost.stdout.contains("bob never got message m-1 of chat c-1 (acknowledged to alice"))
        let verdict = try String(contentsOfFile: directory.file("lost/sessions/seed-1/verdict.txt"), encoding: .utf8)
        #expect(verdict.contains("acknowledged_lost: broken once in 1 case"))
        #expect(verdict.contains("bounds: settle 1s"))
        let events = try String(contentsOfFile: directory.file("lost/sessions/seed-1/events.jsonl"), encoding: .utf8)
        #expect(events.split(separator: "\n").count == 3)
        // The reproducing line runs the seed alone with the same plan.
        #expect(lost.stdout.contains("reproduce: lowband explore --upstream app=127.0.0.1:\(upstream.port) --exec"))
        #expect(lost.stdout.contains("--seeds 1 --faults none --duration 30s --timeout 120s --bound settle=1s"))

        // `lowband explain` reads the session folder: the acknowledgement's leg, split.
        let session = directory.file("lost/sessions/seed-1")
        let explained = try await LowbandBinary.run(["explain", session])
        #expect(explained.status == 0, "\(explained.stderrText)")
        #expect(explained.stdoutText.contains("where the time went, over 1 legs"), "\(explained.stdoutText)")
        let one = try await LowbandBinary.run(["explain", session, "--message", "m-1"])
        #expect(one.stdoutText.contains("message m-1 of chat c-1, sent at"), "\(one.stdoutText)")
        #expect(one.stdoutText.contains("→ acked:"))
        #expect(one.stdoutText.contains("acknowledged_lost [t="))
        let unknown = try await LowbandBinary.run(["explain", session, "--message", "m-9"])
        #expect(unknown.status == 1)
        #expect(unknown.stderrText.contains("message m-9 has no acknowledgement or delivery in this session"))

        let kept = try await explore(common + ["--exec", script(delivered: true)], out: directory.file("kept"))
        #expect(kept.status == 0, "\(kept.stdout)\(kept.stderr)")
        #expect(kept.stdout.contains("1 of 1 seeds run, 0 failing"))
        #expect(!FileManager.default.fileExists(atPath: directory.file("kept/sessions/seed-1")))
        let table = try String(contentsOfFile: directory.file("kept/explore.csv"), encoding: .utf8)
        #expect(table.split(separator: "\n").count == 2)
    }

    /// A fault drawn for one device's link acts on that link only, and the record says what the
    /// proxies did, not what was planned: each outage and partition in faults.txt is found in
    /// network.jsonl on the link it names and on no other, and the recorder's check says so.
    @Test func eachFaultActsOnItsDevicesLinkAndTheRecordIsWhatTheProxiesDid() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let result = try await explore([
            "--upstream", "alice=127.0.0.1:\(upstream.port)", "--upstream", "bob=127.0.0.1:\(upstream.port)", "--exec", "sleep 5",
            // Seed 10 has two partitions of bob's uplink that overlap: each is its own fault.
            "--profile", "perfect", "--seeds", "7..10", "--jobs", "4", "--faults", "outage,handover,partition", "--duration", "4s", "--keep-sessions",
        ], out: directory.file("links"))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        var outages = 0
        for seed in 7 ... 10 {
            let session = directory.file("links/sessions/seed-\(seed)")
            let faults = try String(contentsOfFile: "\(session)/faults.txt", encoding: .utf8)
            #expect(faults.contains("recorder check: the proxies' events agree with the"), "\(faults)")
            let network = try String(contentsOfFile: "\(session)/network.jsonl", encoding: .utf8)
            // Every outage the proxies started names its fault; the fault's played line names that proxy.
            for line in network.split(separator: "\n") where line.contains("\"event\":\"outage-start\"") {
                outages += 1
                let proxy = line.contains("{\"proxy\":\"alice\"") ? "alice" : "bob"
                let tag = try #require(line.firstRange(of: #/\(fault (\d+)\)/#).map { String(line[$0]).dropFirst().dropLast() })
                let playedPart = try #require(faults.components(separatedBy: "played (from the proxies' own events):").last)
                let played = try #require(playedPart.split(separator: "\n").first { $0.hasPrefix("  \(tag) (") })
                #expect(played.contains(" on \(proxy)"), "\(line) vs \(played)")
            }
            for line in faults.split(separator: "\n") where line.hasPrefix("  fault ") && line.contains("(outage): at ") {
                // Planned on one link: "on bob" or "on alice", never every link.
                #expect(line.hasSuffix(" on alice") || line.hasSuffix(" on bob"), "\(line)")
            }
        }
        #expect(outages > 0, "no seed played an outage")
    }

    @Test func eventsPostedOverHTTPReachTheChecker() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        // A Python app posting its events, both as one batch and one by one.
        let post = """
            python3 -c 'import os, urllib.request as u
            url = os.environ["LOWBAND_EVENTS"]
            def post(body): u.urlopen(u.Request(url, data=body.encode(), method="POST")).read()
            post("{\\"device\\":\\"bob\\",\\"kind\\":\\"connected\\",\\"chat\\":\\"c\\"}\\n{\\"device\\":\\"alice\\",\\"kind\\":\\"sent\\",\\"message\\":\\"x\\",\\"chat\\":\\"c\\"}")
            post("{\\"device\\":\\"bob\\",\\"kind\\":\\"shown\\",\\"message\\":\\"x\\",\\"chat\\":\\"c\\"}")
            post("{\\"device\\":\\"bob\\",\\"kind\\":\\"shown\\",\\"message\\":\\"x\\",\\"chat\\":\\"c\\"}")
            assert os.environ["LOWBAND_SEED"] == "7" and os.environ["LOWBAND_PROXY"] == os.environ["LOWBAND_PROXY_APP"]
            '
            """
        let result = try await explore(
            ["--upstream", "app=127.0.0.1:\(upstream.port)", "--exec", post, "--profile", "perfect", "--seeds", "7", "--faults", "none"],
            out: directory.file("out"))
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("seed 7: duplicated×1 — duplicated"), "\(result.stdout)")
        #expect(result.stdout.contains("bob showed message x of chat c twice"))
    }

    @Test func anEventsFileIsFollowedPerSeed() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let write = [
            #"{"device":"bob","kind":"connected","chat":"c-1"}"#,
            #"{"device":"alice","kind":"sent","message":"m-1","chat":"c-1"}"#,
            #"{"device":"alice","kind":"acked","message":"m-1","chat":"c-1"}"#,
        ].map { "echo '\($0)' >> \"$LOWBAND_EVENTS_FILE\"" }.joined(separator: "; ") + "; sleep 2"
        let result = try await explore(
            ["--upstream", "127.0.0.1:\(upstream.port)", "--exec", write, "--profile", "perfect", "--seeds", "1..2", "--jobs", "2",
             "--faults", "none", "--bound", "settle=1s", "--events", directory.file("events-{seed}.jsonl")],
            out: directory.file("out"))
        #expect(result.status == 3, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 of 2 seeds run, 2 failing: acknowledged_lost in 2"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.file("events-2.jsonl")))
        let refused = try await explore(
            ["--upstream", "127.0.0.1:\(upstream.port)", "--exec", "true", "--jobs", "2", "--events", directory.file("events.jsonl")],
            out: directory.file("refused"))
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the path needs {seed}"))
    }

    @Test func aCommandPastItsTimeoutIsKilledWithEverythingItStarted() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let pidFile = directory.file("child.pid")
        let result = try await explore(
            ["--upstream", "127.0.0.1:\(upstream.port)", "--exec", "sleep 300 & echo $! > \(pidFile); sleep 300", "--profile", "perfect",
             "--seeds", "1", "--faults", "none", "--timeout", "2s"],
            out: directory.file("out"))
        #expect(result.status == 3)
        #expect(result.stdout.contains("seed 1: timeout×1 — timeout: the command ran past --timeout; its process group was killed"), "\(result.stdout)")
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Dead: gone, or a zombie its new parent has not reaped yet (`Z` in /proc/PID/stat).
        let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let state = stat.flatMap { $0.split(separator: ")").last?.split(separator: " ").first }
        #expect(stat == nil || state == "Z", "the background sleep \(pid) outlived the timeout: \(stat ?? "")")
    }

    @Test func shardsOfASweepMergeIntoOne() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let common = ["--upstream", "app=127.0.0.1:\(upstream.port)", "--exec", "true", "--profile", "perfect", "--seeds", "1..4", "--faults", "none"]
        for shard in ["1/2", "2/2"] {
            let result = try await explore(common + ["--shard", shard], out: directory.file("shard-\(shard.prefix(1))"))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        let merged = try await LowbandBinary.run(["explore", "merge", directory.file("shard-1"), directory.file("shard-2"), "--out", directory.file("merged")])
        #expect(merged.status == 0, "\(merged.stderrText)")
        let table = try String(contentsOfFile: directory.file("merged/explore.csv"), encoding: .utf8)
        #expect(table.split(separator: "\n").dropFirst().map { $0.prefix(2) } == ["1,", "2,", "3,", "4,"])
        // Titled and filed as a sweep of an outside app, not of a scenario.
        let page = try String(contentsOfFile: directory.file("merged/explore.html"), encoding: .utf8)
        #expect(page.contains("lowband explore --exec on perfect, 2 folders merged"))
        let results = try String(contentsOfFile: directory.file("merged/results.csv"), encoding: .utf8)
        #expect(results.contains("\nexplore.exec,perfect,"), "\(results)")
    }

    @Test func aFailingCommandFailsItsSeed() async throws {
        let upstream = try ListeningPort()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let result = try await explore(
            ["--upstream", "127.0.0.1:\(upstream.port)", "--exec", "exit 4", "--profile", "perfect", "--seeds", "1..2", "--faults", "none", "--jobs", "2"],
            out: directory.file("out"))
        #expect(result.status == 3)
        #expect(result.stdout.contains("2 of 2 seeds run, 2 failing: exit in 2"), "\(result.stdout)")
    }

    @Test func badInputIsOneLineBeforeAnySeedRuns() async throws {
        let upstream = try ListeningPort()
        let refused: Int = try {
            let closed = try ListeningPort()
            return closed.port
        }()
        let directory = try TemporaryDirectory(prefix: "lowband-exec-test")
        let reachable = "127.0.0.1:\(upstream.port)"
        let cases: [([String], String)] = [
            (["--upstream", reachable, "--exec", "true", "--virtual-time"], "--virtual-time is for the built-in scenarios only"),
            (["--exec", "true"], "--exec needs at least one --upstream"),
            (["--upstream", "127.0.0.1:\(refused)", "--exec", "true"], "cannot be reached"),
            (["--upstream", reachable, "--exec", "no-such-program-here --flag"], "'no-such-program-here' is not a program on PATH"),
            (["--upstream", reachable, "--exec", "true", "--faults", "after:sent=earthquake"], "'earthquake' cannot be aimed"),
            (["--upstream", reachable, "--exec", "true", "--faults", "after:read=reset"], "unknown event 'read'"),
            (["--upstream", reachable, "--exec", "true", "--bound", "patience=1s"], "unknown bound 'patience'"),
            (["--upstream", "x=y=z", "--exec", "true"], "expected [NAME=]HOST:PORT"),
            (["--upstream", reachable, "--bound", "settle=1s"], "go with --exec"),
        ]
        for (arguments, expected) in cases {
            let out = directory.file("out-\(expected.count)")
            let result = try await explore(arguments, out: out)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}
