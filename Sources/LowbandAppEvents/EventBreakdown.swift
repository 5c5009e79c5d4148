import Foundation
import LowbandBasics

/// Where a message's time went in a session judged from events: from its `sent` to its
/// `acked` (the sender's leg) and to its first display on each other device, split into what
/// the network did to the message's own path and the rest (docs/APP-EVENTS.md, "Where the time
/// went"):
///
/// - link down: the path's link was in an outage, handover, partition or blackhole of its direction;
/// - loss stalls: the path's connection stalled on a lost piece of its direction (outside the down time);
/// - transit: the profile's round trip (its one-way delays both ways), at most what is left;
/// - queueing: the path's bytes waited in its link's queue, at the profile's rate (the
///   message's own earlier pieces or other traffic), at most what is left;
/// - app: the rest — the app's own code, its reconnects and retries.
///
/// The path is read from the proxies' ledger: the message goes up the sender's connection from
/// its `sent` until that connection's first bytes reach the server, then down — the sender's
/// connection for the acknowledgement, the recipient's for a delivery. What happened to other
/// connections, other directions or other links in the same window is never counted.
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
        let links = DeviceLinks(events: events, network: network)
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
                let segments = path(from: origin.device, to: leg.leg == "acked" ? origin.device : leg.leg, sent: origin.at, arrived: leg.at, links: links, network: network)
                func sum(_ part: (NetworkRecord, Double, Double, NetworkRecord.Path) -> Double) -> Double {
                    segments.reduce(0) { $0 + part(network, $1.from, $1.to, $1.path) }
                }
                let down = min(total, sum { $0.downTime(from: $1, to: $2, on: $3) })
                let stalls = min(total - down, sum { $0.stallTime(from: $1, to: $2, on: $3) })
                let carried = min(total - down - stalls, transit)
                let queued = min(total - down - stalls - carried, sum { $0.queueTime(from: $1, to: $2, on: $3) })
                let app = total - down - stalls - queued - carried
                result.append(EventBreakdown(
                    message: message, chat: origin.chat, leg: leg.leg, sentSeconds: origin.at, totalMilliseconds: total * 1000,
                    linkDownMilliseconds: down * 1000, lossStallMilliseconds: stalls * 1000, queueingMilliseconds: queued * 1000,
                    transitMilliseconds: carried * 1000, appMilliseconds: app * 1000))
            }
        }
        return result
    }

    /// The stretches of a leg and the path its bytes took in each: up `sender`'s connection from
    /// `sent` until its first bytes after it reached the server, then down `receiver`'s
    /// connection until `arrived`. Where a device's connection is not known, that stretch counts
    /// what every link did (as before the ledger).
    static func path(
        from sender: String, to receiver: String, sent: Double, arrived: Double, links: DeviceLinks, network: NetworkRecord
    ) -> [(from: Double, to: Double, path: NetworkRecord.Path)] {
        guard let up = links.connection(of: sender, openAt: sent) ?? links.connections(of: sender).first(where: { $0.opened >= sent && $0.opened <= arrived }) else {
            return [(sent, arrived, .anywhere)]
        }
        let upPath = NetworkRecord.Path(proxy: up.proxy, connection: up.number, direction: .upstream)
        // Bytes delivered sooner than the link's floor after `sent` are earlier bytes.
        let earliest = sent + max(0, network.floor.up - 0.05)
        let reached = min(arrived, network.transfers(on: upPath, from: sent).first { !$0.dropped && $0.at >= earliest }?.at ?? arrived)
        var segments = [(from: sent, to: reached, path: upPath)]
        guard reached < arrived else { return segments }
        if let down = links.connection(of: receiver, openAt: arrived) ?? links.connections(of: receiver).last(where: { $0.opened <= arrived }) {
            segments.append((reached, arrived, NetworkRecord.Path(proxy: down.proxy, connection: down.number, direction: .downstream)))
        } else {
            segments.append((reached, arrived, .anywhere))
        }
        return segments
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
