import Foundation
import LowbandBasics

/// Reads app events from JSON lines, one object per line, and writes them back the same way.
///
/// Every size is capped before use: a line over ``maximumLineBytes`` is refused unread, a device,
/// message or chat id over ``maximumIDLength`` characters is refused. A blank line is skipped. Keys
/// the format does not know are ignored, so an app may send more than Lowband reads.
public enum AppEventReader {
    /// The longest line read.
    public static let maximumLineBytes = 4096
    /// The longest device, message or chat id.
    public static let maximumIDLength = 200
    /// The prefix that marks an event among a command's output lines (`LOWBAND_EVENT {"device":…}`).
    public static let stdoutPrefix = "LOWBAND_EVENT "

    /// What was wrong with one line, and where.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The line's number (1-based) in what was read.
        public var line: Int
        /// What was wrong.
        public var reason: String

        /// A failure of `line`.
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { "line \(line): \(reason)" }
    }

    /// The event on one line, stamped `arrival`; nil for a blank line.
    ///
    /// - Throws: ``Failure`` naming what was wrong (not JSON, a missing or empty device, an
    ///   unknown kind with the known ones, a message kind without a message, a field of the
    ///   wrong type, a size over its cap).
    public static func event(_ line: Substring, number: Int = 1, arrival: Duration) throws(Failure) -> AppEvent? {
        let bytes = line.utf8
        guard bytes.count <= maximumLineBytes else {
            throw Failure(line: number, reason: "the line is \(bytes.count) bytes; at most \(maximumLineBytes) are read")
        }
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        let object: [String: Field]
        do {
            object = try JSONDecoder().decode([String: Field].self, from: Data(bytes))
        } catch DecodingError.typeMismatch {
            throw Failure(line: number, reason: "not a JSON object")
        } catch {
            throw Failure(line: number, reason: "not JSON: \(line.prefix(80))")
        }
        let device = try text(object, "device", line: number)
        guard let device, !device.isEmpty else { throw Failure(line: number, reason: "'device' is missing or empty") }
        guard case .string(let kindName)? = object["kind"] else { throw Failure(line: number, reason: "'kind' is missing; known kinds: \(AppEvent.Kind.known)") }
        guard let kind = AppEvent.Kind(rawValue: kindName) else {
            throw Failure(line: number, reason: "unknown kind '\(kindName.prefix(40))'; known kinds: \(AppEvent.Kind.known)")
        }
        let message = try text(object, "message", line: number)
        let chat = try text(object, "chat", line: number)
        if kind.needsMessage, message?.isEmpty ?? true {
            throw Failure(line: number, reason: "a '\(kind.rawValue)' event needs a 'message'")
        }
        var appTime: Double?
        if let value = object["t"] {
            guard case .number(let milliseconds, _) = value, milliseconds.isFinite else {
                throw Failure(line: number, reason: "'t' must be a number of milliseconds")
            }
            appTime = milliseconds
        }
        return AppEvent(device: device, kind: kind, message: message, chat: chat, appMilliseconds: appTime, arrival: arrival)
    }

    /// Every event of `text` (JSON lines), all stamped `arrival`.
    ///
    /// - Throws: ``Failure`` for the first bad line; nothing of `text` is taken then.
    public static func events(_ text: String, arrival: Duration) throws(Failure) -> [AppEvent] {
        var result: [AppEvent] = []
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            if let event = try event(line, number: number, arrival: arrival) { result.append(event) }
        }
        return result
    }

    /// The event as one JSON line (without the newline), with its arrival as `at` (seconds).
    public static func line(_ event: AppEvent) -> String {
        "{" + fields(device: event.device, kind: event.kind, message: event.message, chat: event.chat, appMilliseconds: event.appMilliseconds)
            .joined(separator: ",") + String(format: ",\"at\":%.6f}", event.seconds)
    }

    /// An event as an app posts it, one JSON line without the newline or an arrival time:
    /// `{"device":"bob","kind":"acked","message":"c42","chat":"7"}` (what `lowband client
    /// --device` prints after `LOWBAND_EVENT `, and what the reader reads back).
    public static func postedLine(device: String, kind: AppEvent.Kind, message: String? = nil, chat: String? = nil, appMilliseconds: Double? = nil) -> String {
        "{" + fields(device: device, kind: kind, message: message, chat: chat, appMilliseconds: appMilliseconds).joined(separator: ",") + "}"
    }

    private static func fields(device: String, kind: AppEvent.Kind, message: String?, chat: String?, appMilliseconds: Double?) -> [String] {
        var parts = ["\"device\":\(JSONString.quoted(device))", "\"kind\":\"\(kind.rawValue)\""]
        if let message { parts.append("\"message\":\(JSONString.quoted(message))") }
        if let chat { parts.append("\"chat\":\(JSONString.quoted(chat))") }
        if let appMilliseconds { parts.append("\"t\":\(appMilliseconds)") }
        return parts
    }

    private static func text(_ object: [String: Field], _ key: String, line: Int) throws(Failure) -> String? {
        let string: String
        switch object[key] {
        case nil: return nil
        case .string(let text)?: string = text
        // `"message": 17` is as good an id as `"message": "17"`.
        case .number(_, let text)?: string = text
        default: throw Failure(line: line, reason: "'\(key)' must be a string")
        }
        guard string.count <= maximumIDLength else {
            throw Failure(line: line, reason: "'\(key)' is \(string.count) characters; at most \(maximumIDLength)")
        }
        return string
    }

    /// One value of an event object: text, a number (with its integer spelling when whole), or
    /// anything else (true, null, an array…), which no field of the format takes.
    private enum Field: Decodable {
        case string(String)
        case number(Double, text: String)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if (try? container.decode(Bool.self)) != nil {
                self = .other
            } else if let integer = try? container.decode(Int64.self) {
                self = .number(Double(integer), text: String(integer))
            } else if let number = try? container.decode(Double.self) {
                self = .number(number, text: String(number))
            } else {
                self = .other
            }
        }
    }
}
