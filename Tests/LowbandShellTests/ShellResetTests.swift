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
    private func run(profile yaml: String, client: String, arguments: [String]) async throws -> (client: String, host: String, trace: [Substring]) {
        let directory = try TemporaryDirectory(prefix: "lowband-shell-reset")
        let profile = directory.file("profile.yaml")
        try yaml.write(toFile: profile, atomically: true, encoding: .utf8)
        let server = try await ChildProcess("python3", ["-u", "-c", Self.hostServer])
        defer { server.send(SIGTERM) }
        let port = try #require(try await server.nextLine().flatMap { Int($0) })
        let trace = directory.file("trace.jsonl")
        let result = try await LowbandBinary.run(["shell", "--quiet", "--profile", profile, "--trace", trace, "--", "python3", "-c", client, String(port)] + arguments)
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

    // MARK: Helpers

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
