import ArgumentParser
import Foundation
@testable import LowbandCLI
import LowbandTestSupport
import LowbandWire
import NIOCore
import Testing

@Suite struct FramesCommandTests {

    private func capture() throws -> [UInt8] {
        try RecordedStreams.load("session-v2.bin")
    }

    /// Parses each output line with Foundation's JSON parser, an independent peer of ours.
    private func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// Both versions' captures, told apart by each header's version byte.
    @Test(arguments: [1, 2]) func decodesARecordedSessionOneJSONLinePerFrame(version: Int) async throws {
        let capture = try RecordedStreams.load("session-v\(version).bin")
        let result = try await LowbandBinary.run(["frames", "decode"], stdin: capture)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderr.isEmpty)
        let lines = try objects(result.stdoutText)
        #expect(lines.count == 13)
        #expect(lines.map { $0["command"] as? String } == [
            "login", "login", "history", "sendMessage", "pushNewMessage", "history", "sendMessage",
            "markRead", "markRead", "pushReadReceipt", "pushContactChanged", "ping", "ping",
        ])
        #expect(lines[0]["offset"] as? Int == 0)
        #expect(lines.allSatisfy { $0["version"] as? Int == version })
        let offsets = lines.compactMap { $0["offset"] as? Int }
        let sizes = lines.compactMap { $0["wireBytes"] as? Int }
        #expect(zip(offsets, offsets.dropFirst()).enumerated().allSatisfy { $1.0 + sizes[$0] == $1.1 }, "each frame starts where the previous ended")
        #expect(lines[1]["flags"] as? [String] == ["response", "compressed"])
        #expect((lines[1]["payloadBytes"] as? Int ?? 0) > (lines[1]["wireBytes"] as? Int ?? .max))
        if version == 1 {
            let error = try #require(lines[8]["payload"] as? [String: Any])
            #expect(error["text"] as? String == "not a member of chat 9")
            #expect(lines[3]["payload"].flatMap { ($0 as? [String: Any])?["text"] as? String } == "на вокзале 🚌")
        } else {
            // v2 payloads are positional: ErrorReply [code, text], SendMessageRequest [chat, client id, text].
            let error = try #require(lines[8]["payload"] as? [Any])
            #expect(error.first as? Int == 403 && error.last as? String == "not a member of chat 9")
            #expect((lines[3]["payload"] as? [Any])?[2] as? String == "на вокзале 🚌")
        }
    }

    @Test func readsAFileArgumentToo() async throws {
        let path = RecordedStreams.directory.appendingPathComponent("session-v1.bin").path
        let result = try await LowbandBinary.run(["frames", "decode", "--no-payload", path])
        #expect(result.status == 0)
        let lines = try objects(result.stdoutText)
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0["payload"] == nil })
    }

    @Test func brokenStreamPrintsTheFramesBeforeItThenOneErrorLine() async throws {
        let stream = try capture()
        var buffer = ByteBuffer(bytes: stream)
        var decoder = FrameDecoder()
        for _ in 0 ..< 4 { _ = try decoder.nextFrame(from: &buffer) }
        let fifthStart = decoder.streamOffset
        let cut = Array(stream[..<(fifthStart + 20)])
        let result = try await LowbandBinary.run(["frames", "decode"], stdin: cut)
        #expect(result.status == 1)
        #expect(try objects(result.stdoutText).count == 4)
        let errorLines = result.stderrText.split(separator: "\n")
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.hasPrefix("lowband frames decode: error: stream ended inside a pushNewMessage frame") == true, "\(result.stderrText)")
        #expect(result.stderrText.contains("stream byte offset \(fifthStart)"))
    }

    @Test func badHeaderIsOneErrorLineNamingTheOffset() async throws {
        var stream = try capture()
        stream[0] = 9
        let result = try await LowbandBinary.run(["frames", "decode"], stdin: stream)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText == "lowband frames decode: error: wire version 9 is not supported: this build reads only versions 1 to 2 (frame at stream byte offset 0)\n")
    }

    @Test func payloadThatIsNotMessagePackIsReported() async throws {
        let frame = Frame(command: .ping, sequence: 1, payload: [0xc1])
        let bytes = Array(try FrameEncoder().bytes(of: frame).readableBytesView)
        let result = try await LowbandBinary.run(["frames", "decode"], stdin: bytes)
        #expect(result.status == 1)
        #expect(result.stderrText.contains("not valid MessagePack"))
        #expect(result.stderrText.split(separator: "\n").count == 1)
    }

    @Test func missingFileIsOneClearLine() async throws {
        let result = try await LowbandBinary.run(["frames", "decode", "/nonexistent/capture.bin"])
        #expect(result.status == 1)
        #expect(result.stderrText.hasPrefix("lowband frames decode: error: cannot open /nonexistent/capture.bin"))
    }

    @Test func argumentsAreValidated() throws {
        #expect(throws: (any Error).self) { try Lowband.parseAsRoot(["frames", "decode", "--max-payload", "0"]) }
        let command = try #require(try Lowband.parseAsRoot(["frames", "decode", "--max-payload", "100", "x.bin"]) as? FramesCommand.Decode)
        #expect(command.maxPayload == 100)
        #expect(command.file == "x.bin")
    }
}
