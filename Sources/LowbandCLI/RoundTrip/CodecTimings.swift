import Foundation
import LowbandBasics
import LowbandMessagePack
import LowbandWire

/// Encode and decode times of one value with Foundation's JSON coders, our Codable coders and
/// the generated fast path (``MessagePackFastCodable``), every sample kept for the report.
///
/// Measured on the wall clock at the command's edge: figures to read as ratios within one run.
struct CodecTimings {
    /// Microseconds per run of one codec's encode and decode.
    struct Samples {
        var encode: [Double]
        var decode: [Double]

        var medianEncode: Double { CodecTimings.median(encode) }
        var medianDecode: Double { CodecTimings.median(decode) }
        var medianTotal: Double { medianEncode + medianDecode }
    }

    var repetitions: Int
    var json: Samples
    var messagePack: Samples
    var fast: Samples

    static func measure(_ reply: LoginReply, repetitions: Int) throws -> CodecTimings {
        let jsonEncoder = JSONEncoder()
        let jsonDecoder = JSONDecoder()
        // Codable in the wire's v2 layout: the reference the fast path is checked against.
        let packEncoder = MessagePackEncoder(userInfo: WireFormat.v2.userInfo)
        let packDecoder = MessagePackDecoder(userInfo: WireFormat.v2.userInfo)
        let json = try jsonEncoder.encode(reply)
        let pack = try packEncoder.encode(reply)
        return CodecTimings(
            repetitions: repetitions,
            json: Samples(
                encode: try samples(repetitions) { _ = try jsonEncoder.encode(reply) },
                decode: try samples(repetitions) { _ = try jsonDecoder.decode(LoginReply.self, from: json) }
            ),
            messagePack: Samples(
                encode: try samples(repetitions) { _ = try packEncoder.encode(reply) },
                decode: try samples(repetitions) { _ = try packDecoder.decode(LoginReply.self, from: pack) }
            ),
            fast: Samples(
                encode: try samples(repetitions) { _ = try reply.messagePackBytes(reservingCapacity: pack.count) },
                decode: try samples(repetitions) { _ = try LoginReply(messagePackBytes: pack) }
            )
        )
    }

    /// Microseconds of each of `repetitions` runs of `body`, after one warm-up run.
    private static func samples(_ repetitions: Int, _ body: () throws -> Void) throws -> [Double] {
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
        return samples
    }

    /// The nearest-rank median (LowbandBasics' `Percentile`), 0 without samples.
    static func median(_ values: [Double]) -> Double {
        Percentile.median(values) ?? 0
    }
}
