import Foundation
import LowbandShaper

/// The network decision without which a broken case would not have broken, found from the
/// affected devices' own connections and bytes in the proxies' ledger — or, where no decision
/// touched that message's bytes, that plain fact (the app's own bug, the most valuable thing to
/// say). docs/APP-EVENTS.md, "What a violation says".
public struct Cause: Sendable, Hashable {
    /// The sentence that follows `cause:`.
    public var text: String
    /// The planned fault that decided it (`fault 4`): what `--prove` takes away; nil when the
    /// decision was not a planned fault (the profile's, the link's own), or none touched it.
    public var fault: String?
    /// False when no network decision touched the message's bytes on the affected device.
    public var networkTouched: Bool
    /// The affected device's link, whose events the context lists first.
    public var link: String?
}

/// Finds the ``Cause`` of each kind of broken case from a session's events and network record.
public struct CauseFinder: Sendable {
    let network: NetworkRecord
    /// Which connections were whose.
    public let links: DeviceLinks
    /// When each connection worked for its app (by proxy and number), for those that did:
    /// worked out once, as every case asks it of every connection of a device.
    let workingFrom: [String: Double]

    /// A finder over `events` and `network`.
    public init(events: [AppEvent], network: NetworkRecord) {
        self.network = network
        links = DeviceLinks(events: events, network: network)
        var connectedAt: [String: [Double]] = [:]
        for event in events.sorted(by: { $0.arrival < $1.arrival }) where event.kind == .connected {
            connectedAt[event.device, default: []].append(event.seconds)
        }
        var workingFrom: [String: Double] = [:]
        for life in links.lives {
            workingFrom[Self.key(life)] = Self.established(life, network: network, links: links, connectedAt: connectedAt)
        }
        self.workingFrom = workingFrom
    }

    // MARK: The promises

    /// Why `recipient` never got `message`, which `sender` sent at `sent` and saw acknowledged at
    /// `acked`: the message's bytes are followed up the sender's connection, then down the
    /// recipient's.
    public func lost(message: String, sender: String, sent: Double, acked: Double, recipient: String) -> Cause {
        let recipientLink = links.link(of: recipient)
        // Up: from the sender's connection to the server. An event is stamped when it reaches
        // Lowband, a little after the app did it: a connection that ended just before the stamp
        // may be the one the app wrote to.
        let slack = 0.5
        var reached: Double?
        if let up = links.connection(of: sender, openAt: sent)
            ?? links.connections(of: sender).last(where: { $0.opened <= sent && ($0.closed ?? .infinity) > sent - slack })
            ?? links.connections(of: sender).first(where: { $0.opened >= sent })
        {
            let start = max(sent, up.opened)
            let first = ownFirst(up, .upstream, from: start)
            if let first, first.dropped {
                return droppedOnTheWay(first, life: up, device: sender, what: "the bytes \(sender) wrote after sending \(message) at \(Self.time(sent)) s never reached the server", link: links.link(of: sender))
            }
            if let first {
                reached = first.at
            } else if let hold = holding(up, .upstream, at: start) {
                let ended = up.ending.map { "; \(sender)'s connection \(up.number) \($0)" } ?? ""
                return Cause(
                    text: "\(sender)'s link held what \(sender) wrote after sending \(message) at \(Self.time(sent)) s (\(span(hold)))\(ended); it never reached the server",
                    fault: fault(of: hold), networkTouched: true, link: links.link(of: sender))
            } else if let closed = up.closed, let ending = up.ending, closed <= sent + slack {
                // Written into a connection that was ending: nothing of it reached the proxy.
                return broke(up, device: sender, text: "\(sender)'s connection \(up.number) \(ending), as \(sender) sent \(message) (at \(Self.time(sent)) s): nothing of it reached the server", link: links.link(of: sender))
            }
        }
        // Without a byte seen going up, the acknowledgement is the latest it can have reached the server.
        let atServer = reached ?? acked
        // Down: the recipient's working connection when the message reached the server (from the
        // answer that made its app say `connected`; see ``established(_:network:links:connectedAt:)``).
        guard let down = links.connections(of: recipient).last(where: { $0.isOpen(at: atServer) && (established($0) ?? .infinity) <= atServer }) else {
            let before = links.connections(of: recipient).last { ($0.closed ?? .infinity) <= atServer && established($0) != nil }
            let next = links.connections(of: recipient).compactMap { life in established(life).map { (life, $0) } }.first { $0.1 > atServer }
            let until = next.map { "\(Self.time($0.1)) s (connection \($0.0.number))" } ?? "the end"
            // A connection open then that had not carried the app's handshake yet, and what held it.
            var pending = ""
            var pendingFault: String?
            if let opening = links.connections(of: recipient).last(where: { $0.isOpen(at: atServer) }) {
                let carried: String
                if let working = established(opening) {
                    carried = "worked only from \(Self.time(working)) s"
                } else if deliveredUp(opening) {
                    carried = "never worked" + (opening.ending.map { " before it \($0)" } ?? "")
                } else {
                    carried = "carried nothing to the server" + (opening.ending.map { " before it \($0)" } ?? "")
                }
                let slow = network.spans.first { $0.proxy == opening.proxy && $0.start <= atServer && $0.end >= opening.opened && NetworkRecord.Path(proxy: opening.proxy, direction: .upstream).crosses($0) }
                pending = "; \(recipient)'s connection \(opening.number), opened at \(Self.time(opening.opened)) s, \(carried)" + (slow.map { " (\(span($0)))" } ?? "")
                pendingFault = slow.flatMap(fault(of:))
            }
            guard let before, let ending = before.ending else {
                return Cause(
                    text: "\(recipient) had no working connection yet when \(message) reached the server at \(Self.time(atServer)) s (the first from \(until))\(pending)",
                    fault: pendingFault, networkTouched: pendingFault != nil, link: recipientLink)
            }
            let hold = holding(before, .downstream, at: before.closed ?? atServer, looking: 30)
            let because = before.resetBy ?? hold.flatMap(fault(of:)) ?? pendingFault
            let held = hold.map { ", after \(span($0))" } ?? ""
            return Cause(
                text: "\(recipient) had no working connection from \(Self.time(before.closed ?? atServer)) s (\(recipient)'s connection \(before.number) \(ending)\(held)) to \(until); \(message) reached the server at \(Self.time(atServer)) s, inside that gap\(pending)",
                fault: because, networkTouched: because != nil || before.reset || hold != nil, link: recipientLink)
        }
        let arrived = ownFirst(down, .downstream, from: atServer)
        if let first = arrived, first.dropped {
            return droppedOnTheWay(first, life: down, device: recipient, what: "the \(first.bytes) B the server wrote to \(recipient) after \(message) reached it at \(Self.time(atServer)) s never arrived", link: recipientLink)
        }
        if arrived == nil, let hold = holding(down, .downstream, at: atServer) {
            return Cause(
                text: "\(recipient)'s link held what the server wrote after \(message) reached it at \(Self.time(atServer)) s (\(span(hold)))" + (down.ending.map { "; \(recipient)'s connection \(down.number) \($0)" } ?? ""),
                fault: fault(of: hold), networkTouched: true, link: recipientLink)
        }
        if arrived == nil, let closed = down.closed, let ending = down.ending {
            // Nothing came down before the connection ended: what ended it is the nearest decision.
            return broke(down, device: recipient, text: "\(recipient)'s connection \(down.number) carried nothing of \(message) (it reached the server at \(Self.time(atServer)) s) before it \(ending), \(Self.time(closed - atServer)) s later", link: recipientLink)
        }
        // Nothing came down, and the link went down just after (within the 2 s the context looks
        // at): what the server wrote then was held. A proxy sees only what it delivered, a
        // shell only what crossed, so the held answer itself is not in the record.
        let path = NetworkRecord.Path(proxy: down.proxy, direction: .downstream)
        if arrived == nil, let after = network.spans.first(where: { $0.down && path.crosses($0) && $0.start >= atServer && $0.start <= atServer + 2 }) {
            return Cause(
                text: "nothing came down \(recipient)'s connection \(down.number) after \(message) reached the server at \(Self.time(atServer)) s, and \(recipient)'s link was down from \(Self.time(after.start)) s (\(span(after)))",
                fault: fault(of: after), networkTouched: true, link: recipientLink)
        }
        // A packet link dropped the connection's data on its way down (TCP sends it again, later).
        let lost = network.packetDrops.filter { $0.kind == "drop downstream" && $0.proxy == down.proxy && $0.connection == down.number && $0.at >= atServer }
        if arrived == nil, let firstLost = lost.first {
            let causes = Dictionary(grouping: lost) { $0.detail ?? "dropped" }.map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
            return Cause(
                text: "nothing came down \(recipient)'s connection \(down.number) after \(message) reached the server at \(Self.time(atServer)) s: the link dropped \(lost.count) of its segments from \(Self.time(firstLost.at)) s (\(causes)), which TCP sends again",
                fault: nil, networkTouched: true, link: recipientLink)
        }
        let delivered = arrived.map { "; \(recipient)'s connection \(down.number) delivered \($0.bytes) B at \(Self.time($0.at)) s" } ?? "; the server wrote nothing to \(recipient)'s open connection \(down.number) after it"
        return Cause(
            text: "no fault touched \(message) on \(recipient)'s link: it reached the server at \(Self.time(atServer)) s\(delivered); \(recipient)'s app did not show it",
            fault: nil, networkTouched: false, link: recipientLink)
    }

    /// Why `device` has `message` twice (at `first` and `second`), which `sender` sent at
    /// `sent`: a connection that ended between the send and the second copy, so the message was
    /// sent again.
    public func duplicated(message: String, sender: String, sent: Double, device: String, first: Double, second: Double) -> Cause {
        if let broken = links.connections(of: sender).first(where: { $0.opened <= second && ($0.closed ?? .infinity) >= sent && ($0.closed ?? .infinity) < second }) {
            return broke(broken, device: sender, text: "\(sender)'s connection \(broken.number) \(broken.ending ?? "ended") after sending \(message) at \(Self.time(sent)) s; it was sent again, and \(device) got it at \(Self.time(first)) s and \(Self.time(second)) s", link: links.link(of: device))
        }
        if let broken = links.connections(of: device).first(where: { ($0.closed ?? .infinity) >= first && ($0.closed ?? .infinity) < second }) {
            return broke(broken, device: device, text: "\(device)'s connection \(broken.number) \(broken.ending ?? "ended") between the two copies of \(message) (\(Self.time(first)) s, \(Self.time(second)) s); it was sent to \(device) again after the reconnect", link: links.link(of: device))
        }
        return Cause(
            text: "no fault touched \(message) on \(sender)'s or \(device)'s link: no connection of theirs ended between its send at \(Self.time(sent)) s and the second copy at \(Self.time(second)) s; the app or its server sent it twice",
            fault: nil, networkTouched: false, link: links.link(of: device))
    }

    /// Why `device` has `later` before `earlier`: the earlier one's connection ended after it
    /// was sent (it was resent behind the later one), or a link held it while the later one went on.
    public func order(device: String, earlier: (message: String, sender: String, sent: Double), later: (message: String, sender: String, sent: Double), at: Double) -> Cause {
        if let broken = links.connections(of: earlier.sender).first(where: { ($0.closed ?? .infinity) >= earlier.sent && ($0.closed ?? .infinity) <= max(at, later.sent) && $0.opened <= earlier.sent }) {
            return broke(broken, device: earlier.sender, text: "\(earlier.sender)'s connection \(broken.number) \(broken.ending ?? "ended") after sending \(earlier.message) at \(Self.time(earlier.sent)) s; it was sent again after \(later.message) (sent at \(Self.time(later.sent)) s)", link: links.link(of: device))
        }
        if let up = links.connection(of: earlier.sender, openAt: earlier.sent), let hold = holding(up, .upstream, at: earlier.sent) {
            return Cause(
                text: "\(earlier.sender)'s link held \(earlier.message) from \(Self.time(earlier.sent)) s (\(span(hold))) while \(later.message) went on",
                fault: fault(of: hold), networkTouched: true, link: links.link(of: device))
        }
        if let broken = links.connections(of: device).first(where: { ($0.closed ?? .infinity) >= earlier.sent && ($0.closed ?? .infinity) <= at }) {
            return broke(broken, device: device, text: "\(device)'s connection \(broken.number) \(broken.ending ?? "ended") after \(earlier.message) was sent; \(device) got \(later.message) first after the reconnect", link: links.link(of: device))
        }
        return Cause(
            text: "no fault touched \(earlier.message) or \(later.message) on \(earlier.sender)'s, \(later.sender)'s or \(device)'s link: no connection of theirs ended and no link held them; the app or its server reordered them",
            fault: nil, networkTouched: false, link: links.link(of: device))
    }

    /// Why `sender`'s send of `message` at `sent` waited past the bound (until `until`): a toxic
    /// that slowed its link, or its connection ending, while it waited.
    public func late(message: String, sender: String, sent: Double, until: Double) -> Cause {
        let link = links.link(of: sender)
        if let slow = network.spans.first(where: { !$0.down && $0.proxy == link && $0.end >= sent && $0.start <= until }) {
            return Cause(text: "\(span(slow)) while \(message) waited from \(Self.time(sent)) s", fault: fault(of: slow), networkTouched: true, link: link)
        }
        if let broken = links.connections(of: sender).first(where: { ($0.closed ?? .infinity) >= sent && ($0.closed ?? .infinity) <= until && $0.opened <= sent }) {
            return broke(broken, device: sender, text: "\(sender)'s connection \(broken.number) \(broken.ending ?? "ended") while \(message) waited from \(Self.time(sent)) s", link: link)
        }
        return Cause(
            text: "no fault touched \(sender)'s link while \(message) waited from \(Self.time(sent)) s: the link delivered; the app or its server did not answer",
            fault: nil, networkTouched: false, link: link)
    }

    // MARK: Reading the ledger

    /// When `life` worked for its app, if it ever did.
    private func established(_ life: DeviceLinks.Life) -> Double? {
        workingFrom[Self.key(life)]
    }

    /// When `life` worked for its app, if it ever did. Where the device says `connected`, the
    /// session works from the last bytes that came down that connection before the first such
    /// event after it opened (the answer that told the app: a CONNACK, a subscription's
    /// confirmation; the event itself is stamped when it reaches Lowband, a little later).
    /// Elsewhere, once it had carried bytes both ways (a handshake done).
    private static func established(_ life: DeviceLinks.Life, network: NetworkRecord, links: DeviceLinks, connectedAt: [String: [Double]]) -> Double? {
        func first(_ direction: Direction) -> Double? {
            network.transfers(on: NetworkRecord.Path(proxy: life.proxy, connection: life.number, direction: direction), from: life.opened).first { !$0.dropped }?.at
        }
        guard let up = first(.upstream), let down = first(.downstream) else { return nil }
        let bytes = max(up, down)
        guard let device = links.owner(of: life) ?? links.ownLinkOwner(life.proxy), let said = connectedAt[device] else { return bytes }
        guard let connected = said.first(where: { $0 >= life.opened && $0 >= bytes - 0.0005 }), connected < (life.closed ?? .infinity) + 0.5 else {
            // The app never said this connection worked.
            return nil
        }
        let path = NetworkRecord.Path(proxy: life.proxy, connection: life.number, direction: .downstream)
        let answer = network.transfers(on: path, from: life.opened).last { !$0.dropped && $0.at <= connected }?.at
        return max(bytes, answer ?? connected)
    }

    private static func key(_ life: DeviceLinks.Life) -> String {
        "\(life.proxy)\u{0}\(life.number)"
    }

    /// Whether `life` ever delivered bytes toward the server.
    private func deliveredUp(_ life: DeviceLinks.Life) -> Bool {
        transfers(life, .upstream, from: life.opened).contains { !$0.dropped }
    }

    /// The first transfer of `life` and `direction` that can be a message's put on it at
    /// `start`: a drop from then on, a delivery only once the link's floor has passed (sooner,
    /// they are earlier bytes), less 50 ms for an event stamped a little after the app acted.
    private func ownFirst(_ life: DeviceLinks.Life, _ direction: Direction, from start: Double) -> NetworkRecord.Transfer? {
        let floor = direction == .upstream ? network.floor.up : network.floor.down
        let earliest = start + max(0, floor - 0.05)
        return transfers(life, direction, from: start).first { $0.dropped || $0.at >= earliest }
    }

    /// `life`'s transfers of `direction` from `start` on, in time order.
    private func transfers(_ life: DeviceLinks.Life, _ direction: Direction, from start: Double) -> ArraySlice<NetworkRecord.Transfer> {
        network.transfers(on: NetworkRecord.Path(proxy: life.proxy, connection: life.number, direction: direction), from: start - 0.0005)
    }

    /// A stretch that held `life`'s bytes of `direction` at `moment` (or began within
    /// `looking` seconds before it): an outage, a partition, a blackhole of its link.
    private func holding(_ life: DeviceLinks.Life, _ direction: Direction, at moment: Double, looking: Double = 0) -> NetworkRecord.Span? {
        let path = NetworkRecord.Path(proxy: life.proxy, direction: direction)
        return network.spans.last { $0.down && path.crosses($0) && $0.start <= moment + 0.0005 && $0.end >= moment - looking }
    }

    /// Bytes dropped on `device`'s connection: by a toxic (the blackhole or toxic of its link
    /// in force then), or by the reset or close that ended the connection, with the stretch that
    /// held them until then, if one did.
    private func droppedOnTheWay(_ drop: NetworkRecord.Transfer, life: DeviceLinks.Life, device: String, what: String, link: String?) -> Cause {
        let path = NetworkRecord.Path(proxy: life.proxy, direction: drop.direction)
        if drop.detail?.hasPrefix("a toxic") == true,
            let toxic = network.spans.last(where: { path.crosses($0) && ($0.kind.hasPrefix("blackhole") || $0.kind.hasPrefix("toxic")) && $0.start <= drop.at + 0.0005 && $0.end >= drop.at - 0.0005 })
        {
            return Cause(
                text: "\(what): \(drop.bytes) B were discarded at \(Self.time(drop.at)) s by \(span(toxic)) on \(device)'s connection \(life.number)",
                fault: fault(of: toxic), networkTouched: true, link: link)
        }
        let hold = holding(life, drop.direction, at: drop.at, looking: 3600).flatMap { $0.end >= life.opened ? $0 : nil }
        var text = "\(what): \(drop.bytes) B were dropped at \(Self.time(drop.at)) s when \(device)'s connection \(life.number) " + (life.ending ?? "ended")
        if let hold, life.resetBy == nil { text += ", after \(span(hold)) held them" }
        let because = life.resetBy ?? hold.flatMap(fault(of:))
        return Cause(text: text, fault: because, networkTouched: true, link: link)
    }

    /// A connection's end as the cause: the fault that reset it, or the stretch that held its
    /// link just before it closed.
    private func broke(_ life: DeviceLinks.Life, device: String, text: String, link: String?) -> Cause {
        if let resetBy = life.resetBy { return Cause(text: text, fault: resetBy, networkTouched: true, link: link) }
        let hold = life.closed.flatMap { closed in
            network.spans.last { $0.down && $0.proxy == life.proxy && $0.start <= closed && $0.end >= closed - 30 }
        }
        if let hold { return Cause(text: text + ", after \(span(hold))", fault: fault(of: hold), networkTouched: true, link: link) }
        return Cause(text: text, fault: nil, networkTouched: life.reset, link: link)
    }

    /// `fault 11's outage 1.672–4.640 s on alice`, `the profile's outage …`.
    private func span(_ span: NetworkRecord.Span) -> String {
        let range = "\(Self.time(span.start))–\(Self.time(span.end)) s on \(span.proxy)"
        guard let origin = span.origin else { return "\(span.kind) \(range)" }
        return "\(origin)'s \(span.kind) \(range)"
    }

    private func fault(of span: NetworkRecord.Span) -> String? {
        span.origin.flatMap { $0.hasPrefix("fault ") ? $0 : nil }
    }

    static func time(_ seconds: Double) -> String {
        String(format: "%.3f", seconds)
    }
}
