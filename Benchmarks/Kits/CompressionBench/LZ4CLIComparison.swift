import Foundation

/// Our LZ4 wrapper next to the real `lz4 -b` on the same bytes, in the same run.
///
/// The bytes are written to a temporary file and benchmarked by `lz4 -q -b<L> -e<L> -i<S> FILE`;
/// then ``LZ4BenchMethod`` times our wrapper on the same bytes at the same level the way
/// bench.c does. Both sides compress the whole input as one block, both report their fastest
/// loop, both count MB as 1,000,000 bytes. With several rounds the two alternate
/// (lz4, ours, ours, lz4, …) and each keeps its best speeds, so a noisy neighbour on a shared
/// machine hurts neither side more than the other.
///
/// The Debian/Ubuntu `lz4` links liblz4 statically while we call the shared `liblz4.so.1` of
/// the same version, so a gap can come from the wrapper or from how the two copies of liblz4
/// were built; the compressed sizes must be equal either way.
public enum LZ4CLIComparison {
    /// What to run. The defaults are `lz4 -b1 -i1`, once.
    public struct Configuration: Sendable, Hashable {
        /// The `-b#` level: 1 and 2 are LZ4 fast (acceleration 1), 3 ... 12 are HC.
        public var level: Int
        /// The `-i#` time: each direction runs until its timed loops add up to more than this.
        public var seconds: Int
        /// How many times each side runs; each keeps its fastest speeds.
        public var rounds: Int
        /// The `lz4` executable: a name looked up in `PATH` or a path.
        public var executable: String

        public init(level: Int = 1, seconds: Int = 1, rounds: Int = 1, executable: String = "lz4") {
            self.level = level
            self.seconds = seconds
            self.rounds = rounds
            self.executable = executable
        }
    }

    /// Both sides' figures for one input.
    public struct Result: Sendable, Hashable {
        public var inputBytes: Int
        public var level: Int
        /// `lz4 -b`'s figures as it printed them.
        public var cli: LZ4BenchReport
        /// Our wrapper's figures, measured the same way.
        public var ours: LZ4BenchReport

        /// Our compression speed as a fraction of lz4's (1.0 = as fast).
        public var compressSpeedRatio: Double { ours.compressMBps / cli.compressMBps }
        /// Our decompression speed as a fraction of lz4's (1.0 = as fast).
        public var decompressSpeedRatio: Double { ours.decompressMBps / cli.decompressMBps }
    }

    /// Runs `lz4 -b` and our wrapper on `bytes`.
    ///
    /// - Throws: `CompressionBenchError` with code `lz4Missing` when there is no `lz4` (install it
    ///   with scripts/setup.sh), `lz4Failed` or `unparsableOutput` when it misbehaves, and the
    ///   errors of ``LZ4BenchMethod/measure(_:commandLineLevel:seconds:)``.
    public static func run(_ bytes: [UInt8], configuration: Configuration = Configuration()) throws(CompressionBenchError) -> Result {
        guard configuration.rounds >= 1 else {
            throw CompressionBenchError(.invalidArgument, "lz4 comparison needs at least 1 round, not \(configuration.rounds)")
        }
        let executable = try locate(configuration.executable)
        let file = try TemporaryFile(bytes)
        var cli: LZ4BenchReport?
        var ours: LZ4BenchReport?
        for round in 0 ..< configuration.rounds {
            // lz4 first in even rounds, ours first in odd ones: lz4, ours, ours, lz4, …
            for side in round.isMultiple(of: 2) ? [true, false] : [false, true] {
                if side {
                    let report = try runCLI(executable, file: file.path, bytes: bytes.count, configuration: configuration)
                    cli = cli.map { $0.best(report) } ?? report
                } else {
                    let report = try LZ4BenchMethod.measure(bytes, commandLineLevel: configuration.level, seconds: configuration.seconds)
                    ours = ours.map { $0.best(report) } ?? report
                }
            }
        }
        guard let cli, let ours else {
            throw CompressionBenchError(.invalidArgument, "lz4 comparison ran no rounds")
        }
        return Result(inputBytes: bytes.count, level: configuration.level, cli: cli, ours: ours)
    }

    /// Runs `lz4 -q -b<L> -e<L> -i<S> FILE` once and parses its result line.
    static func runCLI(_ executable: String, file: String, bytes: Int, configuration: Configuration) throws(CompressionBenchError) -> LZ4BenchReport {
        let arguments = ["-q", "-b\(configuration.level)", "-e\(configuration.level)", "-i\(configuration.seconds)", file]
        let command = ([executable] + arguments).joined(separator: " ")
        let (status, output) = try execute(executable, arguments)
        guard status == 0 else {
            throw CompressionBenchError(.lz4Failed, "`\(command)` exited with status \(status): \(output.suffix(400))")
        }
        let line: LZ4BenchOutput.Line
        do throws(CompressionBenchError) {
            line = try LZ4BenchOutput.parse(output)
        } catch {
            throw CompressionBenchError(error.code, "`\(command)`: \(error.message)")
        }
        if let level = line.level, level != configuration.level {
            throw CompressionBenchError(.unparsableOutput, "`\(command)` reported level \(level), not \(configuration.level)")
        }
        if let input = line.inputBytes, input != bytes {
            throw CompressionBenchError(.unparsableOutput, "`\(command)` benchmarked \(input) bytes, not the \(bytes) written")
        }
        return line.report
    }

    /// The full path of `executable`, searched in `PATH` unless it contains a `/`.
    static func locate(_ executable: String) throws(CompressionBenchError) -> String {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let candidates = executable.contains("/")
            ? [executable]
            : searchPath.split(separator: ":", omittingEmptySubsequences: true).map { "\($0)/\(executable)" }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw CompressionBenchError(
            .lz4Missing,
            "the lz4 comparison needs the `\(executable)` command (lz4 1.9.x), not found in PATH \(searchPath); "
                + "install it with scripts/setup.sh (Debian/Ubuntu package `lz4`)"
        )
    }

    /// Runs a program to completion; returns its exit status and stdout and stderr together
    /// (`lz4 -b` writes its results to stderr).
    private static func execute(_ path: String, _ arguments: [String]) throws(CompressionBenchError) -> (Int32, String) {
        // Foundation's Process, not LowbandProcess: it runs inside package-benchmark's synchronous
        // measured closure, and swift-subprocess only launches asynchronously.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CompressionBenchError(.lz4Failed, "cannot start \(path): \(error)")
        }
        // Read before waiting, so a full pipe never blocks the child.
        let data = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A file in the temporary directory holding the benchmarked bytes, removed on deinit.
    private final class TemporaryFile {
        let path: String

        init(_ bytes: [UInt8]) throws(CompressionBenchError) {
            let name = "lowband-lz4-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0 ... .max)).bin"
            path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
            guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
                throw CompressionBenchError(.lz4Failed, "cannot write the \(bytes.count)-byte input to \(path)")
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }
}
