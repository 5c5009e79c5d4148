/// The trace lines around a moment that concern one client or chat, for a violation's context.
///
/// Trace lines start with `{"t_ns":N,` and come in time order (the shaper's and the client
/// events' lines are written as they happen), so the moment is found by bisection. Nothing here
/// trusts that order, the trace's indices or the moment: the bisection and both windows are
/// made of the collection's own indices, clamped with `limitedBy:`, so any input (empty,
/// unsorted, a slice whose indices do not start at 0, a non-finite or huge `seconds`) gives
/// some excerpt, never a trap.
enum TraceExcerpt {
    /// Lines scanned on each side of the moment.
    static let window = 2_000

    static func lines<Trace: RandomAccessCollection<String>>(
        near seconds: Double, client: Int?, chat: Int64?, in trace: Trace, limit: Int = 12
    ) -> [String] {
        let target = nanoseconds(seconds)
        // The first line at or after the moment: each probe is an index of `trace` strictly
        // between `low` and `low + count`, which never leaves `startIndex ..< endIndex`.
        var low = trace.startIndex
        var count = trace.count
        while count > 0 {
            let half = count / 2
            let middle = trace.index(low, offsetBy: half)
            if (time(of: trace[middle]) ?? 0) < target {
                low = trace.index(after: middle)
                count -= half + 1
            } else {
                count = half
            }
        }
        let needles = [client.map { "\"client\":\($0)," }, chat.map { "\"chat\":\($0)," }].compactMap { $0 }
        func relevant(_ line: String) -> Bool {
            needles.isEmpty || needles.contains { line.contains($0) }
        }
        // Up to `limit` relevant lines, most of them before the moment, within `window` lines
        // each way (slices of `trace`, cut with limitedBy: never past either end).
        let earliest = trace.index(low, offsetBy: -window, limitedBy: trace.startIndex) ?? trace.startIndex
        let latest = trace.index(low, offsetBy: window + 1, limitedBy: trace.endIndex) ?? trace.endIndex
        let wanted = max(0, limit)
        let earlier = wanted / 3 * 2 + wanted % 3 * 2 / 3  // wanted * 2 / 3, without overflowing
        let before = Array(trace[earliest ..< low].reversed().lazy.filter(relevant).prefix(earlier))
        let after = trace[low ..< latest].lazy.filter(relevant).prefix(wanted - before.count)
        return before.reversed() + after
    }

    /// `seconds` as nanoseconds, clamped: NaN is 0 and anything beyond Int64 is its bound
    /// (`Int64(_:)` of a Double traps on both).
    static func nanoseconds(_ seconds: Double) -> Int64 {
        let scaled = seconds * 1e9
        guard !scaled.isNaN else { return 0 }
        // 2^63 is exactly representable; every Double below it converts.
        if scaled >= 9_223_372_036_854_775_808.0 { return .max }
        if scaled < -9_223_372_036_854_775_808.0 { return .min }
        return Int64(scaled)
    }

    /// The `t_ns` of a trace line.
    static func time(of line: String) -> Int64? {
        let prefix = "{\"t_ns\":"
        guard line.hasPrefix(prefix) else { return nil }
        var value: Int64 = 0
        var negative = false
        for byte in line.utf8.dropFirst(prefix.utf8.count) {
            if byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= 48, byte <= 57 else { break }
            value = value &* 10 &+ Int64(byte - 48)
        }
        return negative ? -value : value
    }
}
