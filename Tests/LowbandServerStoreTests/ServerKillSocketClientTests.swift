import Foundation
import LowbandDeterminism
import LowbandFixtures
import LowbandProcess
import LowbandServerStore
import LowbandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `lowband server --data` killed with SIGKILL while a real `lowband client` sends,
/// then restarted on the same directory: nothing acknowledged is lost, nothing is duplicated.
///
/// Its `.wallClock` tag puts it in scripts/test.sh's serial pass: the kill must land while the
/// client is still sending.
@Suite(.tags(.wallClock)) struct ServerKillSocketClientTests {
    private let lowband = LowbandBinary.path
    private static let shape = MessengerWorld.Shape(users: 4, chatsPerUser: 2, messagesPerChat: 3)
    private static let seed: UInt64 = 8

    private func startServer(data: String, listen: String) async throws -> (ChildProcess, port: Int) {
        let child = try await LowbandBinary.start([
            "server", "--listen", listen, "--data", data, "--seed", "\(Self.seed)", "--users", "\(Self.shape.users)",
            "--chats-per-user", "\(Self.shape.chatsPerUser)", "--messages-per-chat", "\(Self.shape.messagesPerChat)",
        ])
        let (listening, before) = try await child.lines { $0.hasPrefix("listening on ") }
        #expect(before.isEmpty, "\(before)")
        let port = try #require(Int(listening.split(separator: ":").last ?? ""), "\(listening) \(child.stderrText)")
        _ = try await child.lines { $0 == "stop with Ctrl-C" }
        return (child, port)
    }

    @Test func aServerKilledMidStreamLosesNothingAcknowledgedAndDuplicatesNothing() async throws {
        let folder = try TemporaryDirectory(prefix: "lowband-store")
        let data = folder.path + "/server"
        let world = MessengerWorld(seed: Self.seed, shape: Self.shape)
        let chat = try #require(world.chats(of: 1).first).id
        let count = 200
        // The kill lands after a random number of acknowledged sends (seeded: the run repeats).
        var random = SeededGenerator(seed: 0x6B_696C_6C)
        let killAfter = 20 + Int(random.next(upperBound: UInt64(count - 60)))

        var (server, port) = try await startServer(data: data, listen: "127.0.0.1:0")
        let client = try await LowbandBinary.start([
            "client", "--server", "127.0.0.1:\(port)", "--token", world.users[0].token, "--database", folder.path + "/client.sqlite",
            "--seed", "77", "--timeout", "120s", "send", "--chat", "\(chat)", "--count", "\(count)",
        ])
        var acknowledged: [(client: UInt64, message: Int64)] = []
        var acknowledgedBeforeKill = 0
        var done: String?
        while let line = try await client.nextLine(timeout: .seconds(120)) {
            if line.hasPrefix("sent ") {
                let fields = Self.fields(line)
                acknowledged.append((try #require(fields["client"].flatMap { UInt64($0) }), try #require(fields["message"].flatMap { Int64($0) })))
            }
            if acknowledgedBeforeKill == 0, acknowledged.count >= killAfter, line.hasPrefix("sending ") {
                // The next send is on its way: the server dies with a request in flight.
                server.send(SIGKILL)
                #expect(try await server.exitStatus() == 128 + SIGKILL)
                acknowledgedBeforeKill = acknowledged.count
                (server, _) = try await startServer(data: data, listen: "127.0.0.1:\(port)")
            }
            if line.hasPrefix("done ") {
                done = line
                break
            }
        }
        #expect(try await client.exitStatus(timeout: .seconds(30)) == 0, "\(client.stderrText)")
        #expect(done?.hasSuffix("sent=\(count) pending=0 failed=0") == true, "\(done ?? "no done line") \(client.stderrText)")
        #expect(acknowledgedBeforeKill >= killAfter, "the kill landed mid-stream")
        #expect(acknowledged.count == count)

        // Read while the restarted server runs: the reader sees the last commit.
        let stored = try ServerDataExport.messages(in: data, chatID: chat).filter { $0.senderID == 1 && $0.clientID != nil }
        #expect(stored.map(\.text) == (0 ..< count).map { "msg-\($0)" }, "each message once, in the order sent")
        let storedIDs = Dictionary(uniqueKeysWithValues: stored.map { ($0.clientID ?? 0, $0.messageID) })
        for (clientID, messageID) in acknowledged {
            #expect(storedIDs[clientID] == messageID, "client \(clientID) was acknowledged as message \(messageID)")
        }
        let ids = acknowledged.map(\.message)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "ids keep increasing across the restart")
        server.send(SIGTERM)
        #expect(try await server.exitStatus() == 0, "\(server.stderrText)")
    }

    private static func fields(_ line: String) -> [String: String] {
        var result: [String: String] = [:]
        for word in line.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            result[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return result
    }
}
