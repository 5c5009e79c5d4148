import Foundation
import LowbandProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One `lowband` child process of a soak: a ``ChildProcess`` whose stdout and stderr are
/// appended to a log file, killed with SIGKILL when the chaos driver says so, and restarted by
/// starting a new one.
///
/// Output goes to a file rather than a pipe, so a child never blocks on a full pipe and what it
/// printed before a `kill -9` stays readable for the audit.
package final class SoakChild {
    /// What the child is, e.g. `server` or `client 7`, for the summary and errors.
    package let name: String
    package let log: String
    private let process: ChildProcess

    /// Starts `executable` with `arguments`, appending its output to `log` after a header line.
    package init(name: String, executable: String, arguments: [String], log: String) async throws {
        self.name = name
        self.log = log
        try Self.append("--- start: \(([executable] + arguments).joined(separator: " "))\n", to: log)
        do {
            process = try await ChildProcess(executable, arguments, output: .appending(toFile: log))
        } catch {
            throw SoakError("cannot start \(name) (\(executable)): \(error)")
        }
    }

    package var isRunning: Bool { process.status == nil }

    /// The exit status, or nil while it runs; a signal's death reads as 128 + the signal.
    package var exitStatus: Int32? { process.status }

    /// `kill -9`, then waits (up to 10 s) until it has been reaped.
    package func kill() async {
        process.send(SIGKILL)
        _ = await process.waitForExit(within: .seconds(10))
        try? Self.append("--- killed with SIGKILL\n", to: log)
    }

    /// SIGTERM, then SIGKILL if it has not exited within `grace`.
    package func stop(grace: Duration = .seconds(5)) async {
        guard isRunning else { return }
        process.send(SIGTERM)
        if !(await process.waitForExit(within: grace)) { await kill() }
    }

    /// Adds a line of the soak's own to the log, between the child's lines.
    private static func append(_ line: String, to log: String) throws {
        if !FileManager.default.fileExists(atPath: log) {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: log) else {
            throw SoakError("cannot write the log \(log)")
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(line.utf8))
    }

    /// The log's last `count` lines, for an error message.
    package func tail(_ count: Int = 5) -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    /// Waits (up to `limit`) for a line of this start's output containing `marker`, and returns
    /// the word that follows it (e.g. the address after "listening on ").
    package func word(after marker: String, within limit: Duration) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let current = text.components(separatedBy: "--- start: ").last ?? ""
            if let range = current.range(of: marker) {
                let rest = current[range.upperBound...]
                if let word = rest.split(whereSeparator: { $0 == " " || $0 == "\n" }).first {
                    return String(word)
                }
            }
            if let status = exitStatus {
                throw SoakError("\(name) exited with status \(status) before printing '\(marker)': \(tail())")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw SoakError("\(name) printed no '\(marker)' within \(limit): \(tail())")
    }
}
