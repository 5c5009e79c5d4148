import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

/// The link's resets made real: the profile's `resets` and a NAT's `on-expiry: reset` reach both
/// ends as TCP resets, so the app inside sees ECONNRESET and the host's server its side closed.
// Real time: idle timeouts and lifetimes of a second, on real sockets.
@Suite(.tags(.wallClock), .enabled(if: UserNamespaces.available, UserNamespaces.why)) struct ShellResetTests {
    /// Runs `client` (with the host server's port) in a shell on `profile`; the client's output,
    /// the host server's last line and the trace's lines.
    private func run(profile yaml: String, client: String, arguments: [String], options: [String] = []) async throws -> (client: String, host: String, trace: [Substring]) {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-reset")
        let profile = directory.file("profile.yaml")
        try yaml.write(toFile: profile, atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", "-c", Self.hostServer])
        defer { server.send(SIGTERM) }
        let port = try #require(try await server.nextLine().flatMap { Int($0) })
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run(["shell", "--quiet", "--profile", profile, "--trace", trace] + options + ["--", "python3", "-c", client, String(port)] + arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        // The host's server says how its side ended once slirp closed it.
        let host = try await server.nextLine(timeout: .seconds(60)) ?? "(nothing)"
        return (result.stdoutText, host, try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n"))
    }

    @Test func aNATThatResetsAnIdleFlowResetsBothEnds() async throws {
        let outcome = try await run(profile: """
            description: NAT reset test — 20 ms each way, a NAT resetting flows idle for 1 s
            downlink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            nat: {idle-timeout: 1s, on-expiry: reset}

            """, client: Self.idleClient, arguments: ["1.5"])
        // The first echo, then the write after 1.5 s idle: the NAT resets the flow, the read fails.
        #expect(outcome.client == "one ConnectionResetError\n")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"nat-expired""#) && $0.contains("reset: idle") })
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains(#""conn":1"#) && $0.contains("the NAT forgot it") })
    }

    @Test func theProfilesResetsEndAConnectionAfterItsLifetime() async throws {
        let outcome = try await run(profile: """
            description: Reset test — 20 ms each way, every connection reset 1 s after it opens
            downlink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            uplink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
            resets: {probability: 100%, after-time: 1s..1s}

            """, client: Self.idleClient, arguments: ["0"])
        // The second echo is answered; the read after it waits until the lifetime is up.
        #expect(outcome.client == "one two ConnectionResetError\n")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains("its lifetime is up") })
    }

    static let quickLink = """
        description: Toxic reset test — 20 ms each way
        downlink: {rate: 2Mbit, delay: 20ms, queue: 64KB}
        uplink: {rate: 2Mbit, delay: 20ms, queue: 64KB}

        """

    /// The bytes the client read before its reset, from its line `ConnectionResetError after N`.
    private func bytesBeforeReset(_ client: String) throws -> Int {
        let words = client.split(separator: " ")
        #expect(words.prefix(2) == ["ConnectionResetError", "after"], "\(client)")
        return try #require(words.last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    }

    @Test func aResetPeerToxicResetsTheConnectionItsTimeoutAfterItsFirstData() async throws {
        let toxic = #"{"name": "rp", "type": "reset_peer", "stream": "downstream", "attributes": {"timeout": 500}}"#
        let outcome = try await run(profile: Self.quickLink, client: Self.toxicClient, arguments: [toxic, "0.1"], options: ["--api", "127.0.0.1:0"])
        // An echo of 1000 bytes every 0.1 s: the reset comes 0.5 s after the first came down.
        let received = try bytesBeforeReset(outcome.client)
        #expect((1000 ..< 20_000).contains(received), "\(outcome.client)")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains("toxic rp: reset_peer 500 ms after its first data downstream") })
    }

    @Test func aTimeoutToxicHoldsTheStreamAndResetsTheConnectionAfterIt() async throws {
        let toxic = #"{"name": "t", "type": "timeout", "stream": "upstream", "attributes": {"timeout": 300}}"#
        let outcome = try await run(profile: Self.quickLink, client: Self.toxicClient, arguments: [toxic, "0", "connected"], options: ["--api", "127.0.0.1:0"])
        // Connected, then the toxic: the first 1000 bytes never go up, and 300 ms later the reset.
        #expect(outcome.client == "ConnectionResetError after 0\n", "\(outcome.client)")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"drop""#) && $0.contains("t: toxic-timeout") })
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains("toxic t: timeout 300 ms after the first packet it held upstream") })
    }

    @Test func aLimitDataToxicResetsTheConnectionPastItsBytes() async throws {
        let toxic = #"{"name": "ld", "type": "limit_data", "stream": "downstream", "attributes": {"bytes": 2500}}"#
        let outcome = try await run(profile: Self.quickLink, client: Self.toxicClient, arguments: [toxic, "0"], options: ["--api", "127.0.0.1:0"])
        let received = try bytesBeforeReset(outcome.client)
        #expect(received <= 2500, "no more than the toxic's bytes came down: \(outcome.client)")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"drop""#) && $0.contains("ld: toxic-limit-data") })
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains("toxic ld: limit_data") })
    }

    @Test func theAPIResetsOneConnectionByItsNumber() async throws {
        let outcome = try await run(profile: Self.quickLink, client: Self.apiResetClient, arguments: [], options: ["--api", "127.0.0.1:0"])
        // An echo; a reset of connection 99 (none) refused; connection 1 (the echo's) reset: the
        // next write or read fails.
        #expect(outcome.client == "one 404 204 ConnectionResetError\n")
        #expect(outcome.host == "host: closed" || outcome.host == "host: reset", "\(outcome.host)")
        #expect(outcome.trace.contains { $0.contains(#""event":"reset""#) && $0.contains(#""conn":1"#) && $0.contains("the link reset it: reset through the control API") })
        #expect(outcome.trace.contains { $0.contains(#""event":"close""#) && $0.contains(#""conn":1"#) && $0.contains("reset by the link") })
    }

    // MARK: Helpers

    /// `PORT`: one echo, then `DELETE $LOWBAND_API/proxies/shell/connections/99` and `…/1`
    /// (the echo's connection, the first the shell saw), then another echo; prints the echo, the
    /// two statuses and how the second echo ended.
    static let apiResetClient = """
        import os, socket, sys, urllib.error, urllib.request
        api = os.environ["LOWBAND_API"] + "/proxies/shell/connections/"
        connection = socket.create_connection((os.environ["LOWBAND_HOST"], int(sys.argv[1])), timeout=20)
        connection.sendall(b"one")
        words = [connection.recv(16).decode()]
        try:
            urllib.request.urlopen(urllib.request.Request(api + "99", method="DELETE"), timeout=20)
            words.append("no error")
        except urllib.error.HTTPError as error:
            words.append(str(error.code))
        words.append(str(urllib.request.urlopen(urllib.request.Request(api + "1", method="DELETE"), timeout=20).status))
        try:
            connection.sendall(b"two")
            words.append(connection.recv(16).decode() or "eof")
        except ConnectionResetError:
            words.append("ConnectionResetError")
        print(" ".join(words))
        """

    /// `PORT TOXIC PAUSE [connected]`: adds TOXIC (JSON) through `$LOWBAND_API` (once
    /// connected, with `connected`), then echoes 1000 bytes with the host's server up to 20
    /// times, PAUSE seconds apart; prints how it ended and the bytes that came back.
    static let toxicClient = """
        import os, socket, sys, time, urllib.request
        api = os.environ["LOWBAND_API"] + "/proxies/shell/toxics"
        def add():
            urllib.request.urlopen(urllib.request.Request(api, data=sys.argv[2].encode(), method="POST"), timeout=20).read()
        if sys.argv[4:] != ["connected"]:
            add()
        connection = socket.create_connection((os.environ["LOWBAND_HOST"], int(sys.argv[1])), timeout=20)
        if sys.argv[4:] == ["connected"]:
            add()
        received = 0
        try:
            for _ in range(20):
                connection.sendall(b"x" * 1000)
                want = 1000
                while want:
                    data = connection.recv(want)
                    if not data:
                        raise EOFError
                    received += len(data)
                    want -= len(data)
                time.sleep(float(sys.argv[3]))
            print("no reset after", received)
        except ConnectionResetError:
            print("ConnectionResetError after", received)
        except EOFError:
            print("eof after", received)
        except socket.timeout:
            print("timeout after", received)
        """

    /// Accepts one connection on 127.0.0.1 (its port printed first), echoes what it is sent,
    /// and says how the connection ended: `host: closed` (EOF) or `host: reset`.
    static let hostServer = """
        import socket
        server = socket.create_server(("127.0.0.1", 0))
        print(server.getsockname()[1], flush=True)
        connection, _ = server.accept()
        try:
            while data := connection.recv(4096):
                connection.sendall(data)
            print("host: closed", flush=True)
        except ConnectionResetError:
            print("host: reset", flush=True)
        """

    /// `PORT IDLE`: one echo, IDLE seconds without a packet, then another echo and a read that
    /// waits for more; prints each answer, or how the connection failed.
    static let idleClient = """
        import os, socket, sys, time
        connection = socket.create_connection((os.environ["LOWBAND_HOST"], int(sys.argv[1])), timeout=20)
        words = []
        try:
            connection.sendall(b"one")
            words.append(connection.recv(16).decode())
            time.sleep(float(sys.argv[2]))
            connection.sendall(b"two")
            words.append(connection.recv(16).decode() or "eof")
            words.append(connection.recv(16).decode() or "eof")
        except ConnectionResetError:
            words.append("ConnectionResetError")
        except socket.timeout:
            words.append("timeout")
        print(" ".join(words))
        """
}
