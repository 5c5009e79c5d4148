public import LowbandFindings
public import LowbandShaper

extension NetworkRecord {
    /// The part of the network some bytes crossed: one link (proxy), or every link; one
    /// connection of it, or all; one direction, or both. A message's bytes cross their sender's
    /// link upstream, then each recipient's link downstream.
    public struct Path: Sendable, Hashable {
        /// The link, or nil for every link.
        public var proxy: String?
        /// The connection, or nil for every connection of the link.
        public var connection: Int?
        /// The direction, or nil for both.
        public var direction: Direction?

        /// A path with the parts given; nothing given is every link, both ways.
        public init(proxy: String? = nil, connection: Int? = nil, direction: Direction? = nil) {
            self.proxy = proxy
            self.connection = connection
            self.direction = direction
        }

        /// Every link, every connection, both ways.
        public static let anywhere = Path()

        /// Whether `span` held or slowed bytes on this path: its link, and its direction where
        /// it has one (`partition upstream` holds only what goes up; an outage holds both ways).
        public func crosses(_ span: Span) -> Bool {
            guard proxy == nil || span.proxy == proxy else { return false }
            guard let direction else { return true }
            let last = span.kind.split(separator: " ").last.map(String.init)
            return last != "upstream" && last != "downstream" || last == direction.rawValue
        }

        /// Whether `hold` held bytes of this path.
        public func crosses(_ hold: Hold) -> Bool {
            (proxy == nil || hold.proxy == proxy)
                && (connection == nil || hold.connection == nil || hold.connection == connection)
                && (direction == nil || hold.direction == nil || hold.direction == direction)
        }

        /// Whether `transfer` moved bytes of this path.
        public func crosses(_ transfer: Transfer) -> Bool {
            (proxy == nil || transfer.proxy == proxy)
                && (connection == nil || transfer.connection == connection)
                && (direction == nil || transfer.direction == direction)
        }
    }

    /// The transfers of `path` from `start` on, in time order: for a path naming its link,
    /// connection and direction, a binary search in that connection's own transfers (once the
    /// record is finished); otherwise a filter of the session's.
    public func transfers(on path: Path, from start: Double) -> ArraySlice<Transfer> {
        let exact = path.proxy != nil && path.connection != nil && path.direction != nil
        if exact, !transfersByPath.isEmpty || transfers.isEmpty {
            let own = transfersByPath[path] ?? []
            return own[Self.firstIndex(of: own, from: start)...]
        }
        return ArraySlice(transfers[Self.firstIndex(of: transfers, from: start)...].filter(path.crosses))
    }

    /// The index of the first of `transfers` (in time order) at or after `start`.
    private static func firstIndex(of transfers: [Transfer], from start: Double) -> Int {
        var low = 0
        var high = transfers.count
        while low < high {
            let middle = (low + high) / 2
            if transfers[middle].at < start { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Seconds of `from ..< to` in which `path` was down: an outage, a handover, a partition or
    /// a blackhole of its link and direction (overlaps counted once).
    public func downTime(from: Double, to: Double, on path: Path = .anywhere) -> Double {
        covered(downRanges(path), from: from, to: to)
    }

    /// Seconds of `from ..< to` in which `path`'s bytes stalled on a lost piece, outside its
    /// down time.
    public func stallTime(from: Double, to: Double, on path: Path = .anywhere) -> Double {
        let down = downRanges(path)
        let both = covered(down + stalls.filter(path.crosses).map { ($0.start, $0.end) }, from: from, to: to)
        return max(0, both - covered(down, from: from, to: to))
    }

    /// Seconds of `from ..< to` in which `path`'s bytes waited in its link's queue, outside its
    /// down time and loss stalls.
    public func queueTime(from: Double, to: Double, on path: Path = .anywhere) -> Double {
        let before = downRanges(path) + stalls.filter(path.crosses).map { ($0.start, $0.end) }
        let all = covered(before + queues.filter(path.crosses).map { ($0.start, $0.end) }, from: from, to: to)
        return max(0, all - covered(before, from: from, to: to))
    }

    private func downRanges(_ path: Path) -> [(Double, Double)] {
        spans.filter { $0.down && path.crosses($0) }.map { ($0.start, $0.end) }
    }

    /// Seconds of `from ..< to` that `ranges` cover, overlaps counted once.
    func covered(_ ranges: [(Double, Double)], from: Double, to: Double) -> Double {
        guard to > from else { return 0 }
        return Stretches(ranges.map { $0.0 ..< max($0.0, $0.1) }).covered(from ..< to)
    }
}
