public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where and when a benchmark ran: the environment columns of every ``BenchmarkRow``.
public struct RunEnvironment: Sendable, Hashable {
    /// The short git commit of the working directory's checkout, or `unknown` outside one.
    public var commit: String
    /// The Swift compiler that built this binary, e.g. `6.3` — see ``compilerVersion``.
    public var swiftVersion: String
    /// The host name of the machine.
    public var host: String
    /// When the run started, ISO-8601 in UTC, e.g. `2025-01-31T12:00:00Z`.
    public var timestamp: String

    public init(commit: String = "unknown", swiftVersion: String = RunEnvironment.compilerVersion, host: String = "unknown", timestamp: String) {
        self.commit = commit
        self.swiftVersion = swiftVersion
        self.host = host
        self.timestamp = timestamp
    }

    /// The environment of this process, for a run that starts at `date`.
    ///
    /// Runs `git rev-parse --short HEAD` in the current directory (a few milliseconds; call it
    /// once per run, before measuring). Never fails: what cannot be found is `unknown`.
    public static func current(at date: Date = Date()) -> RunEnvironment {
        RunEnvironment(commit: gitCommit() ?? "unknown", swiftVersion: compilerVersion, host: hostName() ?? "unknown", timestamp: timestamp(of: date))
    }

    /// `date` as ISO-8601 in UTC with whole seconds, e.g. `2025-01-31T12:00:00Z`.
    public static func timestamp(of date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    /// The language version of the compiler that built this binary, `major.minor`.
    ///
    /// Taken at compile time (`#if compiler(>=…)`), because the figures belong to the compiler
    /// that built the code, not to whichever `swift` is on `PATH` when it runs. It is as precise
    /// as the checks below: a newer compiler than the last one listed reports `6.4+`.
    public static let compilerVersion: String = {
        #if compiler(>=6.4)
            "6.4+"
        #elseif compiler(>=6.3)
            "6.3"
        #elseif compiler(>=6.2)
            "6.2"
        #elseif compiler(>=6.1)
            "6.1"
        #else
            "6.0"
        #endif
    }()

    /// `git rev-parse --short HEAD`, nil when git is missing or this is not a checkout.
    static func gitCommit() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "--short", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        let commit = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return commit.isEmpty ? nil : commit
    }

    /// The host name, as `uname -n` prints it.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}
