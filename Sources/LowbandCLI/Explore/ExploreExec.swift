import ArgumentParser
import Foundation
import LowbandAppEvents
import LowbandBasics
import LowbandProcess
import LowbandRunReport
import LowbandScenarios
import LowbandShaper
import NIOCore
import NIOPosix

/// `lowband explore --exec CMD --upstream …`: the sweep over the user's own app, in real time.
struct ExploreExec {
    let command: ExploreSeedsCommand
    let exec: String

    static let name = "lowband explore --exec"

    func run() async throws {
        let options: ExecOptions
        do {
            options = try parse()
            try await Self.checkReachable(options.upstreams)
            if options.shellExecutable != nil { try await ExploreShellCheck.check() }
            try Self.checkCommand(exec)
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        do {
            if let out = command.out {
                try OutputDirectory.refuseEarlier(out, marker: "explore.csv", what: "an earlier sweep's results", option: "--out", force: command.force)
            }
            try OutputDirectory.prepare(options.directory, option: "--out")
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        let total = options.seeds.seeds.count
        try CommandIO.write("""
            lowband explore --exec: \(CommandWords.quoted(exec)) \(options.shellExecutable == nil ? "behind " + options.upstreams.map(\.spelled).joined(separator: ", ") : "in a lowband shell per seed") on \(options.profileName), \
            seeds \(command.seeds)\(command.shard.map { " (shard \($0))" } ?? ""): \(total) runs, faults \(options.faults) in a \(DurationText.format(options.window)) window, \
            timeout \(DurationText.format(options.timeout)), \(options.jobs) at a time\(options.repeats > 0 ? ", failures run \(options.repeats) more times" : "")\(options.proveRuns > 0 ? ", causes proved (\(options.proveRuns) runs each way)" : "")\(options.shrink ? ", failures shrunk" : "")
            bounds: \(options.bounds)

            """)
        try await CommandShutdown.watching(
            command: Self.name, gracePeriod: RunCommand.stopGracePeriod,
            announce: { signal in RunCommand.log("\n\(signal): stopping after the seeds under way, writing what was explored so far") }
        ) { shutdown in
            try await ExploreSweep.run(
                command: Self.name, shutdown: shutdown, directory: options.directory,
                title: "lowband explore --exec on \(options.profileName), seeds \(command.seeds)", suite: "explore.exec", benchmark: options.profileName,
                total: total, allowViolations: command.allowViolations, files: "explore.csv, explore.html, results.csv, sessions/ (failing seeds)",
                jobs: options.jobs,
                found: { outcome in
                    // The moment the seed's own run fails: before its repeats, proof and shrinking.
                    "seed \(outcome.seed): \(outcome.verdict) — \(outcome.firstViolation)\n"
                        + "  session:   \(ExecExplorer.folder(options, seed: outcome.seed))/\n  reproduce: \(outcome.command)\n"
                },
                failure: { outcome in
                    // What the seed's repeats, proof and shrinking added, once they are done.
                    var lines: [String] = []
                    if !outcome.determinism.isEmpty { lines.append("  repeated:  \(outcome.determinism)") }
                    if !outcome.proof.isEmpty { lines.append("  cause:     \(outcome.proof)") }
                    if !outcome.shrunk.isEmpty { lines.append("  shrunk:    \(outcome.shrunk)") }
                    return lines.isEmpty ? "" : "seed \(outcome.seed), once run again:\n" + lines.map { $0 + "\n" }.joined()
                }
            ) { stop, progress, onOutcome, onFound in
                try await ExecExplorer.run(options, progress: progress, onOutcome: onOutcome, onFound: onFound, stop: stop)
            }
        }
    }

    func parse() throws -> ExecOptions {
        if command.virtualTime {
            throw CommandIO.IOError(description: "--exec runs your command in real time; --virtual-time is for the built-in scenarios only")
        }
        if command.shell, !command.upstream.isEmpty {
            throw CommandIO.IOError(description: "--shell carries every destination through the seed's packet link; --upstream puts a proxy in front of one: give one or the other")
        }
        guard command.shell || !command.upstream.isEmpty else {
            throw CommandIO.IOError(description: "--exec needs at least one --upstream [NAME=]HOST:PORT (the servers your app talks to, each of which gets a proxy), or --shell (every destination through one packet link)")
        }
        let upstreams = try command.upstream.enumerated().map { try ExecOptions.upstream($1, index: $0) }
        if Set(upstreams.map(\.name)).count != upstreams.count {
            throw CommandIO.IOError(description: "--upstream: two upstreams share a name; give each its own NAME=")
        }
        let range = try SeedSelection.parse(seeds: command.seeds)
        let shard = try command.shard.map(SeedSelection.parse(shard:)) ?? (1, 1)
        let faults = try ExecFaultPlan(parsing: command.faults)
        if command.shell {
            let kinds = faults.kinds + faults.aimed.map(\.kind)
            if let other = kinds.first(where: { !ExecFaultKind.shellKinds.contains($0) }) {
                throw CommandIO.IOError(description: "--faults \(command.faults): '\(other.rawValue)' acts on a proxy's connections; with --shell the packet link plays outage, handover and reset (aimed: after:EVENT=outage or after:EVENT=reset)")
            }
        }
        let profile = try NetworkProfile.load(named: command.profile)
        func duration(_ text: String, _ option: String) throws -> Duration {
            do {
                let value = try DurationText.parse(text)
                guard value > .zero else { throw CommandIO.IOError(description: "\(option) must be more than zero") }
                return value
            } catch let error as CommandIO.IOError {
                throw error
            } catch {
                throw CommandIO.IOError(description: "\(option): \(error)")
            }
        }
        let window = try duration(command.duration ?? "30s", "--duration")
        let timeout = try duration(command.timeout, "--timeout")
        if let jobs = command.jobs, jobs < 1 { throw CommandIO.IOError(description: "--jobs must be at least 1 (got \(jobs))") }
        guard command.repeats >= 0 else { throw CommandIO.IOError(description: "--repeat must be 0 or more (got \(command.repeats))") }
        if let events = command.events, (command.jobs ?? 1) > 1, !events.contains("{seed}") {
            throw CommandIO.IOError(description: "--events \(events): with --jobs above 1 seeds run side by side, so the path needs {seed} to give each its own file")
        }
        let bounds: EventBounds
        do {
            bounds = try command.boundsOption.bounds(for: profile)
        } catch {
            throw CommandIO.IOError(description: "\(error)")
        }
        let proveRuns = command.proveRuns ?? 3
        guard proveRuns >= 1 else { throw CommandIO.IOError(description: "--prove-runs must be at least 1 (got \(proveRuns))") }
        var options = ExecOptions(
            upstreams: upstreams, command: exec, profile: profile, profileName: command.profile, seeds: SeedSelection(range: range, shard: shard),
            faults: faults, window: window, timeout: timeout, jobs: command.jobs ?? 1, repeats: command.repeats, shrink: command.shrink,
            bounds: bounds, boundOptions: command.bound, directory: command.out ?? OutputDirectory.fresh("reports/explore-exec-\(RunOutputs.fileSafe(command.profile))", marker: "explore.csv"),
            eventsFile: command.events, keepSessions: command.keepSessions)
        options.selection = try FaultSelection(without: command.withoutFaults, only: command.onlyFaults)
        options.proveRuns = command.prove ? proveRuns : 0
        if command.shell { options.shellExecutable = try ExploreShellCheck.executable() }
        return options
    }

    /// One error line before any seed runs when an upstream does not answer.
    static func checkReachable(_ upstreams: [ExecOptions.Upstream]) async throws {
        for upstream in upstreams {
            do {
                let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connectTimeout(.seconds(3))
                    .connect(host: upstream.host, port: upstream.port).get()
                try? await channel.close()
            } catch {
                throw CommandIO.IOError(description: "--upstream \(upstream.spelled) cannot be reached (\(SystemErrorText.describe(error))); start it first, no seed was run")
            }
        }
    }

    /// A command whose program is not there is refused before any seed runs.
    static func checkCommand(_ command: String) throws {
        guard let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) else {
            throw CommandIO.IOError(description: "--exec is empty: give the command that runs your app")
        }
        // Shell words (a builtin, an assignment, a quote or a subshell) are the shell's to judge.
        let shellWords: Set<String> = ["cd", "exec", "exit", "export", "set", ".", ":", "eval", "env", "test", "[", "[[", "echo", "printf", "true", "false", "if", "for", "while", "until", "case", "{", "(", "!", "time", "ulimit", "trap", "umask", "wait", "sleep", "kill", "command", "readonly", "unset", "shift", "read", "pwd", "source"]
        guard !shellWords.contains(first), !first.contains("="), !first.contains("'"), !first.contains("\""), !first.contains("$") else { return }
        if first.contains("/") {
            guard FileManager.default.isExecutableFile(atPath: first) else {
                throw CommandIO.IOError(description: "--exec: '\(first)' is not an executable file; no seed was run")
            }
        } else if ExecutableSearch.which(first) == nil {
            throw CommandIO.IOError(description: "--exec: '\(first)' is not a program on PATH; no seed was run")
        }
    }
}
