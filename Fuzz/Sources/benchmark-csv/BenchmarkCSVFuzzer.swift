import FuzzSupport
import LowbandReports

/// The benchmark CSV reader on any bytes, as `lowband compare` reads a baseline.
///
/// Bad input must give a `BenchmarkCSVError` (typed throws) naming the file and a line inside
/// it; rows that read are written back and read again unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
    let rows: [BenchmarkRow]
    do throws(BenchmarkCSVError) {
        rows = try BenchmarkCSV.parse(bytes, file: "fuzz.csv")
    } catch {
        require(error.file == "fuzz.csv", "error names another file: \(error)")
        require(error.line.map { (1 ... lines).contains($0) } ?? true, "error on line \(String(describing: error.line)) of \(lines): \(error)")
        return 0
    }
    do {
        let written = try BenchmarkCSV.render(rows: rows)
        let again = try BenchmarkCSV.parse(written, file: "rendered.csv")
        require(again == rows, "rows changed through render and parse:\n\(written)")
    } catch {
        finding("rows that were read do not write and read back: \(error)")
    }
    return 0
}
