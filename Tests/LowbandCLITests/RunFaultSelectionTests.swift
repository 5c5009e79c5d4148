import Foundation
import LowbandTestSupport
import Testing

/// `lowband run --faults …` numbers its faults in faults.txt, which a verdict's `cause:` and
/// `--without-faults N` name; `lowband explain` prints them; a selection without faults is refused.
@Suite struct RunFaultSelectionTests {
    @Test func aRunListsItsFaultsByNumberAndLeavesOneOutAsAsked() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-run-faults")
        let base = ["run", "--scenario", "crowd", "--profile", "edge", "--seed", "2", "--clients", "3", "--duration", "300s", "--virtual-time", "--faults", "app-kill,reset"]
        let all = try await LowbandBinary.run(base + ["--out", directory.file("all")])
        #expect(all.status == 0, "\(all.stderrText)")
        let faults = try String(contentsOfFile: directory.file("all/faults.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(faults.count >= 2)
        #expect(faults.enumerated().allSatisfy { $1.hasPrefix("fault \($0 + 1): ") }, "\(faults)")
        #expect(faults.contains { $0.contains("reset of every connection, at ") })
        #expect(faults.contains { $0.contains(": app kill of client ") })

        let without = try await LowbandBinary.run(base + ["--without-faults", "1", "--out", directory.file("without")])
        #expect(without.status == 0, "\(without.stderrText)")
        #expect(without.stdoutText.contains("reproduce: lowband run --scenario crowd --profile edge --seed 2 --clients 3 --duration 300s --virtual-time --faults reset,app-kill --without-faults 1\n"), "\(without.stdoutText)")
        let left = try String(contentsOfFile: directory.file("without/faults.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(left.first?.hasPrefix("fault 1: not played (left out by --without-faults 1): ") == true, "\(left)")
        // Every other fault is the same fault at the same time.
        #expect(Array(left.dropFirst()) == Array(faults.dropFirst()))

        let explained = try await LowbandBinary.run(["explain", directory.file("without")])
        #expect(explained.status == 0, "\(explained.stderrText)")
        #expect(explained.stdoutText.contains("faults (faults.txt; `--without-faults N` leaves one out, all else identical):\n  fault 1: not played"), "\(explained.stdoutText)")
    }

    @Test func choosingFaultsOfARunWithoutFaultsIsRefused() async throws {
        let result = try await LowbandBinary.run(["run", "--scenario", "crowd", "--virtual-time", "--duration", "10s", "--without-faults", "1"])
        #expect(result.status == 1)
        #expect(result.stderrText.contains("--without-faults and --only-faults choose among the faults of --faults; this run has none"), "\(result.stderrText)")
        let bad = try await LowbandBinary.run(["run", "--scenario", "crowd", "--virtual-time", "--duration", "10s", "--faults", "reset", "--only-faults", "x"])
        #expect(bad.status == 1)
        #expect(bad.stderrText.contains("--only-faults x: 'x' is not a fault number"), "\(bad.stderrText)")
    }
}
