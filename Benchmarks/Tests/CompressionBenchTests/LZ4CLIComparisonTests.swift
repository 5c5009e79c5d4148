import CompressionBench
import Foundation
import LowbandLZ4
import LowbandProcess
import LowbandTestSupport
import Testing

/// The `lz4 -b` comparison against the real lz4 command (installed by scripts/setup.sh).
@Suite struct LZ4CLIComparisonTests {
    static func lz4() throws -> String {
        try #require(ExternalProcess.which("lz4"), "the lz4 command must be installed (scripts/setup.sh)")
    }

    /// Runs `lz4 arguments FILE` on `bytes` in a temporary file and returns what it printed.
    static func benchOutput(_ arguments: [String], _ bytes: [UInt8]) async throws -> String {
        let directory = try TemporaryDirectory(prefix: "lowband-lz4-test")
        let path = directory.file("input.bin")
        try #require(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let result = try await ExternalProcess.run(lz4(), arguments + [path])
        try #require(result.status == 0, "lz4 \(arguments) failed: \(result.stderrText)")
        return result.stdoutText + result.stderrText
    }

    @Test(arguments: [1, 9])
    func theComparisonRunsLZ4AndOursOnTheSameBytes(level: Int) throws {
        let bytes = Shared.input("history-page-50").concatenated
        let result = try LZ4CLIComparison.run(bytes, configuration: .init(level: level, seconds: 0))
        #expect(result.inputBytes == bytes.count && result.level == level)
        for speed in [result.cli.compressMBps, result.cli.decompressMBps, result.ours.compressMBps, result.ours.decompressMBps] {
            #expect(speed > 0 && speed.isFinite)
        }
        // The fidelity check: lz4 and our wrapper produce blocks of the same size at the same level.
        let ours = try LZ4Block.compress(bytes, level: LZ4Level(commandLineLevel: level))
        #expect(result.cli.compressedBytes == ours.count)
        #expect(result.ours.compressedBytes == ours.count)
    }

    @Test func bothOutputLayoutsOfRealLZ4BenchParse() async throws {
        let bytes = Shared.input("contacts-500").concatenated
        let expected = try LZ4Block.compress(bytes, level: .fast(acceleration: 1)).count
        let quiet = try await LZ4BenchOutput.parse(Self.benchOutput(["-q", "-b1", "-e1", "-i0"], bytes))
        #expect(quiet.level == 1)
        #expect(quiet.inputBytes == bytes.count)
        #expect(quiet.report.compressedBytes == expected)
        #expect(quiet.report.compressMBps > 0 && quiet.report.decompressMBps > 0)

        let progress = try await LZ4BenchOutput.parse(Self.benchOutput(["-b1", "-e1", "-i0"], bytes))
        #expect(progress.inputBytes == bytes.count)
        #expect(progress.report.compressedBytes == expected)
        #expect(progress.report.compressMBps > 0 && progress.report.decompressMBps > 0)
    }

    @Test func parserReadsTheLastLineOfEitherLayout() throws {
        let progress = " |-t.bin              :    100000 ->\r /-t.bin              :    100000 ->     43357 (2.306),1296.1 MB/s\r"
            + " =-t.bin              :    100000 ->     43357 (2.306),1296.1 MB/s ,2552.6 MB/s\r"
            + "\\-t.bin              :    100000 ->     43357 (2.306),1301.0 MB/s ,2905.9 MB/s\r 1#\n"
        let line = try LZ4BenchOutput.parse(progress)
        #expect(line.report == LZ4BenchReport(compressedBytes: 43_357, compressMBps: 1_301.0, decompressMBps: 2_905.9))
        #expect(line.inputBytes == 100_000 && line.level == nil)

        let quiet = "bench 1.9.4 : input 100000 bytes, 1 seconds, 0 KB blocks\n-1      43357 (2.306)  1294.68 MB/s  3593.6 MB/s  t.bin\n"
        let quietLine = try LZ4BenchOutput.parse(quiet)
        #expect(quietLine.report == LZ4BenchReport(compressedBytes: 43_357, compressMBps: 1_294.68, decompressMBps: 3_593.6))
        #expect(quietLine.level == 1 && quietLine.inputBytes == 100_000)
    }

    @Test func unparsableOutputAndAMissingLZ4GiveClearErrors() {
        do {
            _ = try LZ4BenchOutput.parse("Incorrect parameters\nUsage : lz4 [arg] [input] [output]\n")
            Issue.record("garbage parsed")
        } catch {
            #expect(error.code == .unparsableOutput)
            #expect(error.message.contains("Incorrect parameters"))
        }
        do {
            _ = try LZ4CLIComparison.run([1, 2, 3], configuration: .init(seconds: 0, executable: "lz4-not-installed-here"))
            Issue.record("a missing lz4 was not reported")
        } catch {
            #expect(error.code == .lz4Missing)
            #expect(error.message.contains("scripts/setup.sh"))
        }
    }

    @Test func ourMeasurementRejectsWhatBenchCannotTime() {
        #expect(throws: CompressionBenchError.self) { try LZ4BenchMethod.measure([], commandLineLevel: 1, seconds: 0) }
        #expect(throws: CompressionBenchError.self) { try LZ4BenchMethod.measure([1], commandLineLevel: 13, seconds: 0) }
        #expect(throws: CompressionBenchError.self) { try LZ4BenchMethod.measure([1], commandLineLevel: 1, seconds: -1) }
    }
}
