import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One launch of a program, timed from `posix_spawn` to the first line of its output (stdout or
/// stderr) that matches a marker, then stopped: SIGTERM to its process group, SIGKILL after
/// `stopGrace`.
///
/// The program runs in a process group of its own, so a shell script's children are stopped
/// with it; its stdin is `/dev/null`. Output is read with `poll` on one thread, in 64 KiB
/// reads; a line longer than `maximumLineBytes` is matched on its first part, and the last
/// `tailLines` lines of each stream are kept for the error that explains a failed launch.
package struct ProgramLaunch {
    /// What one launch measured.
    package struct Sample: Sendable, Hashable {
        /// From just before `posix_spawn` to the read that completed the marker line.
        package var timeToMarker: Duration
        /// The program's peak resident size (`VmHWM`) when the marker appeared, in bytes; nil
        /// when /proc does not say (the program exited at once, or no /proc).
        package var peakResidentBytes: Int?
        /// The line that matched.
        package var line: String

        /// A sample of `timeToMarker`, the peak resident size then, and the marker line.
        package init(timeToMarker: Duration, peakResidentBytes: Int?, line: String) {
            self.timeToMarker = timeToMarker
            self.peakResidentBytes = peakResidentBytes
            self.line = line
        }
    }

    /// Why a launch gave no sample.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    static let maximumLineBytes = 64 * 1024
    static let tailLines = 5
    static let stopGrace: Duration = .seconds(5)

    let executable: String
    let arguments: [String]
    let marker: Regex<AnyRegexOutput>
    /// The pattern as the user wrote it, for messages.
    let pattern: String
    let timeout: Duration
    /// `NAME=value` entries replacing this process's environment; nil passes it on.
    let environment: [String]?

    /// A launch of `executable` with `arguments` (in `environment`, `NAME=value` entries, when
    /// given), waiting at most `timeout` for a line that matches `marker` (written as `pattern`).
    package init(executable: String, arguments: [String], environment: [String]? = nil, marker: Regex<AnyRegexOutput>, pattern: String, timeout: Duration) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.marker = marker
        self.pattern = pattern
        self.timeout = timeout
    }

    /// Launches the program, waits for the marker, stops the program.
    package func run() throws(Failure) -> Sample {
        let child = try spawn()
        defer { child.closeOutputs() }
        let clock = ContinuousClock()
        let deadline = child.started.advanced(by: timeout)
        var streams = [OutputLines(name: "stdout"), OutputLines(name: "stderr")]
        var open = [true, true]
        while open.contains(true) {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else {
                child.stop()
                throw Failure(description: "no line matching '\(pattern)' within \(Self.format(timeout)) (--timeout)\(Self.tail(streams))")
            }
            let ready = child.poll(open: open, timeout: remaining)
            for index in ready {
                guard let bytes = child.read(index) else {
                    open[index] = false
                    if let line = streams[index].finish(), line.contains(marker) {
                        return finish(child, line: line, at: clock.now)
                    }
                    continue
                }
                for line in streams[index].append(bytes) where line.contains(marker) {
                    return finish(child, line: line, at: clock.now)
                }
            }
        }
        // Both outputs ended: the program exited (or closed them); give it what is left of the
        // timeout to be reaped, then say how it ended.
        let status = child.waitForExit(until: deadline)
        child.stop()
        let ending = status.map(Self.describe) ?? "closed its output and kept running"
        throw Failure(description: "\(executable) \(ending) before printing a line matching '\(pattern)'\(Self.tail(streams))")
    }

    private func finish(_ child: SpawnedProgram, line: String, at instant: ContinuousClock.Instant) -> Sample {
        let elapsed = child.started.duration(to: instant)
        let peak = child.peakResidentBytes()
        child.stop()
        return Sample(timeToMarker: elapsed, peakResidentBytes: peak, line: line)
    }

    private func spawn() throws(Failure) -> SpawnedProgram {
        do {
            return try SpawnedProgram(executable: executable, arguments: arguments, environment: environment)
        } catch {
            throw Failure(description: "cannot start \(executable): \(error.description)")
        }
    }

    /// `exited with status 3`, `was killed by signal 9`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7f
        return signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)"
    }

    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.3g s", seconds)
    }

    /// `; its last output: stderr: "…" | stdout: "…"`, or nothing when there was none.
    static func tail(_ streams: [OutputLines]) -> String {
        let parts = streams.filter { !$0.tail.isEmpty }.map { stream in
            "\(stream.name): " + stream.tail.map { "\"\($0)\"" }.joined(separator: " ")
        }
        return parts.isEmpty ? "; it printed nothing" : "; its last output: " + parts.joined(separator: " | ")
    }
}

/// The lines of one output stream as they arrive, with a bounded partial line and tail.
struct OutputLines {
    let name: String
    private var partial: [UInt8] = []
    private(set) var tail: [String] = []

    init(name: String) {
        self.name = name
    }

    /// The lines `bytes` completes (a line over the cap is cut there and counts as complete).
    mutating func append(_ bytes: ArraySlice<UInt8>) -> [String] {
        var lines: [String] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") || partial.count == ProgramLaunch.maximumLineBytes {
                lines.append(take())
                if byte == UInt8(ascii: "\n") { continue }
            }
            partial.append(byte)
        }
        return lines
    }

    /// The last line when the stream ends without a newline.
    mutating func finish() -> String? {
        partial.isEmpty ? nil : take()
    }

    private mutating func take() -> String {
        var line = String(decoding: partial, as: UTF8.self)
        partial.removeAll(keepingCapacity: true)
        if line.hasSuffix("\r") { line.removeLast() }
        tail.append(line.count > 200 ? String(line.prefix(200)) + "…" : line)
        if tail.count > ProgramLaunch.tailLines { tail.removeFirst() }
        return line
    }
}
