import Foundation
import LowbandBasics
import LowbandFixtures

/// Runs a soak's processes: one `lowband server --data`, one `lowband proxy` on a hostile
/// profile, a `lowband client` per writer; kills and restarts them on the plan's seeded schedule
/// until every client has emptied its outbox and every planned fault has happened.
package final class SoakDriver {
    /// What happened, for the summary and the CSV.
    package struct Tally {
        package var clientKills = 0
        package var serverKills = 0
        package var proxyRestarts = 0
        /// Client processes that exited non-zero on their own (not killed), with their last lines.
        package var clientErrors: [String] = []
        package var wall: Duration = .zero
    }

    package struct Files {
        package var directory: String
        package var serverData: String { "\(directory)/server-data" }
        package func log(_ name: String) -> String { "\(directory)/logs/\(name).log" }
        package func database(_ writer: SoakCast.Writer) -> String { "\(directory)/clients/\(writer.label).sqlite" }
    }

    private let plan: SoakPlan
    private let cast: SoakCast
    private let files: Files
    private let executable: String
    private let progress: (String) -> Void

    private var chaos: SoakPlan.Chaos
    private var tally = Tally()
    private var server: SoakChild?
    private var serverAddress = ""
    private var proxy: SoakChild?
    private var proxyAddress = ""
    private var clients: [ClientSlot]

    private struct ClientSlot {
        package var child: SoakChild?
        package var generation = 0
        package var done = false
        package var restartAt: ContinuousClock.Instant?
    }

    package init(plan: SoakPlan, cast: SoakCast, files: Files, executable: String, progress: @escaping (String) -> Void) {
        self.plan = plan
        self.cast = cast
        self.files = files
        self.executable = executable
        self.progress = progress
        chaos = SoakPlan.Chaos(plan: plan)
        clients = Array(repeating: ClientSlot(), count: cast.writers.count)
    }

    /// Runs the soak to its end and stops every process; the data is left for the audit.
    package func run() async throws -> Tally {
        let start = ContinuousClock.now
        do {
            try await loop(start: start)
        } catch {
            await stopAll()
            throw error
        }
        await stopAll()
        tally.wall = ContinuousClock.now - start
        return tally
    }

    private func loop(start: ContinuousClock.Instant) async throws {
        try await startServer(listen: "127.0.0.1:0")
        try await startProxy(listen: "127.0.0.1:0")
        for index in clients.indices { try await startClient(index) }
        var nextClientKill = start + chaos.nextClientKill(every: plan.clientKillEvery)
        var serverKills = chaos.serverKillTimes[...]
        var proxyRestarts = chaos.proxyRestartTimes[...]
        var serverBackAt: ContinuousClock.Instant?
        var proxyBackAt: ContinuousClock.Instant?
        var lastProgress = start
        while true {
            let now = ContinuousClock.now
            try reapClients(now: now)
            if let due = serverBackAt, now >= due {
                serverBackAt = nil
                try await startServer(listen: serverAddress)
            }
            if let due = proxyBackAt, now >= due {
                proxyBackAt = nil
                try await startProxy(listen: proxyAddress)
            }
            for index in clients.indices {
                if let due = clients[index].restartAt, now >= due {
                    clients[index].restartAt = nil
                    try await startClient(index)
                }
            }
            if now >= nextClientKill {
                nextClientKill = now + chaos.nextClientKill(every: plan.clientKillEvery)
                let running = clients.indices.filter { clients[$0].child?.isRunning == true }
                if !running.isEmpty {
                    let index = running[chaos.victim(of: running.count)]
                    await clients[index].child?.kill()
                    clients[index].child = nil
                    clients[index].restartAt = now + chaos.downtime(0.2, 2)
                    tally.clientKills += 1
                }
            }
            if let due = serverKills.first, now >= start + due, serverBackAt == nil {
                serverKills.removeFirst()
                await server?.kill()
                server = nil
                serverBackAt = now + chaos.downtime(0.5, 3)
                tally.serverKills += 1
            }
            if let due = proxyRestarts.first, now >= start + due, proxyBackAt == nil {
                proxyRestarts.removeFirst()
                await proxy?.kill()
                proxy = nil
                proxyBackAt = now + chaos.downtime(0.2, 1)
                tally.proxyRestarts += 1
            }
            let finished = clients.allSatisfy(\.done) && serverKills.isEmpty && proxyRestarts.isEmpty && serverBackAt == nil && proxyBackAt == nil
            if finished { return }
            if now - lastProgress >= .seconds(1) {
                lastProgress = now
                progress(status(elapsed: now - start))
            }
            if now - start > plan.deadline {
                let waiting = clients.indices.filter { !clients[$0].done }.map { cast.writers[$0].label }
                throw SoakError("the soak did not finish within \(plan.deadline): clients still sending: \(waiting.joined(separator: " "))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Notes clients that exited on their own: 0 is done; anything else is an error, recorded,
    /// and the client is started again (its outbox is still there).
    private func reapClients(now: ContinuousClock.Instant) throws {
        for index in clients.indices {
            guard let child = clients[index].child, let status = child.exitStatus else { continue }
            clients[index].child = nil
            if status == 0 {
                clients[index].done = true
            } else {
                tally.clientErrors.append("\(child.name) exited with status \(status): \(child.tail(3))")
                guard tally.clientErrors.count <= 3 * clients.count else {
                    throw SoakError("clients keep failing; the last: \(tally.clientErrors.last ?? "")")
                }
                clients[index].restartAt = now + .seconds(1)
            }
        }
    }

    private func startServer(listen: String) async throws {
        let world = SoakCast.shape(clients: plan.clients)
        let child = try await SoakChild(
            name: "server", executable: executable,
            arguments: [
                "server", "--listen", listen, "--data", files.serverData, "--seed", String(plan.seed),
                "--users", String(world.users), "--chats-per-user", String(world.chatsPerUser),
                "--messages-per-chat", String(world.messagesPerChat), "--show-tokens", "0",
            ],
            log: files.log("server"))
        server = child
        serverAddress = try await child.word(after: "listening on ", within: .seconds(30))
    }

    private func startProxy(listen: String) async throws {
        let child = try await SoakChild(
            name: "proxy", executable: executable,
            arguments: ["proxy", "--listen", listen, "--upstream", serverAddress, "--profile", plan.profile, "--seed", String(plan.seed), "--no-api"],
            log: files.log("proxy"))
        proxy = child
        proxyAddress = try await child.word(after: "listening on ", within: .seconds(30))
    }

    /// Starts client `index`: it stores what it has not stored yet (its cache says how much),
    /// then delivers its whole outbox.
    private func startClient(_ index: Int) async throws {
        let writer = cast.writers[index]
        let database = files.database(writer)
        let remaining = writer.messages - (try SoakClientDatabase.storedCount(database))
        var arguments = [
            "client", "--server", proxyAddress, "--token", writer.token, "--database", database,
            "--seed", String(writer.seed), "--timeout", DurationText.format(plan.deadline + .seconds(1)),
        ]
        if remaining > 0 {
            arguments += ["send", "--chat", String(writer.chatID), "--count", String(remaining), "--prefix", "\(writer.label)g\(clients[index].generation)"]
        } else {
            arguments += ["flush"]
        }
        clients[index].generation += 1
        clients[index].child = try await SoakChild(name: "client \(writer.label)", executable: executable, arguments: arguments, log: files.log(writer.label))
    }

    private func stopAll() async {
        for index in clients.indices { await clients[index].child?.stop() }
        await proxy?.stop()
        await server?.stop()
    }

    private func status(elapsed: Duration) -> String {
        let done = clients.filter(\.done).count
        return "soak \(Int(elapsed / .seconds(1))) s: clients done \(done)/\(clients.count), kills: clients \(tally.clientKills), server \(tally.serverKills), proxy \(tally.proxyRestarts)"
    }
}
