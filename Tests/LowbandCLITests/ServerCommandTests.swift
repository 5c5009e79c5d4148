import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandFixtures
import LowbandProcess
import LowbandServer
import LowbandTestSupport
import LowbandTransport
import LowbandTransportSockets
import LowbandWire
import NIOCore
import NIOPosix
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `lowband server`: parsing, and the built binary as a child process that a client logs in to.
@Suite struct ServerCommandTests {
    private let lowband = LowbandBinary.path

    // MARK: Parsing

    @Test func parsesItsOptions() throws {
        let command = try #require(try Lowband.parseAsRoot(["server", "--listen", "127.0.0.1:0", "--seed", "9", "--users", "5", "--chats-per-user", "3", "--messages-per-chat", "12"]) as? ServerCommand)
        #expect(command.listen == "127.0.0.1:0" && command.seed == 9 && command.users == 5)
        #expect(command.chatsPerUser == 3 && command.messagesPerChat == 12)
        let defaults = try ServerCommand.parse([])
        #expect(defaults.listen == "127.0.0.1:0" && defaults.users == 20)
        #expect(try ServerCommand.parse(["--listen", "[::1]:4000"]).listen == "[::1]:4000")
        #expect(try ServerCommand.parse(["--listen", ":4000"]).listen == ":4000", "one host:port form for every command: a bare :port is 127.0.0.1, as in toxiproxy")
    }

    @Test func parsesItsConnectionLimits() throws {
        let command = try ServerCommand.parse([
            "--max-connections", "50", "--sessions-per-user", "3", "--idle-timeout", "2m", "--outbound-limit", "65536", "--outbound-stall-timeout", "10s",
        ])
        let limits = try command.connectionLimits()
        #expect(limits.maximumConnections == 50 && limits.sessionsPerUser == 3)
        #expect(limits.idleTimeout == .seconds(120) && limits.outboundStallTimeout == .seconds(10))
        #expect(limits.outbound == OutboundLimits(highWaterMark: 65536, lowWaterMark: 32768))
        #expect(try ServerCommand.parse([]).connectionLimits() == ConnectionLimits())
    }

    @Test(arguments: [
        ["--listen", "127.0.0.1"], ["--listen", "127.0.0.1:70000"], ["--listen", "::1:80"], ["--users", "1"],
        ["--chats-per-user", "-1"], ["--users", "100000", "--chats-per-user", "100", "--messages-per-chat", "100"],
        ["--max-connections", "0"], ["--sessions-per-user", "0"], ["--idle-timeout", "0s"], ["--idle-timeout", "soon"],
        ["--outbound-limit", "100"], ["--outbound-stall-timeout", "-1s"],
    ])
    func refusesBadOptions(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try ServerCommand.parse(arguments) }
    }

    // MARK: The binary

    @Test func aClientLogsInWithAPrintedTokenAndSIGINTStopsTheServer() async throws {
        let child = try await LowbandBinary.start(["server", "--listen", "127.0.0.1:0", "--seed", "4", "--users", "6", "--chats-per-user", "3", "--messages-per-chat", "10", "--show-tokens", "2"])
        let (listening, _) = try await child.lines { $0.hasPrefix("listening on ") }
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        #expect(listening == "listening on 127.0.0.1:\(port)")
        let summary = try #require(try await child.nextLine())
        #expect(summary.hasPrefix("seed 4: 6 users, "))
        let userLine = try #require(try await child.nextLine())
        #expect(userLine.hasPrefix("user 1 "))
        let token = try #require(userLine.components(separatedBy: "token ").last?.split(separator: " ").first.map(String.init))
        #expect(try await child.nextLine()?.hasPrefix("user 2 ") == true)

        let reply = try await Self.login(port: port, token: token)
        #expect(reply.userID == 1)
        #expect(reply.settings != nil && !reply.chats.isEmpty)
        #expect(reply.serverTime >= MessengerFixtures.epoch)
        // The same seed gives the same tokens as the library.
        #expect(token == MessengerWorld(seed: 4, shape: .init(users: 6, chatsPerUser: 3, messagesPerChat: 10)).users[0].token)

        child.send(SIGINT)
        let (stopped, _) = try await child.lines { $0 == "stopped" }
        #expect(stopped == "stopped")
        #expect(try await child.exitStatus() == 0)
    }

    @Test func aConnectionOverTheCapIsClosedAndLoggedOnStderr() async throws {
        let child = try await LowbandBinary.start(["server", "--users", "3", "--messages-per-chat", "2", "--max-connections", "1"])
        let (listening, _) = try await child.lines { $0.hasPrefix("listening on ") }
        let port = try #require(Int(listening.split(separator: ":").last ?? ""))
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let first = try await LoopClient.connect(port: port, loop: loop)
        let second = try await LoopClient.connect(port: port, loop: loop)
        _ = try await second.closed()
        _ = try await first.send(Ping(clientTime: 0))
        try await first.close()
        child.send(SIGINT)
        #expect(try await child.exitStatus() == 0)
        #expect(child.stderrText.contains("lowband server: refused a connection: connection-limit: 1 connections are open; the limit is 1\n"), "\(child.stderrText)")
    }

    @Test func SIGTERMStopsItToo() async throws {
        let child = try await LowbandBinary.start(["server", "--users", "3", "--messages-per-chat", "2"])
        _ = try await child.lines { $0.hasPrefix("listening on ") }
        child.send(SIGTERM)
        _ = try await child.lines { $0 == "stopped" }
        #expect(try await child.exitStatus() == 0)
    }

    @Test func aPortInUseIsOneErrorLine() async throws {
        let first = try await LowbandBinary.start(["server", "--users", "2", "--messages-per-chat", "1"])
        let (listening, _) = try await first.lines { $0.hasPrefix("listening on ") }
        let address = String(listening.dropFirst("listening on ".count))
        let second = try await LowbandBinary.run(["server", "--listen", address, "--users", "2"])
        #expect(second.status == 1)
        #expect(second.stderrText.hasPrefix("lowband server: error: "))
        #expect(second.stderrText.split(separator: "\n").count == 1)
        first.send(SIGINT)
        #expect(try await first.exitStatus() == 0)
    }

    /// Connects to 127.0.0.1:`port`, logs in with `token`, closes, and returns the reply.
    private static func login(port: Int, token: String) async throws -> LoginReply {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let connector = SocketFrameConnector(scheduler: EventLoopScheduler(eventLoop: loop), port: port)
        let reply = loop.makePromise(of: Frame.self)
        try await loop.submit {
            connector.connect { result in
                switch result {
                case .success(let link):
                    let delegate = OneReply(promise: reply)
                    link.delegate = delegate
                    OneReply.keep(delegate, until: reply.futureResult)
                    do {
                        link.send(try Frame.request(LoginRequest(token: token, lastSync: 0), sequence: 1))
                    } catch {
                        reply.fail(error)
                    }
                    let bound = NIOLoopBound(link, eventLoop: loop)
                    reply.futureResult.whenComplete { _ in bound.value.close() }
                case .failure(let error):
                    reply.fail(error)
                }
            }
            loop.scheduleTask(in: .seconds(30)) { reply.fail(ChildProcess.Failure(description: "no login reply within 30 s")) }
        }.get()
        let frame = try await reply.futureResult.get()
        if frame.flags.contains(.error) { throw try frame.decode(ErrorReply.self) }
        return try frame.decode(LoginReply.self)
    }
}

/// Completes a promise with the first response frame.
private final class OneReply: FrameLinkDelegate {
    let promise: EventLoopPromise<Frame>

    init(promise: EventLoopPromise<Frame>) {
        self.promise = promise
    }

    /// Keeps `delegate` (links hold theirs weakly) until `future` completes.
    static func keep(_ delegate: OneReply, until future: EventLoopFuture<Frame>) {
        let bound = NIOLoopBound(delegate, eventLoop: future.eventLoop)
        future.whenComplete { _ in _ = bound.value }
    }

    func link(_ link: any FrameLink, didReceive frame: Frame) {
        if frame.flags.contains(.response) { promise.succeed(frame) }
    }

    func linkDidClose(_ link: any FrameLink, error: (any Error)?) {
        promise.fail(error ?? ChildProcess.Failure(description: "the server closed the connection"))
    }
}
