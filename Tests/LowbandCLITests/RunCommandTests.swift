import ArgumentParser
import Foundation
@testable import LowbandCLI
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

/// `lowband run`: parsing, and the built binary as a child process (virtual-time runs, bad
/// input, Ctrl-C on a socket run).
@Suite struct RunCommandTests {
    private let lowband = LowbandBinary.path

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    // MARK: Parsing

    @Test func parsesItsOptions() throws {
        let command = try #require(try Lowband.parseAsRoot(["run", "--scenario", "crowd", "--profile", "3g", "--seed", "9", "--clients", "4", "--duration", "5m", "--virtual-time", "--out", "x"]) as? RunCommand)
        #expect(command.scenario == "crowd" && command.profile == "3g" && command.seed == 9 && command.clients == 4)
        #expect(command.duration == "5m" && command.virtualTime && command.out == "x")
        let defaults = try RunCommand.parse([])
        #expect(defaults.scenario == "push-to-visible" && defaults.profileNames == ["edge"] && defaults.seed == 1 && !defaults.virtualTime)
        #expect(try RunCommand.parse(["--profiles", "gprs, edge,3g"]).profileNames == ["gprs", "edge", "3g"])
    }

    // MARK: The binary

    @Test func aVirtualTimeRunWritesItsFolderAndReplaysToTheByte() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-test")
        var traces: [String] = []
        var records: [String] = []
        for attempt in 0 ..< 2 {
            let out = directory.file("run\(attempt)")
            let child = try await LowbandBinary.start(["run", "--scenario", "push-to-visible", "--profile", "edge", "--seed", "3", "--duration", "40s", "--virtual-time", "--out", out])
            let (reproduce, header) = try await child.lines { $0.hasPrefix("reproduce: ") }
            #expect(header.first?.hasPrefix("lowband run: push-to-visible on edge, seed 3, 1 client, 40s, virtual time") == true)
            #expect(reproduce == "reproduce: lowband run --scenario push-to-visible --profile edge --seed 3 --clients 1 --duration 40s --virtual-time")
            let (summaryHeader, _) = try await child.lines { $0.hasPrefix("metric ") }
            #expect(summaryHeader.contains("p50") && summaryHeader.contains("samples"))
            let (pushLine, _) = try await child.lines { $0.hasPrefix("push_to_visible ") }
            #expect(pushLine.contains(" ms "))
            // Cases checked read as cases, and a promise with none says "not checked" and why:
            // the drain after the 40 s of traffic judges the outbox and the chat list too; this
            // scenario kills no app and sends nothing from the clients.
            let (promises, _) = try await child.lines { $0.hasPrefix("invariants: ") }
            #expect(promises.contains(" not checked (no case: cache_lost_after_kill, liveness) — acknowledged_lost held on "), "\(promises)")
            #expect(promises.contains("outbox_not_drained held on 1 case"), "\(promises)")
            #expect(promises.contains("chat_list_mismatch held on "), "\(promises)")
            #expect(promises.contains(" cases"), "\(promises)")
            #expect(try await child.exitStatus(timeout: .seconds(120)) == 0)
            for name in ["results.csv", "trace.jsonl", "record.json", "report.html"] {
                #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)"), "\(name)")
            }
            let csv = try read("\(out)/results.csv")
            #expect(csv.hasPrefix("suite,benchmark,metric,unit,p50,p90,p99,min,max,samples"))
            #expect(csv.contains("\nrun.push-to-visible,edge,push_to_visible,ms,"))
            #expect(csv.contains("\nrun.push-to-visible,edge,floor,ms,"))
            #expect(csv.contains("\nrun.push-to-visible,edge,median,ms,"))
            #expect(csv.contains("\nrun.push-to-visible,edge,p50_vs_median,x,"))
            #expect(csv.contains("\nrun.push-to-visible,edge,below_floor,count,0"))
            #expect(csv.contains("\nrun.push-to-visible,edge,invariant.acknowledged_lost,count,0,"))
            #expect(csv.contains("\nrun.push-to-visible,edge,invariant.acknowledged_lost.cases,cases,"))
            #expect(!csv.contains("\nrun.push-to-visible,edge,invariant.acknowledged_lost.cases,cases,0,"))
            #expect(try read("\(out)/report.html").contains("<svg"))
            traces.append(try read("\(out)/trace.jsonl"))
            records.append(try read("\(out)/record.json"))
        }
        #expect(traces[0] == traces[1])
        #expect(records[0] == records[1])
        #expect(traces[0].split(separator: "\n").allSatisfy { $0.hasPrefix("{\"t_ns\":") })
        #expect(records[0].contains("\"partial\" : false"))
    }

    /// Started from a folder outside any checkout, a run still names the commit of the code that
    /// measured (the checkout holding the binary), in results.csv and in the report.
    @Test func aRunStartedOutsideTheCheckoutNamesItsCommitAndHost() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-test")
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
        let git = try await ChildProcess("/usr/bin/env", ["git", "-C", checkout, "rev-parse", "--short", "HEAD"])
        let commit = try #require(try await git.nextLine())
        #expect(try await git.exitStatus() == 0)
        let child = try await ChildProcess("/usr/bin/env", ["-C", directory.path, lowband, "run", "--scenario", "push-to-visible", "--duration", "5s", "--virtual-time", "--out", "out"])
        #expect(try await child.exitStatus(timeout: .seconds(120)) == 0, "\(child.stderrText)")
        let csv = try read(directory.file("out/results.csv"))
        let firstRow = try #require(csv.split(separator: "\n").dropFirst().first)
        let fields = firstRow.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == 16)
        #expect(fields[14] == "lowband run --scenario push-to-visible --duration 5s --virtual-time --out out", "command column of \(firstRow)")
        #expect(fields[10] == Substring(commit), "commit column of \(firstRow)")
        // Lowband measured itself: its own commit in both columns.
        #expect(fields[15] == Substring(commit), "lowband_commit column of \(firstRow)")
        #expect(fields[12] != "unknown" && !fields[12].isEmpty, "host column of \(firstRow)")
        let report = try read(directory.file("out/report.html"))
        #expect(report.contains("<p class=\"origin\" id=\"origin\">commit <code>\(commit)</code> · host <code>\(fields[12])</code>"))
        #expect(report.contains("<code>lowband run --scenario push-to-visible --profile edge --seed 1 --clients 1 --duration 5s --virtual-time</code>"))
    }

    @Test func severalProfilesGiveOneComparisonTable() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-test")
        let out = directory.path
        let child = try await LowbandBinary.start(["run", "--scenario", "offline-burst", "--profiles", "3g,edge", "--duration", "30s", "--virtual-time", "--out", out])
        let (comparison, _) = try await child.lines { $0.hasPrefix("comparison") }
        #expect(comparison.hasPrefix("comparison"))
        let (heading, _) = try await child.lines { $0.hasPrefix("metric ") }
        #expect(heading.contains("3g") && heading.contains("edge"))
        #expect(try await child.exitStatus(timeout: .seconds(120)) == 0)
        #expect(FileManager.default.fileExists(atPath: "\(out)/trace-3g.jsonl"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/trace-edge.jsonl"))
        let csv = try read("\(out)/results.csv")
        #expect(csv.contains("\nrun.offline-burst,3g,delivered,count,") && csv.contains("\nrun.offline-burst,edge,delivered,count,"))
    }

    @Test(arguments: [
        (["--scenario", "rush-hour"], "unknown scenario 'rush-hour'; valid scenarios: push-to-visible, launch-by-push, offline-burst, scroll-history, subway, crowd"),
        (["--profile", "moon"], "no profile named 'moon'"),
        (["--clients", "0"], "--clients must be at least 1"),
        (["--scenario", "crowd", "--clients", "1"], "needs at least 2 clients"),
        (["--duration", "0s"], "--duration must be positive"),
        (["--duration", "soon"], "'soon' is not a duration like 400ms, 60s or 5m"),
        (["--duration", "90"], "'90' has no unit; write 90s for seconds"),
    ])
    func badInputIsOneErrorLineBeforeAnythingStarts(_ arguments: [String], _ message: String) async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-bad")
        let out = directory.file("out")
        let child = try await LowbandBinary.start(["run", "--virtual-time", "--out", out] + arguments)
        #expect(try await child.exitStatus() == 1)
        let stderr = child.stderrText
        #expect(stderr.hasPrefix("lowband run: error: "), "\(stderr)")
        #expect(stderr.contains(message), "\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing was written")
    }

    @Test func unknownProfilesListTheKnownOnes() async throws {
        let child = try await LowbandBinary.start(["run", "--profile", "moon", "--virtual-time"])
        #expect(try await child.exitStatus() == 1)
        #expect(child.stderrText.contains("known profiles:") && child.stderrText.contains("edge"))
    }

    @Test func sigintStopsASocketRunAndWritesAPartialRecord() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-test")
        let out = directory.path
        let child = try await LowbandBinary.start(["run", "--scenario", "push-to-visible", "--profile", "perfect", "--duration", "10m", "--out", out])
        _ = try await child.lines { $0.hasPrefix("reproduce: ") }
        child.send(SIGINT)
        #expect(try await child.exitStatus(timeout: .seconds(60)) == 130)
        let record = try read("\(out)/record.json")
        #expect(record.contains("\"partial\" : true"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/results.csv"))
        #expect(FileManager.default.fileExists(atPath: "\(out)/report.html"))
        #expect(child.stderrText.contains("SIGINT: stopping"))
    }
}
