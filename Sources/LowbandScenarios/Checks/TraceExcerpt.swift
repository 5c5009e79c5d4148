/// The trace lines around a moment that concern one client or chat, for a violation's context.
///
/// Trace lines start with `{"t_ns":N,` and come in time order (the shaper's and the client
/// events' lines are written as they happen), so the moment is found by bisection.
enum TraceExcerpt {
    static func lines(near seconds: Double, client: Int?, chat: Int64?, in trace: [String], limit: Int = 12) -> [String] {
        guard !trace.isEmpty else { return [] }
        let target = Int64(seconds * 1e9)
        var low = 0
        var high = trace.count
        while low < high {
            let middle = (low + high) / 2
            if (time(of: trace[middle]) ?? 0) < target { low = middle + 1 } else { high = middle }
        }
        let needles = [client.map { "\"client\":\($0)," }, chat.map { "\"chat\":\($0)," }].compactMap { $0 }
        func relevant(_ line: String) -> Bool {
            needles.isEmpty || needles.contains { line.contains($0) }
        }
        // Up to `limit` relevant lines, most of them before the moment, within 2,000 lines each way.
        var before: [String] = []
        var index = low - 1
        while index >= 0, low - index <= 2_000, before.count < limit * 2 / 3 {
            if relevant(trace[index]) { before.append(trace[index]) }
            index -= 1
        }
        var after: [String] = []
        index = low
        while index < trace.count, index - low <= 2_000, before.count + after.count < limit {
            if relevant(trace[index]) { after.append(trace[index]) }
            index += 1
        }
        return before.reversed() + after
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
