import LowbandBasics
/// `breakdown.csv` of a run folder: one row per delivered message and receiver, the time of
/// each ``LatencyStage`` in milliseconds. `lowband explain` reads it back.
///
///     message,chat,sender,receiver,start_s,carrier,attempts,total_ms,outbox_wait_ms,…,screen_queue_ms,note
///     2051,67,3,12,2326.104,push,1,812.300,0.000,…,
///
/// `sender` is empty when another user wrote the message through the server; `note` says what the
/// stages cannot (where a push lost with its connection waited), empty otherwise. A file without
/// the `note` column (written before it existed) is read too.
package enum BreakdownTable {
    /// A line of `breakdown.csv` that cannot be read.
    package struct ReadError: Error, CustomStringConvertible {
        /// The line at fault, counted from 1.
        package var line: Int
        /// What is wrong with it.
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }

    /// The header, in column order: the message's columns, then one `<stage>_ms` per ``LatencyStage``.
    package static let columns: [String] = stageColumns + ["note"]

    /// The columns before `note`: what a file written before it had.
    static let stageColumns: [String] = ["message", "chat", "sender", "receiver", "start_s", "carrier", "attempts", "total_ms"]
        + LatencyStage.allCases.map { "\($0.rawValue)_ms" }

    /// The rows most a file may hold when read back (a day of a thousand clients stays under it).
    package static let maximumRows = 20_000_000
    /// The longest line a file may hold when read back (a row is about 120 bytes).
    package static let maximumLineBytes = 4 * 1024

    /// The file's text for `rows`: the header, then one line per row in the given order.
    package static func render(_ rows: [MessageBreakdown]) -> String {
        String(decoding: renderUTF8(rows), as: UTF8.self)
    }

    /// ``render(_:)``'s text as UTF-8, written digit by digit: a 100-client crowd hour has
    /// 52,394 rows of 19 fields, and a `String` per field was 2 % of the run.
    package static func renderUTF8(_ rows: [MessageBreakdown]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rows.count * 120 + 256)
        out.append(contentsOf: columns.joined(separator: ",").utf8)
        out.append(UInt8(ascii: "\n"))
        let comma = UInt8(ascii: ",")
        for row in rows {
            appendDecimal(row.message, to: &out)
            out.append(comma)
            appendDecimal(row.chat, to: &out)
            out.append(comma)
            if let sender = row.sender { appendDecimal(Int64(sender), to: &out) }
            out.append(comma)
            appendDecimal(Int64(row.receiver), to: &out)
            out.append(comma)
            appendFixed(row.startSeconds, 6, to: &out)
            out.append(comma)
            CSVWriter.append(row.carrier, to: &out)
            out.append(comma)
            appendDecimal(Int64(row.attempts), to: &out)
            out.append(comma)
            appendFixed(row.totalMilliseconds, 3, to: &out)
            for stage in row.stages {
                out.append(comma)
                appendFixed(stage, 3, to: &out)
            }
            out.append(comma)
            if let note = row.note { CSVWriter.append(note, to: &out) }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }

    /// The rows of a `breakdown.csv`; `only` keeps those of one message.
    ///
    /// - Throws: ``ReadError`` naming the line and what is wrong with it.
    package static func parse(_ text: String, only message: Int64? = nil) throws(ReadError) -> [MessageBreakdown] {
        var rows: [MessageBreakdown] = []
        var sawHeader = false
        var expected = columns
        do {
            try CSVReader.forEachRecord(in: Array(text.utf8), maximumLineBytes: maximumLineBytes) { record in
                let lineNumber = record.line
                let fields = record.fields
                if !sawHeader {
                    guard fields == columns || fields == stageColumns else {
                        throw ReadError(line: lineNumber, message: "not a breakdown.csv header (expected \(columns.prefix(4).joined(separator: ","))…)")
                    }
                    expected = fields
                    sawHeader = true
                    return
                }
                guard fields.count == expected.count else {
                    throw ReadError(line: lineNumber, message: "\(fields.count) fields, expected \(expected.count)")
                }
                guard let id = Int64(fields[0]) else { throw ReadError(line: lineNumber, message: "message '\(fields[0])' is not an integer") }
                if let message, id != message { return }
                guard rows.count < maximumRows else { throw ReadError(line: lineNumber, message: "more than \(maximumRows) rows") }
                rows.append(try row(fields, id: id, line: lineNumber))
            }
        } catch let error as ReadError {
            throw error
        } catch let problem as CSVReader.Problem {
            throw ReadError(line: problem.line, message: problem.message)
        } catch {
            throw ReadError(line: 1, message: "\(error)")
        }
        guard sawHeader else { throw ReadError(line: 1, message: "the file is empty") }
        return rows
    }

    /// One row's fields after the message id, checked.
    private static func row(_ fields: [String], id: Int64, line lineNumber: Int) throws(ReadError) -> MessageBreakdown {
        guard let chat = Int64(fields[1]), let receiver = Int(fields[3]), let start = Double(fields[4]), let attempts = Int(fields[6]) else {
            throw ReadError(line: lineNumber, message: "chat, receiver, start_s or attempts is not a number")
        }
        let sender: Int?
        if fields[2].isEmpty {
            sender = nil
        } else if let value = Int(fields[2]) {
            sender = value
        } else {
            throw ReadError(line: lineNumber, message: "sender '\(fields[2])' is not an integer")
        }
        var stages: [Double] = []
        for (offset, field) in fields.dropFirst(8).prefix(LatencyStage.allCases.count).enumerated() {
            guard let value = Double(field), value.isFinite, value >= 0 else {
                throw ReadError(line: lineNumber, message: "\(columns[8 + offset]) '\(field)' is not a non-negative number")
            }
            stages.append(value)
        }
        var row = MessageBreakdown(message: id, chat: chat, sender: sender, receiver: receiver, startSeconds: start, stages: stages, carrier: fields[5], attempts: attempts)
        if fields.count > stageColumns.count, !fields[stageColumns.count].isEmpty { row.note = fields[stageColumns.count] }
        return row
    }

    /// `value` rounded to `digits` decimals, written with exactly that many (`-0.500`, `12.000`).
    private static func appendFixed(_ value: Double, _ digits: Int, to out: inout [UInt8]) {
        var scale = 1.0
        for _ in 0 ..< digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let whole = Int64(rounded.rounded(.towardZero))
        var fraction = Int64(((abs(rounded) - Double(abs(whole))) * scale).rounded())
        var wholePart = whole
        if fraction >= Int64(scale) {
            fraction -= Int64(scale)
            wholePart += rounded < 0 ? -1 : 1
        }
        if rounded < 0 && wholePart == 0 { out.append(UInt8(ascii: "-")) }
        appendDecimal(wholePart, to: &out)
        out.append(UInt8(ascii: "."))
        let start = out.count
        appendDecimal(fraction, to: &out)
        let written = out.count - start
        if written < digits {
            out.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - written), at: start)
        }
    }

    /// `value` in decimal, as `String(value)` writes it.
    private static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }
}
