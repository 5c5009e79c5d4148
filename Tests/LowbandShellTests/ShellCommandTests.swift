import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// `lowband shell` end to end: the built binary, real namespaces, real programs inside, servers
/// on the host's loopback. Tagged wall-clock: the link's delays are real time, and a loaded
/// machine must not starve them (every bound below is a floor the link imposes, or generous).
@Suite(.tags(.wallClock), .enabled(if: UserNamespaces.available, UserNamespaces.why)) struct ShellCommandTests {
    @Test func curlInsideFetchesAPageFromTheHostsLoopbackAcrossTheLink() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell")
        try "hello through the link\n".write(toFile: directory.file("hello.txt"), atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path])
        defer { server.send(SIGTERM) }
        let port = try await Self.port(from: server)
        // EDGE: 200 ms each way, jitter at most ±50 ms; connect + request is two round trips.
        let result = try await LowbandBinary.run([
            "shell", "--profile", "edge", "--seed", "3", "--",
            "sh", "-c", "curl -sS --max-time 60 -w ' %{time_total}' http://$LOWBAND_HOST:\(port)/hello.txt",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let output = result.stdoutText
        let space = try #require(output.lastIndex(of: " "))
        #expect(output[..<space] == "hello through the link\n")
        let seconds = try #require(Double(output[output.index(after: space)...]))
        #expect(seconds >= 0.6, "two round trips of EDGE take at least 2 × 2 × 150 ms")
        #expect(result.stderrText.contains("lowband shell: edge, seed 3: up "))
    }

    @Test func pythonRequestsInsideFetchesFromTheHostsLoopback() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-requests")
        try "hello from the host\n".write(toFile: directory.file("hello.txt"), atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path])
        defer { server.send(SIGTERM) }
        let port = try await Self.port(from: server)
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", "3g", "--", "python3", "-c",
            "import os, requests; r = requests.get(f\"http://{os.environ['LOWBAND_HOST']}:\(port)/hello.txt\", timeout=60); print(r.status_code, r.text, end='')",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "200 hello from the host\n")
    }

    @Test func aUDPEchoOverFivePercentLossEachWayComesBackWithinBinomialBounds() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-udp")
        let profile = directory.file("lossy.yaml")
        try """
            description: UDP echo test — 2 Mbit/s, 50 ms each way, 5 % independent loss each way
            downlink:
              rate: 2Mbit
              delay: 50ms
              loss: 5%
              queue: 64KB
            uplink:
              rate: 2Mbit
              delay: 50ms
              loss: 5%
              queue: 64KB

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        let echo = try await ChildProcess("python3", ["-u", "-c", Self.echoServer])
        defer { echo.send(SIGTERM) }
        let port = try #require(try await echo.nextLine().flatMap { Int($0) })
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run([
            "shell", "--profile", profile, "--seed", "11", "--trace", trace, "--", "python3", "-c", Self.echoClient, String(port),
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let fields = result.stdoutText.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 2, "the client prints: received min_rtt_s (\(result.stdoutText))")
        // n = 1000, p = 0.95² = 0.9025: mean 902.5, σ ≈ 9.4; ±5σ.
        #expect((856 ... 949).contains(Int(fields[0])))
        #expect(fields[1] >= 0.100, "every echo takes at least the profile's round trip (2 × 50 ms)")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains("\"event\":\"drop\"") && $0.contains(": loss\"") })
        #expect(lines.contains { $0.contains("\"event\":\"deliver\"") })
    }

    @Test func theCommandsExitStatusIsTheShells() async throws {
        let result = try await LowbandBinary.run(["shell", "--quiet", "--", "sh", "-c", "exit 42"])
        #expect(result.status == 42)
        #expect(result.stderrText.isEmpty)
    }

    @Test func aCommandNotFoundExits127WithOneLine() async throws {
        let result = try await LowbandBinary.run(["shell", "--", "no-such-command-lowband"])
        #expect(result.status == 127)
        #expect(result.stderrText == "lowband shell: error: no-such-command-lowband: command not found (searched PATH)\n")
    }

    @Test func aDaemonTheCommandForkedIsGoneWhenTheShellEnds() async throws {
        // A unique argument finds the daemon among the host's processes; setsid and nohup take
        // it out of the command's session and process group, which the PID namespace ignores.
        let marker = "31\(Int.random(in: 100_000 ... 999_999))"
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--", "sh", "-c", "setsid nohup sleep \(marker) >/dev/null 2>&1 & sleep 0.2; echo started",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "started\n")
        #expect(Self.processes(withArgument: marker).isEmpty, "nothing started inside outlives the shell")
    }

    @Test func insideTheOnlyInterfacesAreLoAndTheTap() async throws {
        let result = try await LowbandBinary.run(["shell", "--quiet", "--", "sh", "-c", "ls /sys/class/net; echo $LOWBAND_HOST; cat /etc/resolv.conf"])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(Array(lines.prefix(3)) == ["lo", "tap0", "10.0.2.2"])
        #expect(lines.contains("nameserver 10.0.2.3"))
    }

    @Test func withoutUserNamespacesOneLineNamesTheSysctlAndTheStatusIs2() async throws {
        // A user namespace whose own limit of nested ones is 0: unshare(2) then fails with
        // ENOSPC, as on a host with user.max_user_namespaces=0.
        let result = try await ExternalProcess.run("unshare", [
            "-Ur", "sh", "-c", "echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" shell -- true", LowbandBinary.path,
        ])
        #expect(result.status == 2, "\(result.stderrText)")
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("lowband shell: error: cannot create a user namespace (clone(CLONE_NEWUSER): No space left on device)") == true)
        #expect(lines.first?.contains("kernel.unprivileged_userns_clone") == true && lines.first?.contains("user.max_user_namespaces") == true)
    }

    @Test func sigtermToTheShellReachesTheCommandWhoseStatusComesBack() async throws {
        let shell = try await LowbandBinary.start([
            "shell", "--quiet", "--", "sh", "-c", "trap 'echo got-term; exit 5' TERM; echo ready; while :; do sleep 0.05; done",
        ])
        #expect(try await shell.nextLine() == "ready")
        shell.send(SIGTERM)
        #expect(try await shell.nextLine() == "got-term")
        #expect(try await shell.exitStatus() == 5)
    }

    @Test func theCommandGetsSIGPIPEsDefaultThoughTheShellIgnoresIt() async throws {
        let result = try await LowbandBinary.run(["shell", "--quiet", "--", "grep", "SigIgn", "/proc/self/status"])
        #expect(result.status == 0, "\(result.stderrText)")
        let mask = try #require(UInt64(result.stdoutText.dropFirst("SigIgn:\t".count).trimmingCharacters(in: .whitespacesAndNewlines), radix: 16))
        #expect(mask & (1 << (SIGPIPE - 1)) == 0, "SIGPIPE is not ignored inside")
    }

    @Test(arguments: [false, true])
    func iperf3GoodputOnAn800KbitLinkIsItsRateLessTheHeaders(reverse: Bool) async throws {
        try #require(ExternalProcess.which("iperf3") != nil, "iperf3 is not installed (scripts/setup.sh installs it)")
        let directory = try TemporaryDirectory(prefix: "lowband-shell-iperf")
        let profile = directory.file("p800.yaml")
        try Self.profile800.write(toFile: profile, atomically: true, encoding: .utf8)
        // iperf3 takes no port 0 and prints no port it chose: a random one below Linux's
        // ephemeral range (32768-60999, which every connect on the machine draws from), and
        // another if that one is taken (seen in a CI run: "Address already in use").
        var listening: (server: ChildProcess, port: Int)?
        for _ in 0 ..< 8 where listening == nil {
            let port = Int.random(in: 20_000 ... 32_000)
            let candidate = try await ChildProcess("iperf3", ["-s", "-1", "--forceflush", "-B", "127.0.0.1", "-p", String(port)])
            do {
                _ = try await candidate.lines(until: { $0.contains("Server listening") })
                listening = (candidate, port)
            } catch where String(describing: error).contains("Address already in use") {
                continue
            }
        }
        let (server, port) = try #require(listening, "iperf3 found no free port in 8 tries")
        defer { server.send(SIGTERM) }
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", profile, "--", "sh", "-c",
            "iperf3 -J -c $LOWBAND_HOST -p \(port) -t 10\(reverse ? " -R" : "")",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        let received = (report?["end"] as? [String: Any])?["sum_received"] as? [String: Any]
        let kilobits = try #require(received?["bits_per_second"] as? Double) / 1000
        // 1448 of every 1500 bytes on the air are payload (IPv4 20 + TCP 20 + timestamps 12):
        // 772 kbit/s at 800. A generous band: the first window and the last ack are in it too.
        #expect((720 ... 800).contains(kilobits), "goodput \(kilobits) kbit/s")
    }

    @Test func theAPIServesTheLinksStatsAndMetricsToTheCommandItself() async throws {
        let result = try await LowbandBinary.run([
            "shell", "--profile", "edge", "--api", "127.0.0.1:0", "--", "sh", "-c", "curl -sS $LOWBAND_API/stats && curl -sS $LOWBAND_API/metrics",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix("lowband shell: API on http://127.0.0.1:"))
        let output = result.stdoutText
        let newline = try #require(output.firstIndex(of: "\n"))
        let stats = try #require(try JSONSerialization.jsonObject(with: Data(output[..<newline].utf8)) as? [String: Any])
        #expect(stats["profile"] as? String == "edge")
        #expect(stats["running"] as? Bool == true)
        let upstream = try #require(stats["upstream"] as? [String: Any])
        // The first request's handshake and request crossed before the stats were read.
        #expect((upstream["delivered_frames"] as? Int ?? 0) >= 3)
        // The metrics, read by the reference parser (prometheus-client).
        let metrics = String(output[output.index(after: newline)...])
        let parsed = try await ExternalProcess.run("python3", ["-c", Self.metricsReader], stdin: Array(metrics.utf8))
        #expect(parsed.status == 0, "\(parsed.stderrText)")
        #expect(parsed.stdoutText.contains("lowband_shell_delivered_frames upstream edge"))
        #expect(parsed.stdoutText.contains("lowband_shell_running"))
    }

    @Test(arguments: [
        (["shell"], "lowband shell: error: no command to run: lowband shell [--profile P] [--seed N] -- CMD ARGS… (see 'lowband shell --help')\n"),
        (["shell", "--profil", "edge", "--", "true"], "lowband shell: error: unknown option '--profil'; did you mean '--profile'? (the command to run goes after --) (see 'lowband shell --help')\n"),
        (["shell", "--api", "127.0.0.1:99999", "--", "true"], "lowband shell: error: --api: '127.0.0.1:99999' has no valid port (0-65535) after the last ':' (see 'lowband shell --help')\n"),
        (["shell", "--api", "0.0.0.0:0", "--", "true"], "lowband shell: error: --api 0.0.0.0:0 would be reachable from other machines, and POST /outage changes the link: give a loopback address (127.0.0.1:PORT) (see 'lowband shell --help')\n"),
    ])
    func badArgumentsGiveOneLineAndStatus1(arguments: [String], line: String) async throws {
        let result = try await LowbandBinary.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderrText == line)
        #expect(result.stdoutText.isEmpty)
    }

    @Test func anUnknownProfileGivesOneLineBeforeAnythingRuns() async throws {
        let result = try await LowbandBinary.run(["shell", "--profile", "no-such-profile", "--", "touch", "/nonexistent-lowband"])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband shell: error: "))
        #expect(result.stderrText.contains("no-such-profile"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func dnsGoesThroughSlirpsForwarderAndWaitsTheProfilesDNSDelay() async throws {
        // slirp forwards to the host's resolvers (its /etc/resolv.conf); the host's must answer.
        let host = try await ExternalProcess.run("python3", ["-c", Self.dnsQuery, Self.hostNameserver() ?? "127.0.0.53"])
        try #require(host.stdoutText.hasPrefix("answer"), "the host's resolver does not answer (\(host.stdoutText)); DNS through the shell cannot be checked here")
        let directory = try TemporaryDirectory(prefix: "lowband-shell-dns")
        let profile = directory.file("slow-dns.yaml")
        try """
            description: DNS test — 50 ms each way, every lookup 700 ms slower
            downlink: {rate: 2Mbit, delay: 50ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 50ms, queue: 64KB}
            dns: {delay: 700ms}

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", profile, "--trace", trace, "--", "sh", "-c",
            "python3 -c \"$0\" $(sed -n 's/^nameserver //p' /etc/resolv.conf)", Self.dnsQuery,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let words = result.stdoutText.split(separator: " ")
        #expect(words.first == "answer", "\(result.stdoutText)")
        let seconds = try #require(words.last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(seconds >= 0.8, "a round trip of 100 ms and the DNS delay of 700 ms")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains("\"event\":\"dns\"") && $0.contains("\"delay_ns\":700000000") }.count == 1)
    }

    @Test func postOutageHoldsTheLinkAsTheProxysAPIDoes() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-outage")
        let trace = directory.file("trace.jsonl")
        let profile = directory.file("slow.yaml")
        try """
            description: outage test — 50 ms each way
            downlink: {rate: 2Mbit, delay: 50ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 50ms, queue: 64KB}

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        // The answer to the POST is on its way back when the outage starts: it waits it out.
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", profile, "--api", "127.0.0.1:0", "--trace", trace, "--", "sh", "-c",
            """
            curl -sS -d '{"second": 1}' $LOWBAND_API/outage
            curl -sS -w ' %{time_total}' -d '{"seconds": 1.5, "kind": "handover"}' $LOWBAND_API/outage
            """,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first == "unknown key 'second' in the body of POST /outage (it takes seconds and kind)")
        try #require(lines.count == 3, "\(lines)")
        #expect(lines[1] == #"{"outage":"handover","seconds":1.5}"#)
        let seconds = try #require(Double(lines[2].trimmingCharacters(in: .whitespaces)))
        #expect(seconds >= 1.5)
        let events = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(events.contains { $0.contains(#""event":"outage-start""#) && $0.contains(#""delay_ns":1500000000"#) && $0.contains("handover, forced") })
        #expect(events.contains { $0.contains(#""event":"outage-end""#) })
    }

    @Test func anHTTP3FetchWithAioquicCrossesEDGEInTheTimeItsBytesNeed() async throws {
        let aioquic = try await ExternalProcess.run("python3", ["-c", "import aioquic"])
        try #require(aioquic.status == 0, "aioquic is not installed (pip install aioquic; scripts/setup.sh installs it)")
        let directory = try TemporaryDirectory(prefix: "lowband-shell-h3")
        let script = directory.file("h3.py")
        try Self.http3.write(toFile: script, atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", script, "server"])
        defer { server.send(SIGTERM) }
        let port = try #require(try await server.nextLine().flatMap { Int($0) })
        let result = try await LowbandBinary.run(["shell", "--profile", "edge", "--seed", "1", "--", "python3", script, "client", String(port), "100000"])
        #expect(result.status == 0, "\(result.stderrText)")
        let fields = result.stdoutText.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(fields.count == 2, "the client prints: bytes seconds (\(result.stdoutText))")
        #expect(fields[0] == 100_000)
        // 100 000 bytes in 1500-byte packets of about 1450 payload at 150 kbit/s take 5.5 s;
        // QUIC's handshake adds a round trip of at least 300 ms.
        #expect(fields[1] >= 5.8, "\(fields[1]) s")
    }

    @Test func theNATForgetsAnIdleTCPConnectionWhileANewOneWorks() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-nat")
        let profile = directory.file("nat.yaml")
        try """
            description: NAT test — 20 ms each way, a NAT forgetting flows idle for 1 s
            downlink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            nat: {idle-timeout: 1s, on-expiry: silent}

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        let echo = try await ChildProcess("python3", ["-u", "-c", Self.tcpEchoServer])
        defer { echo.send(SIGTERM) }
        let port = try #require(try await echo.nextLine().flatMap { Int($0) })
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", profile, "--trace", trace, "--", "python3", "-c", Self.idleClient, String(port),
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "one timeout new\n")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""event":"nat-expired""#) && $0.contains("the NAT's timeout is 1 s") })
        #expect(lines.contains { $0.contains(#""event":"drop""#) && $0.contains(": nat-expired") })
    }

    @Test func aFailedLookupIsAnsweredNXDOMAINAfterTheDNSDelay() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-nxdomain")
        let profile = directory.file("failing-dns.yaml")
        try """
            description: DNS test — 50 ms each way, lookups 300 ms slower and all but certain to fail
            downlink: {rate: 2Mbit, delay: 50ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 50ms, queue: 64KB}
            dns: {delay: 300ms, failure: 99.9%}

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run([
            "shell", "--quiet", "--profile", profile, "--seed", "4", "--trace", trace, "--", "python3", "-c", Self.dnsQuery, "10.0.2.3",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let words = result.stdoutText.split(separator: " ")
        #expect(words.prefix(2) == ["answer", "3"], "NXDOMAIN: \(result.stdoutText)")
        let seconds = try #require(words.last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(seconds >= 0.4, "the round trip of 100 ms and the DNS delay of 300 ms")
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""event":"dns""#) && $0.contains("fails: answered NXDOMAIN") })
    }

    // MARK: Helpers

    /// Echoes every TCP connection on 127.0.0.1, one thread each; prints its port first.
    static let tcpEchoServer = """
        import socket, threading
        server = socket.create_server(("127.0.0.1", 0))
        print(server.getsockname()[1], flush=True)
        def echo(connection):
            while data := connection.recv(4096):
                connection.sendall(data)
        while True:
            connection, _ = server.accept()
            threading.Thread(target=echo, args=(connection,), daemon=True).start()
        """

    /// One echo on a connection, 2 s idle, another on it (the NAT forgot it: a timeout), then
    /// one on a new connection; prints the three answers.
    static let idleClient = """
        import os, socket, sys, time
        host, port = os.environ["LOWBAND_HOST"], int(sys.argv[1])
        a = socket.create_connection((host, port), timeout=10)
        a.sendall(b"one")
        first = a.recv(16).decode()
        time.sleep(2)
        a.settimeout(3)
        a.sendall(b"two")
        try:
            second = a.recv(16).decode()
        except socket.timeout:
            second = "timeout"
        b = socket.create_connection((host, port), timeout=10)
        b.sendall(b"new")
        print(first, second, b.recv(16).decode())
        """

    /// An HTTP/3 server and client on aioquic (its asyncio API and H3Connection): `server`
    /// prints its UDP port and answers GET /N with N bytes; `client PORT N` fetches /N from
    /// $LOWBAND_HOST:PORT and prints the bytes received and the seconds taken.
    static let http3 = #"""
        import asyncio, datetime, os, ssl, sys, tempfile, time
        from aioquic.asyncio import connect, serve
        from aioquic.asyncio.protocol import QuicConnectionProtocol
        from aioquic.h3.connection import H3_ALPN, H3Connection
        from aioquic.h3.events import DataReceived, HeadersReceived
        from aioquic.quic.configuration import QuicConfiguration

        class Server(QuicConnectionProtocol):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.h3 = H3Connection(self._quic)
            def quic_event_received(self, event):
                for e in self.h3.handle_event(event):
                    if isinstance(e, HeadersReceived):
                        path = dict(e.headers)[b":path"].decode()
                        size = int(path.strip("/"))
                        self.h3.send_headers(e.stream_id, [(b":status", b"200"), (b"content-length", str(size).encode())])
                        self.h3.send_data(e.stream_id, b"x" * size, end_stream=True)
                        self.transmit()

        class Client(QuicConnectionProtocol):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.h3 = H3Connection(self._quic)
                self.received = 0
                self.done = asyncio.get_event_loop().create_future()
            def quic_event_received(self, event):
                for e in self.h3.handle_event(event):
                    if isinstance(e, DataReceived):
                        self.received += len(e.data)
                        if e.stream_ended and not self.done.done():
                            self.done.set_result(self.received)

        def certificate(directory):
            from cryptography import x509
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.x509.oid import NameOID
            key = ec.generate_private_key(ec.SECP256R1())
            name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
            now = datetime.datetime.now(datetime.timezone.utc)
            cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                    .serial_number(1).not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=1))
                    .sign(key, hashes.SHA256()))
            certfile, keyfile = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
            open(certfile, "wb").write(cert.public_bytes(serialization.Encoding.PEM))
            open(keyfile, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
            return certfile, keyfile

        async def run_server():
            configuration = QuicConfiguration(is_client=False, alpn_protocols=H3_ALPN)
            with tempfile.TemporaryDirectory() as directory:
                configuration.load_cert_chain(*certificate(directory))
            server = await serve("127.0.0.1", 0, configuration=configuration, create_protocol=Server)
            print(server._transport.get_extra_info("sockname")[1], flush=True)
            await asyncio.Future()

        async def run_client(host, port, size):
            configuration = QuicConfiguration(is_client=True, alpn_protocols=H3_ALPN, verify_mode=ssl.CERT_NONE)
            start = time.monotonic()
            async with connect(host, port, configuration=configuration, create_protocol=Client) as client:
                stream = client._quic.get_next_available_stream_id()
                client.h3.send_headers(stream, [(b":method", b"GET"), (b":scheme", b"https"), (b":authority", b"localhost"), (b":path", b"/%d" % size)], end_stream=True)
                client.transmit()
                received = await asyncio.wait_for(client.done, 120)
            print(received, time.monotonic() - start)

        if sys.argv[1] == "server":
            asyncio.run(run_server())
        else:
            asyncio.run(run_client(os.environ["LOWBAND_HOST"], int(sys.argv[2]), int(sys.argv[3])))
        """#

    /// The first nameserver of the host's /etc/resolv.conf.
    static func hostNameserver() -> String? {
        let text = (try? String(contentsOfFile: "/etc/resolv.conf", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix("nameserver ") }.map { String($0.dropFirst("nameserver ".count)) }
    }

    /// Asks the server in argv[1] for example.com's A record; prints `answer RCODE SECONDS` or `timeout`.
    static let dnsQuery = """
        import socket, struct, sys, time
        query = struct.pack("!HHHHHH", 0x4c42, 0x0100, 1, 0, 0, 0) + b"\\x07example\\x03com\\x00" + struct.pack("!HH", 1, 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(10)
        start = time.monotonic()
        s.sendto(query, (sys.argv[1], 53))
        try:
            data = s.recv(1500)
            assert data[:2] == b"\\x4c\\x42" and data[2] & 0x80, "not the answer to this query"
            print("answer", data[3] & 15, time.monotonic() - start)
        except socket.timeout:
            print("timeout")
        """

    /// Prints `family direction profile` for every sample prometheus-client's parser reads.
    static let metricsReader = """
        import sys
        from prometheus_client.parser import text_string_to_metric_families
        for family in text_string_to_metric_families(sys.stdin.read()):
            for sample in family.samples:
                print(family.name, sample.labels.get("direction", "-"), sample.labels["profile"], sample.value)
        """

    static let profile800 = """
        description: 800 kbit/s each way, 50 ms each way, no loss (goodput through the shell)
        downlink:
          rate: 800kbit
          delay: 50ms
          queue: 64KB
        uplink:
          rate: 800kbit
          delay: 50ms
          queue: 64KB

        """

    /// The port `python3 -m http.server 0` prints: `Serving HTTP on 127.0.0.1 port N (…)`.
    static func port(from server: ChildProcess) async throws -> Int {
        let line = try await server.lines(until: { $0.hasPrefix("Serving HTTP") }).match
        let words = line.split(separator: " ")
        let index = try #require(words.firstIndex(of: "port"))
        return try #require(Int(words[index + 1]))
    }

    /// Host processes whose command line has `argument`.
    static func processes(withArgument argument: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard entry.allSatisfy(\.isNumber), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return false }
            return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == argument }
        }
    }

    /// Echoes every datagram on 127.0.0.1; prints its port first.
    static let echoServer = """
        import socket
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind(("127.0.0.1", 0))
        print(s.getsockname()[1], flush=True)
        while True:
            data, peer = s.recvfrom(2048)
            s.sendto(data, peer)
        """

    /// Sends 1000 numbered datagrams 2 ms apart to $LOWBAND_HOST:PORT, collects the echoes until
    /// 3 s after the last, prints how many came back and the shortest round trip in seconds.
    static let echoClient = """
        import os, socket, sys, threading, time
        host, port, count = os.environ["LOWBAND_HOST"], int(sys.argv[1]), 1000
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sent, rtts = {}, {}
        def receive():
            while True:
                try:
                    data = s.recv(2048)
                except OSError:
                    return
                index = int(data.split(b" ")[0])
                if index in sent and index not in rtts:
                    rtts[index] = time.monotonic() - sent[index]
        threading.Thread(target=receive, daemon=True).start()
        for index in range(count):
            sent[index] = time.monotonic()
            s.sendto(b"%d %s" % (index, b"x" * 40), (host, port))
            time.sleep(0.002)
        time.sleep(3)
        print(len(rtts), min(rtts.values()) if rtts else 0)
        """
}
