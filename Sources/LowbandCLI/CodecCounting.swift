import Foundation
import LowbandCodecs
import LowbandStartup

/// `codecs compare`'s instruction and allocation counts: this program run once more, as the
/// hidden `lowband codecs count`, under valgrind's callgrind, which counts each encode and decode
/// inside ``CodecCountRun``'s region.
enum CodecCounting {
    /// Long enough for thousands of payloads under callgrind on a busy machine.
    static let timeout: Duration = .seconds(3600)

    /// The counts of `comparison`'s files; not measured (with the reason) when valgrind is not
    /// installed or the run under it failed, which is said on stderr.
    /// `descriptorSet` is the `--proto` schema protoc compiled (the count run reads it from a
    /// file: Foundation's `Process` cannot start protoc under valgrind, "Bad file descriptor").
    static func counts(_ comparison: CodecComparison, descriptorSet: [UInt8]?, message: String?) -> CodecCounts {
        guard let tools = InstrumentedLaunch.Tools.locate() else { return CodecCounts(unmeasured: InstrumentedLaunch.Tools.installHint) }
        let schema = FileManager.default.temporaryDirectory.appendingPathComponent("lowband-\(UUID().uuidString).pb")
        defer { try? FileManager.default.removeItem(at: schema) }
        do {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            var arguments = ["codecs", "count"] + comparison.files
            if let descriptorSet, let message {
                try Data(descriptorSet).write(to: schema)
                arguments += ["--descriptor-set", schema.path, "--message", message]
            }
            let result = try CountedRegions(
                tools: tools, function: CodecCountRun.regionSymbol, executable: executable, arguments: arguments,
                environment: environment(), timeout: timeout
            ).run()
            let operations = result.counts.map { CodecCounts.Operation(instructions: $0.instructions, allocations: $0.allocations) }
            return try CodecCounts(comparison, lines: result.lines, operations: operations, elapsed: result.elapsed)
        } catch {
            let reason = "counting under callgrind failed: \(error)"
            CommandIO.warn(reason, command: CodecsCommand.Compare.name)
            return CodecCounts(unmeasured: reason)
        }
    }

    /// A small fixed environment: the hash seed fixed (Swift seeds its hashing per process) and
    /// nothing of the user's shell, whose size would move where the stack starts between runs.
    static func environment() -> [String] {
        ["SWIFT_DETERMINISTIC_HASHING=1", "LC_ALL=C", "PATH=/usr/bin:/bin"]
    }
}
