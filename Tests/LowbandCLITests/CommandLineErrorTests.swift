import Foundation
import LowbandProcess
import LowbandTestSupport
import NIOCore
import NIOPosix
import Testing

/// The README's promise for bad input to any command, checked on the built binary: one line on
/// stderr, `lowband <command>: error: <what and where>`, nothing on stdout, exit status 1 — and
/// for system errors (a port in use, an unwritable folder, a missing file), before anything starts.
@Suite struct CommandLineErrorTests {
    private let lowband = LowbandBinary.path

    struct BadInput: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// `lowband proxy`, `lowband lz4 compress`, …
        var command: String
        /// What the line must name: the option, the value or the file.
        var names: String

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let badInputs: [BadInput] = [
        // The issue's examples.
        BadInput(arguments: ["proxy", "--lsiten", "127.0.0.1:9000"], command: "lowband proxy", names: "--lsiten"),
        BadInput(arguments: ["proxy", "--seed", "abc"], command: "lowband proxy", names: "--seed"),
        BadInput(arguments: ["proxy", "--listen", ":99999"], command: "lowband proxy", names: "--listen"),
        BadInput(arguments: ["lz4", "compress", "--block-size", "3K"], command: "lowband lz4 compress", names: "--block-size"),
        BadInput(arguments: ["run", "--duration", "-5s"], command: "lowband run", names: "--duration"),
        BadInput(arguments: ["run", "--profile", "edge", "--profiles", "gprs,edge"], command: "lowband run", names: "--profiles"),
        // A few per command.
        BadInput(arguments: ["prxy"], command: "lowband", names: "prxy"),
        BadInput(arguments: ["proxy", "--seed", "-1"], command: "lowband proxy", names: "--seed -1"),
        BadInput(arguments: ["proxy", "--upstream", "127.0.0.1:0"], command: "lowband proxy", names: "--upstream"),
        BadInput(arguments: ["proxy", "--no-api"], command: "lowband proxy", names: "--no-api"),
        BadInput(arguments: ["proxy", "--upstream", "127.0.0.1:9", "--no-api", "--api", "127.0.0.1:0"], command: "lowband proxy", names: "--no-api"),
        BadInput(arguments: ["proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9", "--profile", "no-such-network"], command: "lowband proxy", names: "no-such-network"),
        BadInput(arguments: ["run", "--seed", "x"], command: "lowband run", names: "--seed"),
        BadInput(arguments: ["run", "--duration", "soon"], command: "lowband run", names: "--duration"),
        BadInput(arguments: ["run", "--scenario", "no-such-scenario"], command: "lowband run", names: "no-such-scenario"),
        BadInput(arguments: ["explore", "--seeds", "abc"], command: "lowband explore", names: "--seeds"),
        BadInput(arguments: ["explore", "--duration", "-1s"], command: "lowband explore", names: "--duration"),
        BadInput(arguments: ["explain"], command: "lowband explain", names: "<directory>"),
        BadInput(arguments: ["roundtrip", "--chats", "-3"], command: "lowband roundtrip", names: "--chats -3"),
        BadInput(arguments: ["frames", "decode", "/nonexistent/capture.bin"], command: "lowband frames decode", names: "/nonexistent/capture.bin"),
        BadInput(arguments: ["msgpack", "to-json", "--bogus"], command: "lowband msgpack to-json", names: "--bogus"),
        BadInput(arguments: ["lz4", "compress", "--level", "1", "--fast", "2"], command: "lowband lz4 compress", names: "--fast"),
        BadInput(arguments: ["lz4", "decompress", "--level", "3"], command: "lowband lz4 decompress", names: "--level"),
        BadInput(arguments: ["profiles", "show", "no-such-profile"], command: "lowband profiles show", names: "no-such-profile"),
        BadInput(arguments: ["server", "--listen", "127.0.0.1"], command: "lowband server", names: "--listen"),
        BadInput(arguments: ["server", "--users", "1"], command: "lowband server", names: "--users"),
        BadInput(arguments: ["server", "--idle-timeout", "-5s"], command: "lowband server", names: "--idle-timeout"),
        BadInput(arguments: ["server", "inspect"], command: "lowband server inspect", names: "<dir>"),
        BadInput(arguments: ["client", "--server", "x", "--token", "t", "--database", "d", "send", "--chat", "1"], command: "lowband client send", names: "--server"),
        BadInput(arguments: ["client", "--server", "127.0.0.1:1", "--token", "t", "--database", "d", "send"], command: "lowband client send", names: "--chat"),
        BadInput(arguments: ["client", "--server", "127.0.0.1:1", "--token", "t", "--database", "d", "--timeout", "0", "flush"], command: "lowband client flush", names: "--timeout"),
        BadInput(arguments: ["soak", "--clients", "0"], command: "lowband soak", names: "--clients"),
        BadInput(arguments: ["soak", "--deadline", "-1m"], command: "lowband soak", names: "--deadline"),
        BadInput(arguments: ["bench", "import"], command: "lowband bench import", names: "<files>"),
    ]

    @Test(arguments: badInputs)
    func badInputIsOneLineAndStatus1(_ input: BadInput) async throws {
        let result = try await LowbandBinary.run(input.arguments)
        #expect(result.status == 1, "\(result.stderrText)")
        let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(result.stderrText)")
        #expect(lines.first?.hasPrefix("\(input.command): error: ") == true, "\(result.stderrText)")
        #expect(result.stderrText.contains(input.names), "\(result.stderrText)")
        #expect(!result.stderrText.contains("Usage:"))
        #expect(result.stdout.isEmpty, "nothing ran: \(result.stdoutText)")
    }

    /// `compare` keeps its own exit codes (1 is a regression): its bad arguments are one line
    /// and exit 2, like its other bad input, so a CI gate never reads them as a regression.
    @Test(arguments: [["compare", "--bogus"], ["compare", "a.csv", "b.csv", "--threshold", "10"], ["compare", "a.csv"]])
    func compareBadArgumentsAreOneLineAndExit2(arguments: [String]) async throws {
        let result = try await LowbandBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderrText.split(separator: "\n").count == 1, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix("lowband compare: error: "), "\(result.stderrText)")
    }

    @Test func aFileThatIsNoBenchmarkCSVIsSaidSoInOneLine() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-compare")
        let path = directory.file("notes.txt")
        try "hello world\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await LowbandBinary.run(["compare", path, path])
        #expect(result.status == 2)
        #expect(result.stderrText.hasPrefix("lowband compare: error: \(path):1: not a benchmark CSV: its first line is \"hello world\"; a benchmark CSV starts with the header suite,benchmark,metric,unit,…\n"), "\(result.stderrText)")
    }

    @Test func helpIsStillHelpWithStatus0() async throws {
        let result = try await LowbandBinary.run(["proxy", "--help"])
        #expect(result.status == 0)
        #expect(result.stdoutText.contains("USAGE: lowband proxy"))
        #expect(result.stderr.isEmpty)
    }

    // MARK: System errors, before anything starts

    @Test func anUnwritableOutFolderIsRefusedBeforeTheRun() async throws {
        let result = try await LowbandBinary.run(["run", "--virtual-time", "--duration", "1s", "--out", "/proc/lowband-out"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty, "the scenario must not have run: \(result.stdoutText)")
        #expect(result.stderrText == "lowband run: error: cannot create the output folder /proc/lowband-out (--out): /proc/lowband-out: No such file or directory\n")
    }

    @Test func anOutPathThatIsAFileIsRefusedBeforeTheRun() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-out-file")
        let file = directory.file("out")
        try #require(FileManager.default.createFile(atPath: file, contents: Data()))
        let result = try await LowbandBinary.run(["run", "--virtual-time", "--duration", "1s", "--out", "\(file)/run"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText.contains("\(file) exists and is not a folder"), "\(result.stderrText)")
    }

    @Test(arguments: [
        (["proxy", "--api"], "lowband proxy: error: --api: cannot listen on 127.0.0.1:PORT for the control API: Address already in use\n"),
        (["proxy", "--upstream", "127.0.0.1:9", "--api", "127.0.0.1:0", "--listen"], "lowband proxy: error: --listen: cannot listen on 127.0.0.1:PORT: Address already in use\n"),
        (["server", "--users", "2", "--listen"], "lowband server: error: --listen: cannot listen on 127.0.0.1:PORT: Address already in use\n"),
    ])
    func aPortInUseIsNamedInWordsBeforeListening(_ arguments: [String], _ expected: String) async throws {
        let taken = try await Self.listen()
        let port = try #require(taken.localAddress?.port)
        let result = try await LowbandBinary.run(arguments + ["127.0.0.1:\(port)"])
        try await taken.close()
        #expect(result.status == 1)
        #expect(result.stderrText == expected.replacingOccurrences(of: "PORT", with: "\(port)"))
        #expect(!result.stdoutText.contains("listening"))
    }

    // MARK: The README's other claims about the command line

    /// The three-terminal example: the proxy's control API is on 127.0.0.1:8474 by default. When
    /// another program has 8474 (here: this test, or whoever already had it), a proxy started
    /// without `--api` says so in one warning line and proxies anyway.
    @Test func withoutAPIAndWith8474TakenTheProxyWarnsAndProxies() async throws {
        let result = try await ExternalProcess.run("python3", ["-c", Self.defaultAPIScript, lowband])
        try #require(result.status == 0, "the driver script failed: \(result.stderrText)")
        let report = try JSONDecoder().decode(DefaultAPIReport.self, from: Data(result.stdoutText.utf8))
        #expect(report.status == 0, "\(report.lines)")
        #expect(report.lines.first == "warning: no control API: cannot listen on 127.0.0.1:8474 for the control API: Address already in use; pass --api HOST:PORT for another address, or --no-api", "\(report.lines)")
        #expect(report.lines.contains { $0.hasPrefix("proxy lowband listening on 127.0.0.1:") }, "\(report.lines)")
        #expect(report.echoed == "hi")
    }

    struct DefaultAPIReport: Decodable {
        var status: Int
        var lines: [String]
        var echoed: String
    }

    static let defaultAPIScript = #"""
        import json, signal, socket, subprocess, sys, threading
        lowband = sys.argv[1]
        holder = socket.socket()
        try:
            holder.bind(("127.0.0.1", 8474))
            holder.listen()
        except OSError:
            pass  # someone else has 8474: the same situation for the proxy
        upstream = socket.socket()
        upstream.bind(("127.0.0.1", 0))
        upstream.listen()
        def echo():
            connection, _ = upstream.accept()
            with connection:
                connection.sendall(connection.recv(16))
        threading.Thread(target=echo, daemon=True).start()
        process = subprocess.Popen([lowband, "proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:%d" % upstream.getsockname()[1]],
                                   stderr=subprocess.PIPE, text=True)
        lines = []
        while True:
            line = process.stderr.readline()
            if not line:
                raise SystemExit("lowband exited early: %r" % lines)
            lines.append(line.rstrip("\n"))
            if line.startswith("proxy lowband listening on "):
                break
        host, port = lines[-1].split()[4].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(b"hi")
            echoed = connection.recv(2).decode()
        process.send_signal(signal.SIGTERM)
        try:
            status = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            status = -1
        print(json.dumps({"status": status, "lines": lines, "echoed": echoed}))
        """#

    /// `lowband client` has a default overall deadline (60s, in its help) and says in words
    /// when it passes; what was stored stays in the outbox.
    @Test func aClientAgainstADeadPortGivesUpAtItsDeadline() async throws {
        let help = try await LowbandBinary.run(["client", "--help"])
        #expect(help.stdoutText.contains("(default: 60s)"), "\(help.stdoutText)")
        let directory = try TemporaryDirectory(prefix: "lowband-deadline")
        let database = directory.file("client.sqlite")
        let result = try await LowbandBinary.run(["client", "--server", "127.0.0.1:1", "--token", "t", "--database", database, "--timeout", "1s", "send", "--chat", "1"])
        #expect(result.status == 1)
        #expect(result.stderrText.split(separator: "\n").count == 1, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix("lowband client send: error: gave up after 1s (--timeout) with 1 task(s) still in the outbox"), "\(result.stderrText)")
        #expect(result.stdoutText.contains("done sent=0 pending=1 failed=0"))
    }

    /// A listening socket on 127.0.0.1 that a command under test will find taken.
    private static func listen() async throws -> any Channel {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    }
}
