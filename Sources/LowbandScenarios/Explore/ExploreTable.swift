import Foundation
import LowbandBasics
import LowbandRunReport

/// `explore.csv`: one row per seed, and `lowband explore merge` reads it back.
///
///     seed,faults,clients,duration_s,verdict,violations,first_violation,wall_ms,trace_hash,determinism,command,shrunk,proof
///
/// `proof` is `--prove`'s verdict (`proved: without fault 4 (reset) … held 3 of 3, …`). A file
/// written before that column existed (without it) reads back with an empty proof.
/// `verdict` is `ok` or the broken invariants with their counts (`liveness×2 order×1`),
/// `violations` their sum. Fields are quoted as RFC 4180 says when they hold a comma or quote.
package enum ExploreTable {
    /// A line of an `explore.csv` that cannot be read back.
    package struct ReadError: Error, CustomStringConvertible {
        /// The file being read.
        package var file: String
        /// The line at fault, counted from 1.
        package var line: Int
        /// What is wrong with it.
        package var message: String
        package var description: String { "\(file):\(line): \(message)" }
    }

    /// The header, in column order.
    package static let columns = ["seed", "faults", "clients", "duration_s", "verdict", "violations", "first_violation", "wall_ms", "trace_hash", "determinism", "command", "shrunk", "proof"]
    /// The header of files written before the `proof` column.
    static let columnsBeforeProof = Array(columns.dropLast())

    /// The most rows a file may hold when read back.
    package static let maximumRows = 10_000_000
    /// The longest line a file may hold when read back (a shrunk command is a few hundred bytes).
    package static let maximumLineBytes = 64 * 1024

    /// The file's text for `outcomes`: the header, then one row per outcome in the given order.
    package static func render(_ outcomes: [SeedOutcome]) -> String {
        var text = CSVWriter.line(columns)
        for outcome in outcomes {
            let fields: [String] = [
                String(outcome.seed), outcome.faults, String(outcome.clients), number(outcome.durationSeconds), outcome.verdict,
                String(outcome.broken.reduce(0) { $0 + $1.count }), outcome.firstViolation, String(format: "%.1f", outcome.wallMilliseconds),
                outcome.traceHash, outcome.determinism, outcome.command, outcome.shrunk, outcome.proof,
            ]
            text += CSVWriter.line(fields)
        }
        return text
    }

    /// - Throws: ``ReadError`` naming the file, the line and what is wrong.
    package static func parse(_ text: String, file: String) throws(ReadError) -> [SeedOutcome] {
        var outcomes: [SeedOutcome] = []
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(Array(text.utf8), maximumLineBytes: maximumLineBytes)
        } catch {
            throw ReadError(file: file, line: error.line, message: error.message)
        }
        var width = columns.count
        for record in records {
            let lineNumber = record.line
            let fields = record.fields
            if lineNumber == 1 {
                guard fields == columns || fields == columnsBeforeProof else {
                    throw ReadError(file: file, line: 1, message: "not an explore.csv header (expected \(columns.prefix(3).joined(separator: ","))…)")
                }
                width = fields.count
                continue
            }
            guard outcomes.count < maximumRows else { throw ReadError(file: file, line: lineNumber, message: "more than \(maximumRows) rows") }
            guard fields.count == width else {
                throw ReadError(file: file, line: lineNumber, message: "\(fields.count) fields, expected \(width)")
            }
            guard let seed = UInt64(fields[0]), let clients = Int(fields[2]), let duration = Double(fields[3]), let wall = Double(fields[7]) else {
                throw ReadError(file: file, line: lineNumber, message: "seed, clients, duration_s or wall_ms is not a number")
            }
            var broken: [(name: String, count: Int)] = []
            if fields[4] != "ok" {
                for part in fields[4].split(separator: " ") where part != "determinism" {
                    let pieces = part.split(separator: "×")
                    guard pieces.count == 2, let count = Int(pieces[1]) else {
                        throw ReadError(file: file, line: lineNumber, message: "verdict part '\(part)' is not name×count")
                    }
                    broken.append((String(pieces[0]), count))
                }
            }
            var outcome = SeedOutcome(
                seed: seed, faults: fields[1], clients: clients, durationSeconds: duration, broken: broken, firstViolation: fields[6],
                wallMilliseconds: wall, traceHash: fields[8], determinism: fields[9], command: fields[10], shrunk: fields[11])
            if width > 12 { outcome.proof = fields[12] }
            outcomes.append(outcome)
        }
        guard !records.isEmpty else { throw ReadError(file: file, line: 1, message: "the file is empty") }
        return outcomes
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int64(value)) : String(format: "%.3f", value)
    }
}
