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
    static func counts(_ comparison: CodecComparison, proto: String?, message: String?) -> CodecCounts {
        guard let tools = InstrumentedLaunch.Tools.locate() else { return CodecCounts(unmeasured: InstrumentedLaunch.Tools.installHint) }
        do {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            var arguments = ["codecs", "count"] + comparison.files
            if let proto, let message { arguments += ["--proto", proto, "--message", message] }
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
    /// nothing of the user's shell that would move the stack between runs; PATH for protoc.
    static func environment() -> [String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = ["SWIFT_DETERMINISTIC_HASHING=1", "LC_ALL=C", "PATH=\(inherited["PATH"] ?? "/usr/bin:/bin")"]
        if let temporary = inherited["TMPDIR"] { environment.append("TMPDIR=\(temporary)") }
        return environment
    }
}
