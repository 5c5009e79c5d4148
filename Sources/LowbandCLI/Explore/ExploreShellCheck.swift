import Foundation
import LowbandProcess

/// What `lowband explore --exec … --shell` checks before any seed runs: which `lowband` runs the
/// seeds' shells (this very one), and that a shell starts here at all.
enum ExploreShellCheck {
    /// This process's executable, which each seed runs as `lowband shell`.
    static func executable() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        if let path = Bundle.main.executablePath, FileManager.default.isExecutableFile(atPath: path) { return path }
        throw CommandIO.IOError(description: "--shell: cannot find this lowband's own executable (/proc/self/exe) to run the seeds' shells")
    }

    /// One shell running `true`: without user namespaces (or libslirp) its one line is the
    /// error, and no seed runs.
    static func check() async throws {
        let child = try await ChildProcess(try executable(), ["shell", "--quiet", "--", "true"])
        let status = try await child.exitStatus(timeout: .seconds(60))
        guard status == 0 else {
            let line = child.stderrText.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            throw CommandIO.IOError(description: "--shell: a shell cannot start here (\(line)); no seed was run")
        }
    }
}
