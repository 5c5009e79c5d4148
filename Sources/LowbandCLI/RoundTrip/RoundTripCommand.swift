import ArgumentParser
import Foundation
import LowbandFixtures
import LowbandLZ4
import LowbandMessagePack
import LowbandReports
import LowbandWire
import NIOCore
import NIOPosix

/// `lowband roundtrip`: one realistic login reply through codec, compression, framing and a
/// real loopback socket, with the size of every stage.
struct RoundTripCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roundtrip",
        abstract: "Send a realistic login reply through the whole wire stack over loopback and print its sizes.",
        discussion: """
            Builds a seeded login reply (settings, contacts, chats with last messages), encodes it as \
            MessagePack and as JSON, compresses it with LZ4, frames it, serves it from a SwiftNIO server \
            on 127.0.0.1 to a client that decodes and checks it, and writes the figures as CSV.
            """
    )

    @OptionGroup var seedOption: SeedOption
    /// ``SeedOption``'s `--seed`.
    var seed: UInt64 { seedOption.seed }

    @Option(help: "Chats in the login reply, each with its last message.")
    var chats: Int = 50

    @Option(help: "Contacts in the login reply.")
    var contacts: Int = 200

    @Option(help: "Login round trips over the one connection.")
    var repetitions: Int = 20

    @Option(help: "CSV report to write, in the schema of docs/BENCHMARKS.md (compare runs with lowband compare).")
    var out: String = "reports/roundtrip.csv"

    init() {}

    func validate() throws {
        guard (0 ... 10_000).contains(chats) else { throw ValidationError("--chats must be 0...10000, not \(chats)") }
        guard (0 ... 100_000).contains(contacts) else { throw ValidationError("--contacts must be 0...100000, not \(contacts)") }
        guard (1 ... 10_000).contains(repetitions) else { throw ValidationError("--repetitions must be 1...10000, not \(repetitions)") }
    }

    func run() async throws {
        let name = "lowband roundtrip"
        do {
            let environment = RunEnvironment.current()
            let report = try await RoundTrip(seed: seed, chats: chats, contacts: contacts, repetitions: repetitions).run()
            try CommandIO.write(report.table(command: reproduceCommand))
            try BenchmarkCSV.write(rows: report.rows(environment: environment), to: out)
            try CommandIO.write("report: \(out)\n")
            guard report.matches else {
                throw CommandIO.failure("the decoded reply differs from the one sent (seed \(seed))", command: name)
            }
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
        text += String(format: "round trip median %.0f µs, min %.0f µs, max %.0f µs\n", CodecTimings.median(roundTripMicroseconds), roundTripMicroseconds.min() ?? 0, roundTripMicroseconds.max() ?? 0)
        text += "decoded reply equals the original: \(matches ? "yes" : "NO")\n"
        text += "\ncodec (median of \(codec.repetitions), µs)    encode    decode     total  vs JSON\n"
        for (label, samples) in [("JSON (Foundation)", codec.json), ("MessagePack (Codable)", codec.messagePack), ("MessagePack (fast path)", codec.fast)] {
            let (encode, decode, total) = (samples.medianEncode, samples.medianDecode, samples.medianTotal)
            let speedup = total == 0 ? 0 : codec.json.medianTotal / total
            text += label.padding(toLength: 30, withPad: " ", startingAt: 0)
                + String(format: "%8.0f  %8.0f  %8.0f  %6.2fx\n", encode, decode, total, speedup)
        }
        return text
    }

    /// The run as benchmark rows (docs/BENCHMARKS.md): byte counts and size ratios, which are
    /// exact for a seed, and wall-clock samples, which `lowband compare` shows without gating.
    func rows(environment: RunEnvironment) -> [BenchmarkRow] {
        let benchmark = "login-reply-c\(chats)-k\(contacts)-s\(seed)"
        func figure(_ metric: String, _ unit: String, _ value: Double) -> BenchmarkRow {
            BenchmarkRow(suite: "roundtrip", benchmark: benchmark, metric: metric, unit: unit, value: value, environment: environment)
        }
        func timed(_ metric: String, _ samples: [Double]) -> BenchmarkRow {
            BenchmarkRow(suite: "roundtrip", benchmark: benchmark, metric: metric, unit: "us", samples: samples, environment: environment)
        }
        let jsonTotal = codec.json.medianTotal
        return [
            figure("json_bytes", "bytes", Double(jsonBytes)),
            figure("msgpack_bytes", "bytes", Double(messagePackBytes)),
            figure("msgpack_lz4_bytes", "bytes", Double(lz4Bytes)),
            figure("frame_bytes", "bytes", Double(frameBytes)),
            figure("msgpack_size_vs_json", "x", Double(messagePackBytes) / Double(max(jsonBytes, 1))),
            figure("socket_bytes_received", "bytes", Double(socketBytesReceived)),
            figure("socket_bytes_sent", "bytes", Double(socketBytesSent)),
            timed("round_trip", roundTripMicroseconds),
            timed("json_encode", codec.json.encode),
            timed("json_decode", codec.json.decode),
            timed("msgpack_encode", codec.messagePack.encode),
            timed("msgpack_decode", codec.messagePack.decode),
            timed("msgpack_fast_encode", codec.fast.encode),
            timed("msgpack_fast_decode", codec.fast.decode),
            figure("codable_speedup", "x", jsonTotal / max(codec.messagePack.medianTotal, .leastNonzeroMagnitude)),
            figure("fast_path_speedup", "x", jsonTotal / max(codec.fast.medianTotal, .leastNonzeroMagnitude)),
        ]
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
