/// Instructions and allocations of every file × format's encode and decode, as callgrind counted
/// them in one run of ``CodecCountRun`` — or why they were not counted.
package struct CodecCounts: Sendable {
    /// What one call executed.
    package struct Operation: Sendable, Hashable {
        /// Instructions (callgrind's `Ir`).
        package var instructions: Int
        /// Calls to the allocator (`malloc`, `calloc`, `realloc`, `posix_memalign`, …).
        package var allocations: Int

        package init(instructions: Int, allocations: Int) {
            self.instructions = instructions
            self.allocations = allocations
        }
    }

    /// One file in one format.
    package struct Cell: Sendable {
        package var file: String
        package var format: CodecFormat
        /// Each counted payload's encode.
        package var encode: [Operation] = []
        /// Each counted payload's decode.
        package var decode: [Operation] = []
        /// The file's payloads over those counted (1 when all were).
        package var scale: Double = 1

        /// The file's encode instructions (estimated when not every payload was counted).
        package var encodeInstructions: Double { Double(encode.reduce(0) { $0 + $1.instructions }) * scale }
        /// The same to decode.
        package var decodeInstructions: Double { Double(decode.reduce(0) { $0 + $1.instructions }) * scale }
        /// The file's encode allocations (estimated when not every payload was counted).
        package var encodeAllocations: Double { Double(encode.reduce(0) { $0 + $1.allocations }) * scale }
        /// The same to decode.
        package var decodeAllocations: Double { Double(decode.reduce(0) { $0 + $1.allocations }) * scale }
    }

    /// A count run's output that does not fit its dumps.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Every file × format counted, file-major; empty when not counted.
    package let cells: [Cell]
    /// Why there are no counts (`valgrind is not installed; …`), or nil when there are.
    package let unmeasured: String?
    /// How long the run under callgrind took, wall clock.
    package let elapsed: Duration?

    /// No counts, for `reason`.
    package init(unmeasured reason: String) {
        cells = []
        unmeasured = reason
        elapsed = nil
    }

    /// The counts of `comparison`'s files: `lines` are the run's announcements
    /// (``CodecCountRun``), `operations` callgrind's dumps in the same order.
    ///
    /// - Throws: ``Failure`` when the two do not pair up, a line names no file or format of the
    ///   comparison, or a cell lacks a count.
    package init(_ comparison: CodecComparison, lines: [String], operations: [Operation], elapsed: Duration? = nil) throws(Failure) {
        guard lines.count == operations.count else {
            throw Failure(description: "the count run announced \(lines.count) operations and callgrind dumped \(operations.count)")
        }
        var cells: [Cell] = []
        var index: [String: Int] = [:]
        for file in comparison.files {
            for format in comparison.formats {
                index["\(file)\t\(format)"] = cells.count
                cells.append(Cell(file: file, format: format))
            }
        }
        for (line, operation) in zip(lines, operations) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let fileIndex = Int(fields[0]), comparison.files.indices.contains(fileIndex),
                  let at = index["\(comparison.files[fileIndex])\t\(fields[1])"] else {
                throw Failure(description: "the count run announced an operation of no file and format compared: '\(line)'")
            }
            switch fields[3] {
            case "encode": cells[at].encode.append(operation)
            case "decode": cells[at].decode.append(operation)
            default: throw Failure(description: "the count run announced neither an encode nor a decode: '\(line)'")
            }
        }
        for at in cells.indices {
            let cell = cells[at]
            guard let payloads = comparison.cell(cell.file, cell.format)?.sizes.count, !cell.encode.isEmpty, cell.encode.count == cell.decode.count else {
                throw Failure(description: "no count of \(cell.format) on \(cell.file)")
            }
            cells[at].scale = Double(payloads) / Double(cell.encode.count)
        }
        self.cells = cells
        unmeasured = nil
        self.elapsed = elapsed
    }

    /// The counts of `file` in `format`.
    package func cell(_ file: String, _ format: CodecFormat) -> Cell? {
        cells.first { $0.file == file && $0.format == format }
    }

    /// Instructions to encode and decode every payload in `format`; nil when not counted.
    package func totalInstructions(_ format: CodecFormat) -> Double? {
        total(format) { $0.encodeInstructions + $0.decodeInstructions }
    }

    /// Allocations to encode and decode every payload in `format`; nil when not counted.
    package func totalAllocations(_ format: CodecFormat) -> Double? {
        total(format) { $0.encodeAllocations + $0.decodeAllocations }
    }

    /// The sum of `value` over `format`'s cells; nil when not counted.
    package func total(_ format: CodecFormat, _ value: (Cell) -> Double) -> Double? {
        let cells = cells.filter { $0.format == format }
        return cells.isEmpty ? nil : cells.reduce(0) { $0 + value($1) }
    }
}
