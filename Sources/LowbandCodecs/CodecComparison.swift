import LowbandBasics

/// A user's payload files sized and timed in every ``CodecFormat``: a cell per file × format
/// (docs/BENCHMARKS.md, "Your own payloads").
///
/// A dictionary compression of a file uses a dictionary built from the *other* files' payloads
/// only (leave-one-out), so a dictionary never holds the payload it compresses; with one file
/// there is none to build it from and those formats are left out. Every encoding is read back
/// and checked. Each payload's encode and decode time is the median of the same ``repeats``
/// calls, after ``warmUp`` calls, for every format; at most ``maximumTimed`` payloads are timed,
/// spread over the set, and a file's time is its timed payloads' mean times its payloads.
package struct CodecComparison: Sendable {
    /// Payloads timed at most (every k-th).
    package static let maximumTimed = 2_000
    /// Calls before timing starts.
    package static let warmUp = 3

    /// One file in one format.
    package struct Cell: Sendable {
        /// The format.
        package var format: CodecFormat
        /// The file, as named.
        package var file: String
        /// Bytes of each payload of the file.
        package var sizes: [Double]
        /// Each timed payload's median nanoseconds to encode.
        package var encodeNanoseconds: [Double]
        /// Each timed payload's median nanoseconds to decode.
        package var decodeNanoseconds: [Double]
        /// The file's time to encode all its payloads, nanoseconds (estimated when not all were timed).
        package var encodeTotal: Double
        /// The same to decode.
        package var decodeTotal: Double

        /// Bytes of all the file's payloads.
        package var bytes: Double { sizes.reduce(0, +) }
    }

    /// A failure: the payload and what was wrong.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// In words.
        package var description: String
    }

    /// The files, in the order given.
    package let files: [String]
    /// The formats measured on every file, in ``CodecFormat/allCases`` order.
    package let formats: [CodecFormat]
    /// Every file × format, file-major.
    package let cells: [Cell]
    /// Payloads measured.
    package let payloads: Int
    /// Timed calls per payload and format.
    package let repeats: Int

    /// Payloads left out, each `FILE#N: what was wrong`; their files are left out whole.
    package let failures: [String]

    /// Measures `set`, timing each payload `repeats` times per format, with the protobuf format
    /// when `proto` is given.
    ///
    /// A payload that a format cannot write (protobuf: the schema cannot encode it) is named in
    /// ``failures`` and its file left out; the other files are still compared.
    ///
    /// - Throws: ``Failure`` when no file is left, or a format does not give a payload back.
    package init(_ set: PayloadSet, repeats: Int = 15, proto: ProtoTarget? = nil) throws(Failure) {
        let plan = try CodecPlan(set, proto: proto)
        failures = plan.failures
        files = plan.files
        formats = plan.formats
        payloads = plan.prepared.count
        self.repeats = max(1, repeats)
        let prepared = plan.prepared
        let stride = plan.stride(measuringAtMost: Self.maximumTimed)
        var cells: [Cell] = []
        for file in files {
            let indices = plan.indices(of: file)
            for format in formats {
                let codec = try plan.codec(file, format)
                var cell = Cell(format: format, file: file, sizes: [], encodeNanoseconds: [], decodeNanoseconds: [], encodeTotal: 0, decodeTotal: 0)
                do {
                    for index in indices {
                        let (payload, ready) = prepared[index]
                        let bytes = try codec.encode(ready)
                        try codec.check(bytes, of: ready, origin: payload.origin)
                        cell.sizes.append(Double(bytes.count))
                        guard index % stride == 0 else { continue }
                        cell.encodeNanoseconds.append(try Self.median(repeats: self.repeats) { _ = try codec.encode(ready) })
                        cell.decodeNanoseconds.append(try Self.median(repeats: self.repeats) { _ = try codec.decode(bytes, of: ready) })
                    }
                } catch let failure as FormatCodec.Failure {
                    throw Failure(description: failure.description)
                } catch {
                    throw Failure(description: "\(file): \(format): \(error)")
                }
                let scale = cell.encodeNanoseconds.isEmpty ? 0 : Double(cell.sizes.count) / Double(cell.encodeNanoseconds.count)
                cell.encodeTotal = cell.encodeNanoseconds.reduce(0, +) * scale
                cell.decodeTotal = cell.decodeNanoseconds.reduce(0, +) * scale
                cells.append(cell)
            }
        }
        self.cells = cells
    }

    /// The cell of `file` in `format`.
    package func cell(_ file: String, _ format: CodecFormat) -> Cell? {
        cells.first { $0.file == file && $0.format == format }
    }

    /// Every payload's bytes in `format`, all files.
    package func sizes(_ format: CodecFormat) -> [Double] {
        cells.filter { $0.format == format }.flatMap(\.sizes)
    }

    /// Bytes of every file in `format`.
    package func totalBytes(_ format: CodecFormat) -> Double {
        cells.filter { $0.format == format }.reduce(0) { $0 + $1.bytes }
    }

    /// Nanoseconds to encode and decode every payload in `format`.
    package func totalNanoseconds(_ format: CodecFormat) -> Double {
        cells.filter { $0.format == format }.reduce(0) { $0 + $1.encodeTotal + $1.decodeTotal }
    }

    /// The median of `repeats` timed calls of `body` (nanoseconds), after ``warmUp`` untimed ones.
    static func median(repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        for _ in 0 ..< warmUp { try body() }
        let clock = ContinuousClock()
        var times: [Double] = []
        times.reserveCapacity(repeats)
        for _ in 0 ..< repeats {
            let start = clock.now
            try body()
            times.append(Double((clock.now - start).nanosecondsClamped))
        }
        return Percentile.median(times) ?? 0
    }
}
