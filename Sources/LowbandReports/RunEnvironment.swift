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
    /// The short git commit of the checkout the `lowband` binary was built in (else of the
    /// working directory's checkout), or `unknown` when neither is one — see ``commitNote``.
    public var commit: String
    /// The Swift compiler that built this binary, e.g. `6.3` — see ``compilerVersion``.
    public var swiftVersion: String
    /// The host name of the machine.
    public var host: String
    /// When the run started, ISO-8601 in UTC, e.g. `2025-01-31T12:00:00Z`.
    public var timestamp: String
    /// The command line that measured, as a shell would take it back (`lowband run --seed 3`);
    /// ``current(at:)`` takes this process's own. Empty when not known.
    public var command: String
    /// Lowband's own commit: the same as ``commit`` unless what was measured is another
    /// program (`lowband startup`), whose checkout ``commit`` then names.
    public var lowbandCommit: String
    /// Where ``commit`` came from, or why it is `unknown`, in words for a report: e.g.
    /// `the git checkout at /src/lowband (holds the lowband binary)`. Not a CSV column.
    public var commitNote: String

    /// An environment; everything but the timestamp defaults to unknown, this compiler or empty.
    public init(
        commit: String = "unknown", swiftVersion: String = RunEnvironment.compilerVersion, host: String = "unknown", timestamp: String,
        commitNote: String = "", command: String = "", lowbandCommit: String? = nil
    ) {
        self.command = command
        self.commit = commit
        self.lowbandCommit = lowbandCommit ?? commit
        self.swiftVersion = swiftVersion
        self.host = host
        self.timestamp = timestamp
        self.commitNote = commitNote
    }

    /// The environment of this process, for a run that starts at `date`.
    ///
    /// The commit is asked of git in the directory of the running binary first (so a run started
    /// from anywhere names the code that measured), then in the working directory (a binary
    /// built outside the checkout, e.g. `scripts/bench.sh --build-path`). A few milliseconds:
    /// call it once per run, before measuring. Never fails: what cannot be found is `unknown`,
    /// and ``commitNote`` says why.
    public static func current(at date: Date = Date()) -> RunEnvironment {
        let executable = executableDirectory()
        let (commit, note) = commit(searching: [executable, FileManager.default.currentDirectoryPath].compactMap(\.self))
        return RunEnvironment(
            commit: commit, swiftVersion: compilerVersion, host: hostName() ?? "unknown", timestamp: timestamp(of: date), commitNote: note,
            command: shellCommand(["lowband"] + CommandLine.arguments.dropFirst())
        )
    }

    /// The directory of the running binary, symbolic links resolved. On Linux read from
    /// `/proc/self/exe`: Foundation's `Bundle.main` lists every file of that directory first, about
    /// 10 ms a run for a binary in /tmp beside 15,000 files (48–50 against 36–40 ms for a 1-second
    /// virtual-time crowd; the same with this, 56–59 ms in both places for a debug build).
    static func executableDirectory() -> String? {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
            }
        #endif
        return Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// This environment for rows that measure another program: ``commit`` becomes `commit` when
    /// given, else the commit of the git checkout holding `directory` (the program's working
    /// directory), else `unknown`; ``lowbandCommit`` stays Lowband's.
    public func measuring(programIn directory: String, commit given: String? = nil) -> RunEnvironment {
        var result = self
        if let given {
            result.commit = given
            result.commitNote = "given by --commit"
        } else {
            (result.commit, result.commitNote) = Self.commit(searching: [directory])
        }
        return result
    }

    /// The short commit of the first of `directories` inside a git checkout, with where it came
    /// from; `unknown` and every directory's reason when none is.
    static func commit(searching directories: [String]) -> (commit: String, note: String) {
        var reasons: [String] = []
        for directory in directories {
            switch gitCommit(in: directory) {
            case .success(let commit):
                return (commit, "the git checkout holding \(directory)")
            case .failure(let reason):
                reasons.append("\(directory): \(reason.message)")
            }
        }
        return ("unknown", "no git commit: " + (reasons.isEmpty ? "no directory to look in" : reasons.joined(separator: "; ")))
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

    /// Why git named no commit for a directory: git's own first line of complaint, or that git
    /// could not be started.
    struct GitProblem: Error {
        var message: String
    }

    /// `git -C directory rev-parse --short HEAD`.
    static func gitCommit(in directory: String) -> Result<String, GitProblem> {
        // Foundation's Process, not LowbandProcess: this runs inside synchronous report writing,
        // and swift-subprocess only launches asynchronously (waiting for it here would block a
        // thread of the pool it needs). It also keeps this light product free of it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory, "rev-parse", "--short", "HEAD"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(GitProblem(message: "git could not be started (\(error.localizedDescription))"))
        }
        // git writes a line or two; reading both pipes to the end before waiting cannot block.
        let data = (try? output.fileHandleForReading.readToEnd()) ?? Data()
        let complaint = (try? errors.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        let commit = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationReason == .exit, process.terminationStatus == 0, !commit.isEmpty else {
            let firstLine = String(decoding: complaint, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            return .failure(GitProblem(message: firstLine.isEmpty ? "git exited with status \(process.terminationStatus)" : firstLine))
        }
        return .success(commit)
    }

    /// The host name, as `uname -n` prints it.
    static func hostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}

extension RunEnvironment {
    /// `arguments` as one line a POSIX shell splits back into them: plain words as they are,
    /// anything else in single quotes.
    public static func shellCommand<Arguments: Sequence<String>>(_ arguments: Arguments) -> String {
        arguments.map { argument in
            let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy { scalar in
                CharacterSet.alphanumerics.contains(scalar) || "-_./:=,+@%".unicodeScalars.contains(scalar)
            }
            return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }.joined(separator: " ")
    }
}
