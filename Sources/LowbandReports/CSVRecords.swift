package import LowbandBasics

/// LowbandBasics' `CSVReader` with its problems as ``BenchmarkCSVError``s naming the file.
package enum CSVRecords {
    package typealias Record = CSVReader.Record

    /// The records of `bytes`; a final line ending is optional, a blank line is an error.
    ///
    /// - Throws: the first problem in the file.
    package static func split(_ bytes: [UInt8], file: String) throws(BenchmarkCSVError) -> [Record] {
        var errors = BenchmarkCSVErrors()
        let records = split(bytes, file: file, errors: &errors)
        if let first = errors.listed.first { throw first }
        return records
    }

    /// The records of `bytes` that split cleanly; every problem goes to `errors`. A line over
    /// ``BenchmarkCSV/maximumLineBytes`` ends the split: such a file is no report.
    package static func split(_ bytes: [UInt8], file: String, errors: inout BenchmarkCSVErrors) -> [Record] {
        CSVReader.records(bytes, maximumLineBytes: BenchmarkCSV.maximumLineBytes) { problem in
            errors.append(error(problem, file: file))
        }
    }

    private static func error(_ problem: CSVReader.Problem, file: String) -> BenchmarkCSVError {
        let code: BenchmarkCSVError.Code = switch problem.kind {
        case .lineTooLong: .tooLarge
        case .invalidUTF8: .invalidUTF8
        case .malformed: .malformed
        }
        return BenchmarkCSVError(code: code, file: file, line: problem.line, message: problem.message)
    }
}
