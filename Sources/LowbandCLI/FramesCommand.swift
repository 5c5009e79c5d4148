import ArgumentParser
import LowbandMessagePack
import LowbandWire
import NIOCore

/// `lowband frames`: look inside captured protocol streams.
struct FramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Inspect captured Lowband protocol byte streams.",
        subcommands: [Decode.self]
    )

    init() {}

    /// `lowband frames decode [FILE]`: one JSON line per frame.
    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Print each frame of a captured stream as one JSON line.",
            discussion: """
                Each line has the frame's stream offset, wire version (1 or 2, read from each header), \
                sequence, command, flags, its size on the wire and uncompressed, and the payload in the JSON form of docs/MSGPACK-JSON.md. A broken \
                stream prints the frames before the break, then one error line naming the byte offset, \
                and exits with status 1.
                """
        )

        @Argument(help: "The capture to read; stdin when absent or '-'.")
        var file: String?

        @Option(help: "Largest payload accepted, in bytes, on the wire and uncompressed.")
        var maxPayload: Int = 1 << 20

        @Flag(help: "Leave the decoded payload out of each line.")
        var noPayload = false

        init() {}

        func validate() throws {
            guard maxPayload > 0, maxPayload <= Int(UInt32.max) else {
                throw ValidationError("--max-payload must be between 1 and 4294967295, not \(maxPayload)")
            }
        }

        func run() throws {
            let name = "lowband frames decode"
            let versions = WireFormat.v1.rawValue ... WireFormat.current.rawValue
            var decoder = FrameDecoder(configuration: FrameConfiguration(maximumPayloadLength: maxPayload, acceptedVersions: versions))
            var buffer = ByteBuffer()
            var output = ""
            do {
                try CommandIO.forEachInputChunk(from: file) { chunk in
                    buffer.writeBytes(chunk)
                    while true {
                        let offset = decoder.streamOffset
                        guard let (header, frame) = try decoder.nextFrame(from: &buffer) else { break }
                        output += try line(header: header, frame: frame, offset: offset)
                        if output.utf8.count >= CommandIO.chunkSize {
                            try CommandIO.write(output)
                            output = ""
                        }
                    }
                    buffer.discardReadBytes()
                }
                if buffer.readableBytes > 0 { throw decoder.truncation(buffer) }
                try CommandIO.write(output)
            } catch {
                try? CommandIO.write(output)
                throw CommandIO.failure(error, command: name)
            }
        }

        private func line(header: FrameHeader, frame: Frame, offset: Int) throws -> String {
            var fields = [
                "\"offset\":\(offset)",
                "\"version\":\(header.version)",
                "\"seq\":\(frame.sequence)",
                "\"command\":\"\(frame.command.name)\"",
                "\"flags\":[\(header.flags.names.map { "\"\($0)\"" }.joined(separator: ","))]",
                "\"wireBytes\":\(FrameHeader.size + Int(header.payloadLength))",
                "\"payloadBytes\":\(frame.payload.count)",
            ]
            if let dictionary = header.dictionary { fields.insert("\"dictionary\":\(dictionary)", at: 5) }
            if !noPayload {
                do {
                    fields.append("\"payload\":" + MessagePackJSON.render(try MessagePackValue(decoding: frame.payload)))
                } catch {
                    throw WireError(.malformedPayload, "payload of the \(frame.command) frame is not valid MessagePack: \(error.message) at payload byte \(error.offset ?? 0)", streamOffset: offset)
                }
            }
            return "{" + fields.joined(separator: ",") + "}\n"
        }
    }
}
