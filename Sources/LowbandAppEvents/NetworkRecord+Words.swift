import Foundation

extension NetworkRecord {
    /// What the network did in `from ... to`, in words: `outage 12.0–15.3 s on mqtt (fault 2);
    /// 2 loss stalls (0.8 s); bytes waited for the link for 1.2 s; reset at 14.1 s on mqtt
    /// (connection 3)`, or `nothing: the links delivered`. With `first`, what happened on that
    /// link (the affected device's) comes first, then the rest, each in time order; at most
    /// `most` of them, then how many more. What `excluding` made (`fault 4`: already named as
    /// the cause) is left out.
    public func describe(from: Double, to: Double, first: String? = nil, most: Int = .max, excluding: String? = nil) -> String {
        var parts: [(proxy: String?, at: Double, text: String)] = []
        for span in spans where span.end >= from && span.start <= to && (excluding == nil || span.origin != excluding) {
            let origin = span.origin.map { $0.hasPrefix("fault ") ? " (\($0))" : "" } ?? ""
            parts.append((span.proxy, span.start, "\(span.kind) \(Self.format(span.start))–\(Self.format(span.end)) s on \(span.proxy)\(origin)"))
        }
        let inWindow = stalls.filter { $0.end >= from && $0.start <= to }
        for proxy in Array(Set(inWindow.map(\.proxy))).sorted() {
            let here = inWindow.filter { $0.proxy == proxy }
            let total = here.reduce(0) { $0 + ($1.end - $1.start) }
            parts.append((proxy, here[0].start, "\(here.count) loss stall\(here.count == 1 ? "" : "s") (\(Self.format(total)) s) on \(proxy)"))
        }
        // A packet link's drops (a shell's), counted by cause: `9 packets dropped on shell (loss 6, queue-full 3)`.
        let dropped = packetDrops.filter { $0.kind == "drop" && $0.at >= from && $0.at <= to && (excluding == nil || NetworkRecord.faultTag(in: $0.detail) != excluding) }
        for proxy in Array(Set(dropped.map(\.proxy))).sorted() {
            let here = dropped.filter { $0.proxy == proxy }
            let causes = Dictionary(grouping: here) { $0.detail ?? "dropped" }.map { ($0.key, $0.value.count) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
            let words = causes.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
            parts.append((proxy, here[0].at, "\(here.count) packet\(here.count == 1 ? "" : "s") dropped on \(proxy) (\(words)), \(Self.format(here[0].at))–\(Self.format(here[here.count - 1].at)) s"))
        }
        let queued = covered(queues.map { ($0.start, $0.end) }, from: from, to: to)
        if queued >= 0.05 {
            parts.append((nil, to, "bytes waited for the link for \(Self.format(queued)) s"))
        }
        let resets = instants.filter { $0.kind == "reset" && $0.at >= from && $0.at <= to && (excluding == nil || $0.origin != excluding) }
        for reset in resets.prefix(5) {
            var words = reset.connection.map { ["connection \($0)"] } ?? []
            if let origin = reset.origin, origin.hasPrefix("fault ") { words.append(origin) }
            parts.append((reset.proxy, reset.at, "reset at \(Self.format(reset.at)) s on \(reset.proxy)" + (words.isEmpty ? "" : " (\(words.joined(separator: ", ")))")))
        }
        if resets.count > 5 { parts.append((nil, to, "\(resets.count - 5) more resets")) }
        let closes = instants.filter { $0.kind == "close" && $0.at >= from && $0.at <= to && (excluding == nil || NetworkRecord.faultTag(in: $0.detail) != excluding) }
        if !closes.isEmpty { parts.append((nil, to, "\(closes.count) connection\(closes.count == 1 ? "" : "s") closed")) }
        guard !parts.isEmpty else { return "nothing: the links delivered" }
        let ordered = parts.enumerated().sorted { lhs, rhs in
            let left = first != nil && lhs.element.proxy == first ? 0 : 1
            let right = first != nil && rhs.element.proxy == first ? 0 : 1
            return (left, lhs.offset) < (right, rhs.offset)
        }
        let shown = ordered.prefix(most).map(\.element.text)
        return (shown + (ordered.count > most ? ["\(ordered.count - most) more"] : [])).joined(separator: "; ")
    }
}
