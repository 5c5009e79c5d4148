import Foundation
import LowbandMessagePack
import LowbandWire

/// Median encode and decode times of one value with Foundation's JSON coders, our Codable
/// coders and the hand-written fast path (``MessagePackFastCodable``).
///
/// A figure for the report, measured on the wall clock at the command's edge; the benchmark
/// targets are where such numbers are gated.
struct CodecTimings {
    var repetitions: Int
    var jsonEncode: Double
    var jsonDecode: Double
    var messagePackEncode: Double
    var messagePackDecode: Double
    var fastEncode: Double
    var fastDecode: Double

    static func measure(_ reply: LoginReply, repetitions: Int) throws -> CodecTimings {
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        let packEncoder = MessagePackEncoder()
        let packDecoder = MessagePackDecoder()
        let json = try jsonEncoder.encode(reply)
        let pack = try packEncoder.encode(reply)
        return CodecTimings(
            repetitions: repetitions,
            jsonEncode: try median(repetitions) { _ = try jsonEncoder.encode(reply) },
            jsonDecode: try median(repetitions) { _ = try jsonDecoder.decode(LoginReply.self, from: json) },
            messagePackEncode: try median(repetitions) { _ = try packEncoder.encode(reply) },
            messagePackDecode: try median(repetitions) { _ = try packDecoder.decode(LoginReply.self, from: pack) },
            fastEncode: try median(repetitions) { _ = try reply.messagePackBytes(reservingCapacity: pack.count) },
            fastDecode: try median(repetitions) { _ = try LoginReply(messagePackBytes: pack) }
        )
    }

    /// Median microseconds of `repetitions` runs of `body`, after one warm-up run.
    private static func median(_ repetitions: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        try body()
        var samples: [Double] = []
        samples.reserveCapacity(repetitions)
        for _ in 0 ..< repetitions {
            let start = clock.now
            try body()
            let elapsed = start.duration(to: clock.now)
            samples.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
        }
        samples.sort()
        return samples[samples.count / 2]
    }
}
