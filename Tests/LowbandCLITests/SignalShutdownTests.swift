import Foundation
import LowbandProcess
import LowbandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one shutdown path of `lowband server`, `proxy` and `run` (swift-service-lifecycle): the
/// built binary gets SIGINT or SIGTERM and stops gracefully with its shutdown output, and a
/// second signal ends it at once.
@Suite struct SignalShutdownTests {
    private let lowband = LowbandBinary.path
    private let small = ["--seed", "4", "--users", "3", "--chats-per-user", "2", "--messages-per-chat", "2"]

    private static func name(_ signal: Int32) -> String {
        signal == SIGINT ? "SIGINT" : "SIGTERM"
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func theServerStopsAndItsDataDirectoryIsFreeAtOnce(_ signal: Int32) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-signal")
        // Not made beforehand: the first server makes its data directory.
        let folder = directory.file("data")
        let first = try await LowbandBinary.start(["server", "--data", folder] + small)
        _ = try await first.lines { $0.hasPrefix("listening on ") }
        first.send(signal)
        let (stopped, before) = try await first.lines { $0 == "stopped" }
        #expect(stopped == "stopped")
        #expect(before.last == "\(Self.name(signal)): stopping", "\(before)")
        #expect(try await first.exitStatus() == 0, "\(first.stderrText)")

        // The directory's lock went with the first server: a second one opens it straight away.
        let second = try await LowbandBinary.start(["server", "--data", folder] + small)
        let (data, _) = try await second.lines { $0.hasPrefix("data ") }
        #expect(data.hasPrefix("data \(folder): restored, "), "\(second.stderrText)")
        _ = try await second.lines { $0.hasPrefix("stop with ") }
        second.send(signal == SIGINT ? SIGTERM : SIGINT)
        _ = try await second.lines { $0 == "stopped" }
        #expect(try await second.exitStatus() == 0, "\(second.stderrText)")
    }

    /// Starts `lowband proxy` with a proxy and the control API, sends the signal once both are
    /// listening, and reports its exit status, its stderr and whether the two ports still
    /// accept connections afterwards.
    static let proxyScript = #"""
        import json, signal, socket, subprocess, sys
        lowband, number = sys.argv[1], int(sys.argv[2])
        process = subprocess.Popen([lowband, "proxy", "--listen", "127.0.0.1:0", "--upstream", "127.0.0.1:9",
                                    "--api", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
        lines, listen, api = [], None, None
        while listen is None or api is None:
            line = process.stderr.readline()
            if not line:
                raise SystemExit("lowband exited early: %r" % lines)
            lines.append(line.rstrip("\n"))
            if line.startswith("proxy lowband listening on "):
                listen = line.split()[4]
            if line.startswith("control API listening on "):
                api = line.split()[4]
        process.send_signal(number)
        try:
            status = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            status = "did not stop"
        lines += process.stderr.read().splitlines()
        def accepts(address):
            host, port = address.rsplit(":", 1)
            try:
                socket.create_connection((host, int(port)), timeout=5).close()
                return True
            except OSError:
                return False
        print(json.dumps({"status": status, "lines": lines, "open": [accepts(listen), accepts(api)]}))
        """#

    struct ProxyReport: Decodable {
        var status: Int
        var lines: [String]
        var open: [Bool]
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func theProxyClosesItsListenersAndSaysWhichSignalStoppedIt(_ signal: Int32) async throws {
        let result = try await ExternalProcess.run("python3", ["-c", Self.proxyScript, lowband, String(signal)])
        try #require(result.status == 0, "the driver script failed: \(result.stderrText)")
        let report = try JSONDecoder().decode(ProxyReport.self, from: Data(result.stdoutText.utf8))
        #expect(report.status == 0, "\(report.lines)")
        #expect(report.lines.contains("stopping on signal \(signal)"), "\(report.lines)")
        #expect(report.open == [false, false], "neither the proxy's port nor the API's accepts after the stop")
    }

    @Test func SIGTERMStopsASocketRunAndWritesAPartialRecordAsSIGINTDoes() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-signal")
        let out = directory.file("out")
        let child = try await LowbandBinary.start(["run", "--scenario", "push-to-visible", "--profile", "perfect", "--duration", "10m", "--out", out])
        _ = try await child.lines { $0.hasPrefix("reproduce: ") }
        child.send(SIGTERM)
        #expect(try await child.exitStatus(timeout: .seconds(60)) == 130, "a stopped run exits 130, whatever the signal: \(child.stderrText)")
        #expect(child.stderrText.contains("SIGTERM: stopping, writing what was measured so far"))
        let record = try String(contentsOfFile: "\(out)/record.json", encoding: .utf8)
        #expect(record.contains("\"partial\" : true"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/results.csv"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/report.html"))
    }

    @Test func aSecondSignalEndsAStoppingRunAtOnce() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-signal")
        let out = directory.file("out")
        let child = try await LowbandBinary.start(["run", "--scenario", "push-to-visible", "--profile", "perfect", "--duration", "10m", "--out", out])
        _ = try await child.lines { $0.hasPrefix("reproduce: ") }
        // Both arrive while the first is still stopping the run and writing its report: the
        // first starts the graceful stop, the second ends the process with 128 + its number.
        child.send(SIGTERM)
        child.send(SIGINT)
        let status = try await child.exitStatus(timeout: .seconds(60))
        let stderr = child.stderrText
        let second = stderr.contains("lowband run: second SIGINT: exiting at once") ? SIGINT : SIGTERM
        #expect(stderr.contains("lowband run: second \(Self.name(second)): exiting at once"), "\(stderr)")
        #expect(status == 128 + second, "\(stderr)")
    }
}
