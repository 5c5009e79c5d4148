import FuzzSupport
import LowbandReports

/// The benchmark CSV reader on any bytes, as `lowband compare` reads a baseline.
///
/// Bad input must give a `BenchmarkCSVError` (typed throws) naming the file and a line inside
/// it, and the collecting reader must list every error that way, in line order; rows that read
/// are written back and read again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    // `lowband compare` lists every error of a file: each must name the file and a line inside it,
    // in line order, and the first must be the one the throwing reader reports.
    let reading = BenchmarkCSV.reading(bytes, file: "fuzz.csv")
    for error in reading.errors.listed {
        require(error.file == "fuzz.csv", "error names another file: \(error)")
        require(error.line.map { (1 ... lines).contains($0) } ?? true, "error on line \(String(describing: error.line)) of \(lines): \(error)")
    }
    let errorLines = reading.errors.listed.map { $0.line ?? 0 }
    require(errorLines == errorLines.sorted(), "errors out of line order: \(errorLines)")
    require(reading.errors.listed.count <= BenchmarkCSVErrors.limit, "\(reading.errors.listed.count) errors listed")
    let rows: [BenchmarkRow]
    do throws(BenchmarkCSVError) {
        rows = try BenchmarkCSV.parse(bytes, file: "fuzz.csv")
    } catch {
        require(error.description == reading.errors.listed.first?.description, "parse threw \(error), reading listed \(reading.errors.listed.first.map(String.init(describing:)) ?? "nothing")")
        return 0
    }
    require(reading.errors.isEmpty && reading.rows.map(\.row) == rows, "reading and parse disagree on a valid file")
    do {
        let written = try BenchmarkCSV.render(rows: rows)
        let again = try BenchmarkCSV.parse(written, file: "rendered.csv")
        require(again == rows, "rows changed through render and parse:\n\(written)")
    } catch {
        finding("rows that were read do not write and read back: \(error)")
    }
    return 0
}
