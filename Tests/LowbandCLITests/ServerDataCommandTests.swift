@testable import LowbandCLI
import LowbandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `lowband server --data DIR` and `lowband server inspect DIR`, parsed and as the built binary.
@Suite struct ServerDataCommandTests {
    private let lowband = LowbandBinary.path
    private let options = ["--seed", "4", "--users", "3", "--chats-per-user", "2", "--messages-per-chat", "2"]

    @Test func parsesDataAndInspect() throws {
        #expect(try ServerCommand.parse(["--data", "/tmp/x"]).data == "/tmp/x")
        #expect(try ServerCommand.parse([]).data == nil)
        let inspect = try #require(try Lowband.parseAsRoot(["server", "inspect", "/tmp/x", "--chat", "3", "--format", "json"]) as? ServerInspectCommand)
        #expect(inspect.data == "/tmp/x" && inspect.chat == 3 && inspect.format == .json)
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["server", "inspect"]) }
    }

    @Test func aRestartOnTheDirectoryContinuesAndInspectListsTheMessages() async throws {
        let directory = try TemporaryDirectory(prefix: "lowband-data")
        // Not made beforehand: the first server makes its data directory.
        let folder = directory.file("data")
        var lastIDs: [Substring] = []
        for expected in ["seeded", "restored"] {
            let child = try await LowbandBinary.start(["server", "--data", folder] + options)
            let (line, _) = try await child.lines { $0.hasPrefix("data ") }
            #expect(line.hasPrefix("data \(folder): \(expected), last message id "))
            lastIDs.append(line.split(separator: " ").last ?? "")
            child.send(SIGTERM)
            #expect(try await child.exitStatus() == 0, "\(child.stderrText)")
        }
        #expect(lastIDs[0] == lastIDs[1] && lastIDs[0] != "0")
        let csv = try await LowbandBinary.run(["server", "inspect", folder])
        let lines = csv.stdoutText.split(separator: "\n")
        #expect(lines.first == "chat_id,message_id,sender_id,client_id,sent_at,text")
        #expect(lines.count > 1)
        let json = try await LowbandBinary.run(["server", "inspect", folder, "--chat", "1", "--format", "json"])
        #expect(json.stdoutText.hasPrefix("[{\"chatID\":1,"))

        let refused = try await LowbandBinary.run(["server", "--data", folder, "--seed", "5", "--users", "3", "--chats-per-user", "2", "--messages-per-chat", "2"])
        #expect(refused.status == 1)
        #expect(refused.stderrText == "lowband server: error: the data directory \(folder) holds the data of --seed 4 --users 3 --chats-per-user 2 --messages-per-chat 2; start with those options, or use an empty --data directory for --seed 5 --users 3 --chats-per-user 2 --messages-per-chat 2\n")
    }
}
