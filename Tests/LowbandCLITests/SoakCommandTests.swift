import Foundation
@testable import LowbandCLI
import LowbandReports
import LowbandTestSupport
import Testing

/// `lowband soak`, short: real server, proxy and client processes killed with SIGKILL, and
/// nothing acknowledged lost, duplicated or reordered. Runs in the serial pass (scripts/test.sh):
/// it starts 22 processes and needs the clients to get CPU time between kills.
/// Wall clock (scripts/test.sh runs it alone): runs 22 processes (server, proxy, 20 clients) and kills them on a schedule.
@Suite(.tags(.wallClock, .sweep)) struct SoakCommandTests {
    private let lowband = LowbandBinary.path

    @Test func aShortSoakLosesNothingThroughEveryKill() async throws {
        let temporary = try TemporaryDirectory(prefix: "lowband-soak")
        // Not made beforehand: the soak makes (and first empties) its --out folder.
        let directory = temporary.file("out")
        let result = try await LowbandBinary.run([
            "soak", "--clients", "20", "--messages", "500", "--profile", "flapping", "--seed", "3",
            "--client-kill-every", "2s", "--server-kills", "2", "--server-kill-every", "6s", "--proxy-restarts", "1",
            "--deadline", "4m", "--out", directory,
        ])
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(output)\n\(String(decoding: result.stderr, as: UTF8.self))")
        #expect(output.contains("PASS: 500 messages stored by 20 clients, 500 acknowledged"))
        let rows = try BenchmarkCSV.read(from: "\(directory)/results.csv")
        func value(_ metric: String) -> Double? { rows.first { $0.metric == metric }?.p50 }
        for name in ["acknowledged_kept", "duplicated", "order", "outbox_not_drained", "cache_diverged"] {
            #expect(value("invariant.\(name)") == 0, "\(name)")
        }
        #expect(value("invariant.acknowledged_kept.cases") == 500, "every acknowledged send was looked up on the server")
        #expect(output.contains("invariants: 5 of 5 held"))
        #expect(value("soak.stored") == 500 && value("soak.acknowledged") == 500)
        #expect(value("soak.server_kills") == 2 && value("soak.proxy_restarts") == 1)
        #expect((value("soak.client_kills") ?? 0) >= 1)
        // The server really was killed and came back on its data, twice.
        let serverLog = try String(contentsOfFile: "\(directory)/logs/server.log", encoding: .utf8)
        #expect(serverLog.components(separatedBy: "--- killed with SIGKILL").count == 3)
        #expect(serverLog.components(separatedBy: ": restored, last message id").count == 3)
    }

    @Test(arguments: [
        ["--clients", "0"], ["--messages", "0"], ["--server-kills", "-1"], ["--client-kill-every", "0s"], ["--deadline", "soon"],
    ])
    func refusesBadOptions(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try SoakCommand.parse(arguments) }
    }
}
