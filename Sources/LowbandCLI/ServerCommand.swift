import ArgumentParser
import Foundation
import LowbandBasics
import LowbandFixtures
import LowbandProxy
import LowbandScenarios
import LowbandServer
import LowbandServerStore
import LowbandTransport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `lowband server`: the in-process messenger server on a TCP port, with seeded data, until
/// SIGINT or SIGTERM.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the messenger server with seeded data on a TCP port until Ctrl-C.",
        discussion: """
            Generates users, contacts, direct and group chats with history from the seed (the same \
            seed gives the same data and the same login tokens), listens, prints the bound address \
            and the tokens of the first users, and serves the Lowband wire protocol until SIGINT or \
            SIGTERM. Port 0 picks a free port. With --data DIR the data lives in SQLite in DIR and \
            a restart on it (after a stop or a kill -9) continues: nothing acknowledged is lost. \
            See docs/SERVER.md and docs/PROTOCOL.md.
            """,
        subcommands: [ServerInspectCommand.self]
    )

    @Option(help: ArgumentHelp("Address to listen on, HOST:PORT (IPv6 as [::1]:PORT); port 0 picks one.", valueName: "host:port"))
    var listen: String = "127.0.0.1:0"

    @OptionGroup var seedOption: SeedOption
    /// ``SeedOption``'s `--seed`.
    var seed: UInt64 { seedOption.seed }

    @Option(help: "Users (at least 2).")
    var users: Int = 20

    @Option(help: "Chats each user is in, at least (groups add members beyond this).")
    var chatsPerUser: Int = 8

    @Option(help: "Messages in every chat's history.")
    var messagesPerChat: Int = 40

    @Option(help: "Users whose login tokens are printed.")
    var showTokens: Int = 5

    @Option(help: ArgumentHelp(
        "Keep the data in this directory (created when missing): users, chats, messages and uploads survive a restart or kill -9. A later start must pass the same seed and shape. Without it the data is in memory and uploads go to a temporary folder.",
        valueName: "dir"
    ))
    var data: String?

    @Option(help: "Connections served at once; more are closed when accepted.")
    var maxConnections: Int = ConnectionLimits().maximumConnections

    @Option(help: "Sessions per user; a login over it closes the user's oldest session.")
    var sessionsPerUser: Int = ConnectionLimits().sessionsPerUser

    @Option(parsing: .unconditional, help: ArgumentHelp("Close a connection with no frame either way for this long (e.g. 90s, 5m).", valueName: "duration"))
    var idleTimeout: String = "10m"

    @Option(help: ArgumentHelp("Unsent reply bytes at which a session stops being read (read again under half).", valueName: "bytes"))
    var outboundLimit: Int = ConnectionLimits().outbound.highWaterMark

    @Option(parsing: .unconditional, help: ArgumentHelp("Close a session over the outbound limit whose client takes nothing for this long.", valueName: "duration"))
    var outboundStallTimeout: String = "30s"

    init() {}

    /// The most messages the server generates (memory stays in the hundreds of megabytes).
    static let maximumMessages = 5_000_000
    /// The most chat memberships (users × chats per user) the server generates.
    static let maximumChatMemberships = 1_000_000

    func validate() throws {
        _ = try AddressOption.parse(listen, option: "--listen")
        guard (2 ... 100_000).contains(users) else { throw ValidationError("--users must be 2...100000, not \(users)") }
        guard (0 ... 1_000).contains(chatsPerUser) else { throw ValidationError("--chats-per-user must be 0...1000, not \(chatsPerUser)") }
        guard (0 ... 100_000).contains(messagesPerChat) else { throw ValidationError("--messages-per-chat must be 0...100000, not \(messagesPerChat)") }
        guard (0 ... 1_000).contains(showTokens) else { throw ValidationError("--show-tokens must be 0...1000, not \(showTokens)") }
        _ = try connectionLimits()
        guard users * chatsPerUser <= Self.maximumChatMemberships else {
            throw ValidationError("--users × --chats-per-user must stay under \(Self.maximumChatMemberships)")
        }
        let messages = users.multipliedReportingOverflow(by: chatsPerUser).partialValue.multipliedReportingOverflow(by: messagesPerChat)
        guard !messages.overflow, messages.partialValue <= Self.maximumMessages else {
            throw ValidationError("--users × --chats-per-user × --messages-per-chat must stay under \(Self.maximumMessages) messages")
        }
    }

    func run() async throws {
        let name = "lowband server"
        let endpoint = try AddressOption.parse(listen, option: "--listen")
        try await CommandShutdown.watching(command: name, announce: { signal in try? CommandIO.write("\(signal): stopping\n") }) { shutdown in
            try await serve(name: name, host: endpoint.host, port: endpoint.port, shutdown: shutdown)
        }
    }

    /// Starts the server, prints the banner and serves until the shutdown.
    private func serve(name: String, host: String, port: Int, shutdown: CommandShutdown) async throws {
        let world = MessengerWorld(seed: seed, shape: .init(users: users, chatsPerUser: chatsPerUser, messagesPerChat: messagesPerChat))
        let configuration = ServerConfiguration(connections: try connectionLimits())
        let server: MessengerSocketServer
        let storage: ServerStorage
        do {
            storage = try ServerStorage(data: data, world: world, configuration: configuration)
        } catch {
            throw CommandIO.failure(error, command: name)
        }
        do {
            server = try await MessengerSocketServer.start(
                core: storage.core, listener: .init(host: host, port: port), onEvent: Self.log)
        } catch {
            storage.removeTemporaryFiles()
            let reason = (error as? TransportError).map(\.message) ?? "cannot listen on \(listen): \(SystemErrorText.describe(error))"
            throw CommandIO.failure("--listen: \(reason)", command: name)
        }
        defer { storage.removeTemporaryFiles() }
        do {
            try CommandIO.write(banner(server, storage: storage))
            // The server is the group's one service: the signal's graceful shutdown stops it.
            try await shutdown.run([.init(service: server)])
            try CommandIO.write("stopped\n")
        } catch {
            try? await server.stop()
            throw CommandIO.failure(error, command: name)
        }
    }

    private func banner(_ server: MessengerSocketServer, storage: ServerStorage) -> String {
        let world = storage.world
        var text = "listening on \(ProxyEndpoint(host: server.host, port: server.port))\n"
        text += "seed \(seed): \(world.users.count) users, \(world.chats.count) chats, \(storage.messageCount) messages\n"
        var chatCounts = [Int](repeating: 0, count: world.users.count + 1)
        for chat in world.chats {
            for member in chat.memberIDs { chatCounts[Int(member)] += 1 }
        }
        for user in world.users.prefix(showTokens) {
            text += "user \(user.id) \(user.name): token \(user.token) (\(chatCounts[Int(user.id)]) chats)\n"
        }
        text += storage.summary
        text += "stop with Ctrl-C\n"
        return text
    }

    /// The connection limits the options ask for.
    func connectionLimits() throws -> ConnectionLimits {
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1, not \(maxConnections)") }
        guard sessionsPerUser >= 1 else { throw ValidationError("--sessions-per-user must be at least 1, not \(sessionsPerUser)") }
        guard outboundLimit >= 1024 else { throw ValidationError("--outbound-limit must be at least 1024 bytes, not \(outboundLimit)") }
        let idle = try Self.positive(idleTimeout, option: "--idle-timeout")
        let stall = try Self.positive(outboundStallTimeout, option: "--outbound-stall-timeout")
        return ConnectionLimits(
            maximumConnections: maxConnections, sessionsPerUser: sessionsPerUser, idleTimeout: idle,
            outbound: OutboundLimits(highWaterMark: outboundLimit, lowWaterMark: outboundLimit / 2), outboundStallTimeout: stall,
            outboundHardLimit: max(ConnectionLimits().outboundHardLimit, outboundLimit * 8))
    }

    private static func positive(_ text: String, option: String) throws -> Duration {
        guard let duration = try? DurationText.parse(text), duration > .zero else {
            throw ValidationError("\(option) must be a positive duration such as 500ms, 90s or 5m, not '\(text)'")
        }
        return duration
    }

    /// Prints what the server did to a connection on its own, one line on stderr.
    @Sendable private static func log(_ event: ServerEvent) {
        let line = Array("lowband server: \(event)\n".utf8)
        line.withUnsafeBytes { _ = try? CommandIO.write($0, to: STDERR_FILENO) }
    }
}
