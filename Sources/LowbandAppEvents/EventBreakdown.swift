import Foundation
import LowbandBasics

/// Where a message's time went in a session judged from events: from its `sent` to its
/// `acked` (the sender's leg) and to its first display on each other device, split into what
/// the network did on the proxies during that interval and the rest (docs/APP-EVENTS.md,
/// "Where the time went"):
///
/// - link down: some upstream was in an outage, handover, partition or blackhole;
/// - loss stalls: a link stalled on a lost piece (outside the down time);
/// - transit: the profile's round trip (its one-way delays both ways), at most what is left;
/// - queueing: bytes waited in a link's queue for the link, at the profile's rate (the
///   message's own earlier pieces or other traffic), at most what is left;
/// - app: the rest — the app's own code, its reconnects and retries.
///
/// The proxies see an app's bytes, not its messages: each part is what the links did during the
/// leg, which is this message's share when the app sent little else meanwhile.
///
/// The parts add up to the total exactly.
public struct EventBreakdown: Sendable, Hashable {
    /// The app's message id.
    public var message: String
    /// Its chat.
    public var chat: String
    /// `acked` for the sender's leg, else the device it reached.
    public var leg: String
    /// When it was sent (seconds).
    public var sentSeconds: Double
    /// Milliseconds: the whole leg and its parts.
    public var totalMilliseconds: Double
    /// Of it, a link was down.
    public var linkDownMilliseconds: Double
    /// Of it, a link stalled on a loss.
    public var lossStallMilliseconds: Double
    /// Of it, bytes waited in a link's queue.
    public var queueingMilliseconds: Double
    /// Of it, the profile's round trip.
    public var transitMilliseconds: Double
    /// The rest: the app's own time.
    public var appMilliseconds: Double

    /// The parts in the order they are printed.
    public var parts: [(name: String, milliseconds: Double)] {
        [("link down", linkDownMilliseconds), ("loss stalls", lossStallMilliseconds), ("queueing", queueingMilliseconds), ("transit", transitMilliseconds), ("app", appMilliseconds)]
    }

    /// Every leg of every message of `events`, in sending order; `roundTrip` is the profile's
    /// one-way delays both ways.
    public static func compute(events: [AppEvent], network: NetworkRecord, roundTrip: Duration) -> [EventBreakdown] {
        let transit = roundTrip.seconds
        var sent: [String: (device: String, chat: String, at: Double)] = [:]
        var order: [String] = []
        var legs: [String: [(leg: String, at: Double)]] = [:]
        var reached: Set<String> = []
        let showsOn = Set(events.filter { $0.kind == .shown }.map(\.device))
        for event in events.sorted(by: { $0.arrival < $1.arrival }) {
            guard let message = event.message else { continue }
            switch event.kind {
            case .sent where sent[message] == nil:
                sent[message] = (event.device, event.chat ?? "", event.seconds)
                order.append(message)
            case .acked:
                if let origin = sent[message], origin.device == event.device, reached.insert("\(message)\u{0}acked").inserted {
                    legs[message, default: []].append(("acked", event.seconds))
                }
            case .received, .shown:
                let counts = event.kind == (showsOn.contains(event.device) ? .shown : .received)
                if counts, let origin = sent[message], origin.device != event.device, reached.insert("\(message)\u{0}\(event.device)").inserted {
                    legs[message, default: []].append((event.device, event.seconds))
                }
            default:
                break
            }
        }
        var result: [EventBreakdown] = []
        for message in order {
            guard let origin = sent[message] else { continue }
            for leg in legs[message] ?? [] where leg.at >= origin.at {
                let total = leg.at - origin.at
                let down = min(total, network.downTime(from: origin.at, to: leg.at))
                let stalls = min(total - down, network.stallTime(from: origin.at, to: leg.at))
                let carried = min(total - down - stalls, transit)
                let queued = min(total - down - stalls - carried, network.queueTime(from: origin.at, to: leg.at))
                let app = total - down - stalls - queued - carried
                result.append(EventBreakdown(
                    message: message, chat: origin.chat, leg: leg.leg, sentSeconds: origin.at, totalMilliseconds: total * 1000,
                    linkDownMilliseconds: down * 1000, lossStallMilliseconds: stalls * 1000, queueingMilliseconds: queued * 1000,
                    transitMilliseconds: carried * 1000, appMilliseconds: app * 1000))
            }
        }
        return result
    }

    /// The CSV header of ``csvLine``.
    public static let csvHeader = "message,chat,leg,sent_s,total_ms,link_down_ms,loss_stalls_ms,queueing_ms,transit_ms,app_ms"

    /// One row of `breakdown.csv` (without its line feed).
    public var csvLine: String {
        String(CSVWriter.line([message, chat, leg, String(format: "%.3f", sentSeconds)]
            + [totalMilliseconds, linkDownMilliseconds, lossStallMilliseconds, queueingMilliseconds, transitMilliseconds, appMilliseconds].map { String(format: "%.1f", $0) }).dropLast())
    }

    /// Reads `breakdown.csv` back.
    ///
    /// - Throws: a text naming the file and line that is not such a row.
    public static func parse(_ text: String, file: String) throws -> [EventBreakdown] {
        var rows: [EventBreakdown] = []
        do {
            try CSVReader.forEachRecord(in: Array(text.utf8), maximumLineBytes: 4096) { record in
                guard record.line > 1 else { return }
                let fields = record.fields
                let numbers = fields.count == 10 ? fields[3...].compactMap(Double.init) : []
                guard numbers.count == 7 else {
                    throw ParseFailure(description: "\(file): line \(record.line): expected \(csvHeader)")
                }
                rows.append(EventBreakdown(
                    message: fields[0], chat: fields[1], leg: fields[2], sentSeconds: numbers[0], totalMilliseconds: numbers[1],
                    linkDownMilliseconds: numbers[2], lossStallMilliseconds: numbers[3], queueingMilliseconds: numbers[4], transitMilliseconds: numbers[5],
                    appMilliseconds: numbers[6]))
            }
        } catch let failure as ParseFailure {
            throw failure
        } catch {
            throw ParseFailure(description: "\(file): \(error)")
        }
        return rows
    }

    /// A `breakdown.csv` that cannot be read.
    public struct ParseFailure: Error, Sendable, CustomStringConvertible {
        /// The file, the line and what was wrong.
        public var description: String
    }
}
