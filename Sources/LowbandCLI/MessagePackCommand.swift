import ArgumentParser
import LowbandMessagePack


/// `lowband msgpack`: MessagePack to and from its exact JSON form (docs/MSGPACK-JSON.md).
struct MessagePackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "msgpack",
        abstract: "Convert MessagePack to and from a JSON form that converts back to the same bytes.",
        discussion: """
            float32, NaN, bin, ext, timestamps and maps that JSON objects cannot hold are written as \
            tagged objects such as {"$bin": "AQI="}; see docs/MSGPACK-JSON.md.
            """,
        subcommands: [ToJSON.self, FromJSON.self]
    )

    init() {}

    /// `lowband msgpack to-json`: every MessagePack value on stdin → one JSON document per line.
    struct ToJSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "to-json",
            abstract: "Print each MessagePack value on stdin as a JSON document on its own line.",
            discussion: """
                Stdin holds any number of concatenated MessagePack values (a capture). On bad input the \
                values before it are still printed, then one error line goes to stderr and the exit \
                status is 1.
                """
        )

        @Flag(help: "Indent each document over several lines instead of one line per value.")
        var pretty = false

        init() {}

        /// Whether `input` opens with a whole JSON document.
        static func startsWithJSON(_ input: [UInt8]) -> Bool {
            var parser = MessagePackJSONParser(input, maxDepth: 64)
            return ((try? parser.next()) ?? nil) != nil
        }

        func run() throws {
            let name = "lowband msgpack to-json"
            let input = try readInput(command: name)
            // Every ASCII byte is a MessagePack integer, so JSON text "decodes" into a column of
            // numbers: say what it looks like.
            if let first = input.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
               Self.startsWithJSON(input) {
                CommandIO.warn("the input looks like JSON text, not MessagePack (it starts with '\(Character(UnicodeScalar(first)))'); for JSON → MessagePack use `lowband msgpack from-json`", command: name)
            }
            var reader = MessagePackReader(input)
            var output: [UInt8] = []
            var count = 0
            var failure: MessagePackError?
            while !reader.isAtEnd {
                do {
                    let value = try reader.readValue()
                    output += MessagePackJSON.renderUTF8(value, pretty: pretty)
                    output.append(UInt8(ascii: "\n"))
                    count += 1
                } catch {
                    failure = error
                    break
                }
                if output.count >= CommandIO.chunkSize {
                    try writeOutput(output, command: name)
                    output.removeAll(keepingCapacity: true)
                }
            }
            try writeOutput(output, command: name)
            if let failure {
                throw CommandIO.failure("value \(count + 1) is not valid MessagePack (\(failure.code)): \(failure)", command: name)
            }
        }
    }

    /// `lowband msgpack from-json`: JSON documents on stdin → their MessagePack bytes on stdout.
    struct FromJSON: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-json",
            abstract: "Write the MessagePack bytes of each JSON document on stdin, concatenated.",
            discussion: """
                Stdin holds one or more JSON documents separated by whitespace (as to-json prints them). \
                Each value is written in its smallest encoding. On bad input the documents before it \
                are still written, then one error line goes to stderr and the exit status is 1.
                """
        )

        init() {}

        func run() throws {
            let name = "lowband msgpack from-json"
            var parser = MessagePackJSONParser(try readInput(command: name))
            var writer = MessagePackWriter()
            var count = 0
            var failure: String?
            while true {
                let next: MessagePackValue?
                do {
                    next = try parser.next()
                } catch {
                    failure = "document \(count + 1) is not valid JSON for MessagePack (\(error.code)): \(error)"
                    break
                }
                guard let value = next else { break }
                count += 1
                do {
                    try writer.write(value)
                } catch {
                    failure = "document \(count) cannot be written as MessagePack: \(error)"
                    break
                }
                if writer.count >= CommandIO.chunkSize {
                    try writeOutput(writer.bytes, command: name)
                    writer.removeAll()
                }
            }
            try writeOutput(writer.bytes, command: name)
            if let failure {
                throw CommandIO.failure(failure, command: name)
            }
        }
    }
}

/// All of stdin; a read error becomes the command's one error line.
private func readInput(command: String) throws -> [UInt8] {
    do { return try CommandIO.readAll() } catch { throw CommandIO.failure(error, command: command) }
}

/// Writes `bytes` to stdout; a write error becomes the command's one error line.
private func writeOutput(_ bytes: [UInt8], command: String) throws {
    do { try CommandIO.write(bytes) } catch { throw CommandIO.failure(error, command: command) }
}
