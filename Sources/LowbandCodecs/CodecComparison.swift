import Foundation
import LowbandBasics
import LowbandLZ4
package import LowbandReports

/// A user's payloads sized and timed in every ``CodecFormat``: bytes per payload, the ratio to
/// JSON, and the time to encode and decode each (docs/BENCHMARKS.md, "Your own payloads").
///
/// The dictionary format is measured on the payloads it was not built from (every other one),
/// so a dictionary that holds the payloads themselves cannot flatter it. Sizes cover every
/// payload; times at most ``maximumTimed`` of them, spread over the set.
package struct CodecComparison: Sendable {
    /// Payloads timed at most (every k-th).
    package static let maximumTimed = 2_000
    /// How long one payload's encoding (or decoding) is repeated for its time.
    static let timing: Duration = .microseconds(200)

    /// One format's figures.
    package struct Result: Sendable {
        /// The format.
        package var format: CodecFormat
        /// Bytes of each payload measured.
        package var sizes: [Double]
        /// Each payload's bytes over its compact JSON's.
        package var ratios: [Double]
        /// Nanoseconds to encode each timed payload.
        package var encodeNanoseconds: [Double]
        /// Nanoseconds to decode each timed payload.
        package var decodeNanoseconds: [Double]
        /// What was measured, when not every payload (the dictionary's held-out half).
        package var note: String?
    }

    /// A failure: the payload and what was wrong.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// In words.
        package var description: String
    }

    /// Every format's figures, in ``CodecFormat`` order (the dictionary's left out with fewer
    /// than two payloads).
    package let results: [Result]
    /// Payloads measured.
    package let payloads: Int

    /// Measures `set`.
    ///
    /// - Throws: ``Failure`` when a payload cannot be written in a format, or a format does not
    ///   give a payload back.
    package init(_ set: PayloadSet) throws(Failure) {
        var prepared: [(origin: String, payload: PreparedPayload)] = []
        do {
            for payload in set.payloads { prepared.append((payload.origin, try PreparedPayload(payload.value, origin: payload.origin))) }
        } catch {
            throw Failure(description: error.description)
        }
        payloads = prepared.count
        let stride = max(1, (prepared.count + Self.maximumTimed - 1) / Self.maximumTimed)
        var results: [Result] = []
        for format in CodecFormat.allCases {
            var measured = Array(prepared.indices)
            var dictionary: LZ4Dictionary?
            var note: String?
            if format == .msgpackLZ4Dictionary {
                guard prepared.count >= 2 else { continue }
                dictionary = LZ4Dictionary(samples: prepared.indices.filter { $0 % 2 == 0 }.map { prepared[$0].payload.msgpack })
                measured = prepared.indices.filter { $0 % 2 == 1 }
                note = "measured on the \(measured.count) payloads the dictionary (\(dictionary?.bytes.count ?? 0) bytes) was not built from"
            }
            let codec = FormatCodec(format: format, dictionary: dictionary)
            var result = Result(format: format, sizes: [], ratios: [], encodeNanoseconds: [], decodeNanoseconds: [], note: note)
            do {
                for (position, index) in measured.enumerated() {
                    let (origin, payload) = prepared[index]
                    let bytes = try codec.encode(payload)
                    try codec.check(bytes, of: payload, origin: origin)
                    result.sizes.append(Double(bytes.count))
                    result.ratios.append(Double(bytes.count) / Double(max(1, payload.json.count)))
                    guard position % stride == 0 else { continue }
                    result.encodeNanoseconds.append(try Self.nanoseconds { _ = try codec.encode(payload) })
                    result.decodeNanoseconds.append(try Self.nanoseconds { try codec.decode(bytes, of: payload) })
                }
            } catch let failure as FormatCodec.Failure {
                throw Failure(description: failure.description)
            } catch {
                throw Failure(description: "\(format.rawValue): \(error)")
            }
            results.append(result)
        }
        self.results = results
    }

    /// Nanoseconds per call of `body`, repeated for ``timing`` (at most 10,000 times).
    static func nanoseconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        var calls = 0
        var elapsed: Duration = .zero
        repeat {
            try body()
            calls += 1
            elapsed = clock.now - start
        } while elapsed < timing && calls < 10_000
        return Double(elapsed.nanosecondsClamped) / Double(calls)
    }

    /// The figures as benchmark rows: suite `codecs`, benchmark the format; `bytes`,
    /// `ratio_vs_json` (x), `encode_ns` and `decode_ns`, each with every payload's value, so
    /// `lowband compare` gates a format change (times by its statistical test).
    package func rows(environment: RunEnvironment) -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for result in results where !result.sizes.isEmpty {
            let name = result.format.rawValue
            let figures = [
                ("bytes", "bytes", result.sizes), ("ratio_vs_json", "x", result.ratios),
                ("encode_ns", "ns", result.encodeNanoseconds), ("decode_ns", "ns", result.decodeNanoseconds),
            ]
            for (metric, unit, values) in figures where !values.isEmpty {
                var row = BenchmarkRow(suite: "codecs", benchmark: name, metric: metric, unit: unit, samples: values, environment: environment)
                row.sampleValues = values
                rows.append(row)
            }
        }
        return rows
    }

    /// The table the command prints.
    package func report(files: Int) -> String {
        var text = "codecs: \(payloads) payload\(payloads == 1 ? "" : "s") from \(files) file\(files == 1 ? "" : "s")\n"
        let header = ["format", "payloads", "p50 bytes", "total bytes", "× JSON p50", "encode p50", "decode p50"]
        var lines: [[String]] = [header]
        var notes: [String] = []
        for result in results where !result.sizes.isEmpty {
            lines.append([
                result.format.rawValue, String(result.sizes.count), String(Int(Self.median(result.sizes))), String(Int(result.sizes.reduce(0, +))),
                String(format: "%.2f", Self.median(result.ratios)), Self.time(Self.median(result.encodeNanoseconds)), Self.time(Self.median(result.decodeNanoseconds)),
            ])
            if let note = result.note { notes.append("\(result.format.rawValue): \(note)") }
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        for line in lines {
            text += line.enumerated().map { column, cell in
                column == 0 ? cell.padding(toLength: widths[0], withPad: " ", startingAt: 0) : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ") + "\n"
        }
        for note in notes { text += note + "\n" }
        return text
    }

    static func median(_ values: [Double]) -> Double {
        Percentile.median(values) ?? 0
    }

    static func time(_ nanoseconds: Double) -> String {
        nanoseconds >= 1_000_000 ? String(format: "%.2f ms", nanoseconds / 1e6) : nanoseconds >= 1_000 ? String(format: "%.1f µs", nanoseconds / 1e3) : String(format: "%.0f ns", nanoseconds)
    }
}
