package import Foundation
package import LowbandFindings
package import LowbandReports

/// `record.json` of a session folder: everything its report shows — the verdict, the promises,
/// every leg's parts, the faults played, the network's timeline, the command that gives the
/// same network again, commit and host — so `lowband report DIR` renders report.html again
/// from the file alone.
package struct SessionDocument: Codable, Sendable {
    /// The document's format; a reader refuses another.
    package static let currentFormat = 1

    package struct Promise: Codable, Sendable {
        package var name: String
        package var verdict: String
        package var promise: String
        package var violations: Int
        package var cases: Int
    }

    package struct Leg: Codable, Sendable {
        package var message: String
        package var chat: String
        package var leg: String
        package var sentSeconds: Double
        package var totalMilliseconds: Double
        package var parts: [Part]
    }

    /// A fault a driver asked for: its number, its plan word and whether the proxies were asked.
    package struct Fault: Codable, Sendable {
        package var number: Int
        package var words: String
        package var asked: Bool
    }

    package struct Part: Codable, Sendable {
        package var name: String
        package var milliseconds: Double
    }

    package var format: Int
    package var title: String
    /// The command that gives the same network again: for a recorded session `lowband proxy
    /// --replay DIR`, for an exec session the seed's own command.
    package var command: String
    /// The command line that recorded it (`lowband proxy --listen … --record DIR`), which a
    /// replay starts from; absent for an exec session and in records written before it was kept.
    package var recordedWith: String?
    /// The profile and seed switches made while it ran, in order (`12.400 s: switched to 3g seed 7`).
    package var switches: [String]
    package var commit: String
    package var host: String
    package var timestamp: String
    package var seconds: Double
    package var verdict: String
    package var tally: String
    package var bounds: String
    package var promises: [Promise]
    package var violations: [String]
    package var legs: [Leg]
    package var played: [String]
    /// Whether the played faults agree with what the fault driver asked, link by link (absent
    /// for a session without a driver, and in documents written before it was kept).
    package var recorderCheck: String?
    /// The promise the first broken case broke (or `exit`/`timeout`), what `--prove` proves.
    package var signature: String?
    /// The planned fault that case's cause names (`fault 4`), if one.
    package var causeFault: String?
    /// That case itself (`m-3@bob`), where the checker named it.
    package var causeSubject: String?
    /// `--prove`'s verdict on that cause, once a proof ran.
    package var proof: String?
    /// The seed's numbered faults (absent for a session without a fault driver).
    package var faults: [Fault]?
    package var timeline: SessionTimeline
    /// What `lowband shell --record` ran and what crossed its link (absent for other records).
    package var shell: ShellRunRecord?

    /// The document of `record`, titled by the verdict's first line.
    package init(_ record: SessionRecord, header: [String], verdict: String, command: String, recordedWith: String? = nil, environment: RunEnvironment) {
        format = Self.currentFormat
        title = header.first ?? "session"
        self.command = command
        self.recordedWith = recordedWith
        switches = record.timeline.marks.filter { $0.kind == "link" }.map { String(format: "%.3f s: ", $0.at) + ($0.detail ?? "") }
        commit = environment.commit
        host = environment.host
        timestamp = environment.timestamp
        seconds = record.elapsed.seconds
        self.verdict = verdict
        tally = record.book.checks.tally
        bounds = record.bounds.description
        promises = record.book.checks.map { Promise(name: $0.name, verdict: $0.verdict, promise: $0.promise, violations: $0.violations, cases: $0.checked) }
        violations = record.book.violations.map(\.summary)
        legs = record.breakdown.map { row in
            Leg(message: row.message, chat: row.chat, leg: row.leg, sentSeconds: row.sentSeconds, totalMilliseconds: row.totalMilliseconds,
                parts: row.parts.map { Part(name: $0.name, milliseconds: $0.milliseconds) })
        }
        played = record.played
        recorderCheck = record.recorderCheck
        signature = record.firstCase?.invariant
        causeFault = record.firstCase?.causeFault
        causeSubject = record.firstCase?.subject
        faults = record.requests.isEmpty ? nil : record.requests.map { Fault(number: $0.number, words: $0.words, asked: $0.outcome == .asked) }
        timeline = record.timeline
    }

    /// The JSON of the document, keys sorted, indented.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// At most this many bytes of record.json are read.
    package static let maximumBytes = 64 * 1024 * 1024

    /// Reads `folder/record.json`.
    ///
    /// - Throws: ``SessionDocumentError`` saying what is missing or wrong, and where.
    package static func read(folder: String) throws(SessionDocumentError) -> SessionDocument {
        let path = "\(folder)/record.json"
        if FileManager.default.fileExists(atPath: path), !FileManager.default.fileExists(atPath: "\(folder)/network.jsonl") {
            throw SessionDocumentError("\(folder) is no session folder (it has no network.jsonl): `lowband report` renders what `lowband proxy --record` and `lowband explore --exec --keep-sessions` write; a `lowband run` folder's report.html is written by the run")
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw SessionDocumentError("\(path) does not exist: give a folder `lowband proxy --record` or `lowband explore --exec --keep-sessions` wrote")
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumBytes else {
            throw SessionDocumentError("\(path) is \(size) bytes; a session record is read up to \(maximumBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SessionDocumentError("\(path) cannot be read")
        }
        if let format = try? JSONDecoder().decode(FormatOnly.self, from: data), format.format != currentFormat {
            throw SessionDocumentError("\(path) is a session record of format \(format.format); this lowband reads format \(currentFormat)")
        }
        do {
            return try JSONDecoder().decode(SessionDocument.self, from: data)
        } catch {
            throw SessionDocumentError("\(path) is not a session record: \(describe(error))")
        }
    }

    private struct FormatOnly: Decodable {
        var format: Int
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing '\((context.codingPath.map(\.stringValue) + [key.stringValue]).joined(separator: "."))'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(context.codingPath.map(\.stringValue).joined(separator: "."))': \(context.debugDescription)"
        case DecodingError.dataCorrupted(let context):
            return context.debugDescription
        default:
            return "\(error)"
        }
    }
}

/// A session record that cannot be read, with what is wrong.
package struct SessionDocumentError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}

extension SessionDocument {
    /// Adds `--prove`'s verdict to the session in `folder`: a `proof:` line at the end of
    /// verdict.txt, `proof` in record.json, and report.html rendered again with it.
    ///
    /// - Throws: ``SessionDocumentError`` when the record cannot be read or a file written.
    package static func amend(folder: String, proof: String) throws(SessionDocumentError) {
        var document = try read(folder: folder)
        document.proof = proof
        document.verdict += "proof: \(proof)\n"
        do {
            try document.encoded().write(to: URL(fileURLWithPath: "\(folder)/record.json"))
            try document.verdict.write(toFile: "\(folder)/verdict.txt", atomically: true, encoding: .utf8)
        } catch {
            throw SessionDocumentError("cannot write the proof into \(folder): \(error.localizedDescription)")
        }
        _ = try renderReport(folder: folder)
    }

    /// Renders `folder/report.html` again from `folder/record.json`; the report's path.
    ///
    /// - Throws: ``SessionDocumentError`` when the record cannot be read or the report written.
    package static func renderReport(folder: String) throws(SessionDocumentError) -> String {
        let document = try read(folder: folder)
        let path = "\(folder)/report.html"
        do {
            try SessionReportHTML.render(document).write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw SessionDocumentError("cannot write \(path): \(error.localizedDescription)")
        }
        return path
    }
}
