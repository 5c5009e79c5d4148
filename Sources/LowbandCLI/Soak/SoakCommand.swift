import ArgumentParser
import Foundation
import LowbandBasics
import LowbandProfiles
import LowbandScenarios
import LowbandShaper
import LowbandSoak

/// `lowband soak`: a chaos soak of real processes — server, proxy, clients — with `kill -9`s,
/// checked at the end from the server's data and every client's cache.
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Chaos soak: a server on --data, a proxy on a hostile profile and many clients, killed -9 and restarted; nothing acknowledged may be lost.",
        discussion: """
            Starts `lowband server --data`, `lowband proxy` on --profile in front of it, and one \
            `lowband client` process per writer (its own SQLite cache), which together store --messages \
            messages in group chats. A seeded chaos driver kills a random client with SIGKILL about \
            every --client-kill-every and restarts it (it resumes its outbox), kills and restarts the \
            server --server-kills times, and restarts the proxy --proxy-restarts times. When every \
            outbox is empty it reads the server's data and every cache and counts what was lost, \
            duplicated, reordered, shown differently or left unsent: all must be 0 (exit 0), else exit 3. \
            Writes results.csv (soak.* rows) and the processes' logs into --out. See docs/SOAK.md.
            """
    )

    @Option(help: "Client processes (one user each).")
    var clients: Int = 20

    @Option(help: "Messages stored by all clients together.")
    var messages: Int = 10_000

    @OptionGroup var seedOption: SeedOption
    /// ``SeedOption``'s `--seed`.
    var seed: UInt64 { seedOption.seed }

    @Option(help: "The proxy's profile: a name from `lowband profiles list` or a YAML file.")
    var profile: String = "flapping"

    @Option(name: .customLong("client-kill-every"), parsing: .unconditional, help: "Mean time between client kills (30s, 2m…).")
    var clientKillEvery: String = "30s"

    @Option(name: .customLong("server-kills"), help: "How many times the server is killed with SIGKILL and restarted.")
    var serverKills: Int = 3

    @Option(name: .customLong("server-kill-every"), parsing: .unconditional, help: "Mean time between server kills.")
    var serverKillEvery: String = "60s"

    @Option(name: .customLong("proxy-restarts"), help: "How many times the proxy is killed and restarted.")
    var proxyRestarts: Int = 1

    @Option(parsing: .unconditional, help: "Give up (exit 1) when the clients have not finished by then.")
    var deadline: String = "30m"

    @Option(help: "The output folder: logs, databases, results.csv (emptied first).")
    var out: String = "reports/soak"

    init() {}

    static let name = "lowband soak"

    func validate() throws {
        guard (1 ... 200).contains(clients) else { throw ValidationError("--clients must be 1...200, not \(clients)") }
        guard (1 ... 1_000_000).contains(messages) else { throw ValidationError("--messages must be 1...1000000, not \(messages)") }
        guard (0 ... 100).contains(serverKills) else { throw ValidationError("--server-kills must be 0...100, not \(serverKills)") }
        guard (0 ... 100).contains(proxyRestarts) else { throw ValidationError("--proxy-restarts must be 0...100, not \(proxyRestarts)") }
        for (flag, text) in [("--client-kill-every", clientKillEvery), ("--server-kill-every", serverKillEvery), ("--deadline", deadline)] {
            do {
                guard try DurationText.parse(text) > .zero else { throw ValidationError("\(flag) must be longer than 0, not \(text)") }
            } catch let error as DecimalText.Failure {
                throw ValidationError("\(flag): \(error)")
            }
        }
    }

    func run() async throws {
        let plan: SoakPlan
        do {
            plan = SoakPlan(
                clients: clients, messages: messages, seed: seed, profile: try Self.profileArgument(profile),
                clientKillEvery: try DurationText.parse(clientKillEvery), serverKills: serverKills,
                serverKillEvery: try DurationText.parse(serverKillEvery), proxyRestarts: proxyRestarts,
                deadline: try DurationText.parse(deadline))
        } catch {
            throw CommandIO.failure(error, command: Self.name)
        }
        let status = SoakStatus()
        let outcome: Soak.Outcome
        do {
            try? FileManager.default.removeItem(atPath: out)
            for folder in ["logs", "clients"] {
                try OutputDirectory.prepare("\(out)/\(folder)", option: "--out")
            }
            try CommandIO.write("lowband soak: \(clients) clients, \(messages) messages, \(profile), seed \(seed); kills: a client every ~\(clientKillEvery), the server \(serverKills)×, the proxy \(proxyRestarts)×\n")
            outcome = try await Soak.run(plan: plan, directory: out, executable: try Self.executable(), progress: status.show)
            status.finish()
        } catch {
            status.finish()
            throw CommandIO.failure(error, command: Self.name)
        }
        let (audit, tally) = (outcome.audit, outcome.tally)
        try CommandIO.write(SoakReport.summary(audit: audit, tally: tally, plan: plan, out: out))
        if !audit.passed { throw ExitCode(3) }
    }

    /// What to pass the proxy for `profile`: the absolute path of its file, so the proxy finds
    /// the same profile whatever its directory; the name itself for a built-in one. Loading it
    /// here first makes a bad profile one error before any process starts.
    static func profileArgument(_ profile: String) throws -> String {
        _ = try NetworkProfile.load(named: profile)
        if NetworkProfile.isPath(profile) {
            return URL(fileURLWithPath: profile).standardizedFileURL.path
        }
        for directory in ProfileDirectory.searchPath() {
            for suffix in [".yaml", ".yml"] where FileManager.default.fileExists(atPath: "\(directory)/\(profile)\(suffix)") {
                return URL(fileURLWithPath: "\(directory)/\(profile)\(suffix)").standardizedFileURL.path
            }
        }
        return profile
    }

    /// This binary's own path, so the children are the same build.
    static func executable() throws -> String {
        let path = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw CommandIO.IOError(description: "cannot find this program's own executable (\(path))")
        }
        return path
    }
}
