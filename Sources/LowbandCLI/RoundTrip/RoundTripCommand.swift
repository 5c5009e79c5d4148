public import ArgumentParser
import Foundation
import LowbandFixtures
import LowbandLZ4
import LowbandMessagePack
import LowbandWire
import NIOCore
import NIOPosix

/// `lowband roundtrip`: one realistic login reply through codec, compression, framing and a
/// real loopback socket, with the size of every stage.
public struct RoundTripCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "roundtrip",
        abstract: "Send a realistic login reply through the whole wire stack over loopback and print its sizes.",
        discussion: """
            Builds a seeded login reply (settings, contacts, chats with last messages), encodes it as \
            MessagePack and as JSON, compresses it with LZ4, frames it, serves it from a SwiftNIO server \
            on 127.0.0.1 to a client that decodes and checks it, and writes the figures as CSV.
            """
    )

    @Option(help: "Seed of the fixture generator: the same seed gives the same bytes.")
    public var seed: UInt64 = 1

    @Option(help: "Chats in the login reply, each with its last message.")
    public var chats: Int = 50

    @Option(help: "Contacts in the login reply.")
    public var contacts: Int = 200

    @Option(help: "Login round trips over the one connection.")
    public var repetitions: Int = 20

    @Option(help: "CSV report to write.")
    public var out: String = "reports/roundtrip.csv"

    public init() {}

    public func validate() throws {
        guard (0 ... 10_000).contains(chats) else { throw ValidationError("--chats must be 0...10000, not \(chats)") }
        guard (0 ... 100_000).contains(contacts) else { throw ValidationError("--contacts must be 0...100000, not \(contacts)") }
        guard (1 ... 10_000).contains(repetitions) else { throw ValidationError("--repetitions must be 1...10000, not \(repetitions)") }
    }

    public func run() async throws {
        let name = "lowband roundtrip"
        do {
            let report = try await RoundTrip(seed: seed, chats: chats, contacts: contacts, repetitions: repetitions).run()
            try CommandIO.write(report.table(command: reproduceCommand))
            let directory = URL(fileURLWithPath: out).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try report.csv().write(toFile: out, atomically: true, encoding: .utf8)
            try CommandIO.write("report: \(out)\n")
        } catch let error as ExitCode {
            throw error
        } catch {
            throw CommandIO.failure(error, command: name)
        }
    }

    private var reproduceCommand: String {
        "lowband roundtrip --seed \(seed) --chats \(chats) --contacts \(contacts) --repetitions \(repetitions)"
    }
}

/// The measured stages of one round-trip run.
struct RoundTripReport {
    var seed: UInt64
    var chats: Int
    var contacts: Int
    var jsonBytes: Int
    var messagePackBytes: Int
    var lz4Bytes: Int
    var frameBytes: Int
    var socketBytesReceived: Int
    var socketBytesSent: Int
    var repetitions: Int
    var roundTripMicroseconds: [Double]
    var matches: Bool
    var codec: CodecTimings

    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    func table(command: String) -> String {
        func row(_ label: String, _ bytes: Int) -> String {
            let ratio = jsonBytes == 0 ? 0 : Double(bytes) / Double(jsonBytes)
            return label.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(bytes).leftPadded(10) + "  " + String(format: "%.2f", ratio).leftPadded(7) + "\n"
        }
        var text = "lowband roundtrip — login reply with \(chats) chats and \(contacts) contacts (seed \(seed))\n"
        text += "reproduce: \(command)\n\n"
        text += "stage".padding(toLength: 30, withPad: " ", startingAt: 0) + "bytes".leftPadded(10) + "  " + "vs JSON".leftPadded(7) + "\n"
        text += row("JSON (Foundation JSONEncoder)", jsonBytes)
        text += row("MessagePack", messagePackBytes)
        text += row("MessagePack + LZ4 block", lz4Bytes)
        text += row("frame on the wire", frameBytes)
        text += "\nloopback: \(repetitions) login round trips, \(socketBytesSent) bytes sent, \(socketBytesReceived) bytes received by the client\n"
        text += String(format: "round trip median %.0f µs, min %.0f µs, max %.0f µs\n", median(roundTripMicroseconds), roundTripMicroseconds.min() ?? 0, roundTripMicroseconds.max() ?? 0)
        text += "decoded reply equals the original: \(matches ? "yes" : "NO")\n"
        text += "\ncodec (median of \(codec.repetitions), µs)    encode    decode     total  vs JSON\n"
        for (label, encode, decode) in [("JSON (Foundation)", codec.jsonEncode, codec.jsonDecode), ("MessagePack (Codable)", codec.messagePackEncode, codec.messagePackDecode), ("MessagePack (fast path)", codec.fastEncode, codec.fastDecode)] {
            let total = encode + decode
            let speedup = total == 0 ? 0 : (codec.jsonEncode + codec.jsonDecode) / total
            text += label.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(format: "%8.0f  %8.0f  %8.0f  %6.2fx\n", encode, decode, total, speedup)
        }
        return text
    }

    func csv() -> String {
        var lines = ["metric,value,unit"]
        lines.append("seed,\(seed),")
        lines.append("chats,\(chats),")
        lines.append("contacts,\(contacts),")
        lines.append("json_bytes,\(jsonBytes),bytes")
        lines.append("msgpack_bytes,\(messagePackBytes),bytes")
        lines.append("msgpack_lz4_bytes,\(lz4Bytes),bytes")
        lines.append("frame_bytes,\(frameBytes),bytes")
        lines.append("socket_bytes_received,\(socketBytesReceived),bytes")
        lines.append("socket_bytes_sent,\(socketBytesSent),bytes")
        lines.append("round_trips,\(repetitions),")
        lines.append(String(format: "round_trip_median,%.1f,us", median(roundTripMicroseconds)))
        lines.append("reply_matches,\(matches ? 1 : 0),")
        lines.append(String(format: "json_encode_median,%.1f,us", codec.jsonEncode))
        lines.append(String(format: "json_decode_median,%.1f,us", codec.jsonDecode))
        lines.append(String(format: "msgpack_encode_median,%.1f,us", codec.messagePackEncode))
        lines.append(String(format: "msgpack_decode_median,%.1f,us", codec.messagePackDecode))
        lines.append(String(format: "msgpack_fast_encode_median,%.1f,us", codec.fastEncode))
        lines.append(String(format: "msgpack_fast_decode_median,%.1f,us", codec.fastDecode))
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
