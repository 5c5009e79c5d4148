/// The figures of one direction over time: the base link, or the timeline segment in force.
struct LinkTimeline: Sendable {
    /// The link in force at an instant, which phase it is (0 = base, i + 1 = segment i) and
    /// when that phase ends (nil: never).
    struct Phase {
        var link: LinkProfile
        var index: Int
        var end: Int64?
    }

    private let base: LinkProfile
    private let segments: [(start: Int64, end: Int64, link: LinkProfile)]
    private let loops: Bool
    private let length: Int64

    init(profile: NetworkProfile, direction: Direction) {
        base = profile.link(direction)
        var start: Int64 = 0
        var segments: [(start: Int64, end: Int64, link: LinkProfile)] = []
        for segment in profile.timeline?.segments ?? [] {
            let end = start + segment.duration.nanosecondsClamped
            var link = segment.link(direction)
            link.queueBytes = base.queueBytes
            segments.append((start, end, link))
            start = end
        }
        self.segments = segments
        loops = profile.timeline?.loops ?? false
        length = start
    }

    /// Whether no phase ever limits the rate or loses a piece: the bottleneck then never holds
    /// a piece back, so pieces need not be cut to the MTU.
    var isUnlimitedAndLossless: Bool {
        ([base] + segments.map(\.link)).allSatisfy { link in
            if case .unlimited = link.rate, link.loss.rate <= 0 { return true }
            return false
        }
    }

    /// Whether every phase passes bytes on at once: no rate limit, delay, jitter or loss. A piece
    /// then arrives at the instant it was queued.
    var isInstant: Bool {
        ([base] + segments.map(\.link)).allSatisfy { link in
            if case .unlimited = link.rate, link.delay <= .zero, link.jitter.amount <= .zero, link.loss.rate <= 0 { return true }
            return false
        }
    }

    /// How many phases there are (the base plus each segment).
    var phaseCount: Int { segments.count + 1 }

    func phase(at time: Int64) -> Phase {
        guard length > 0, loops || time < length else { return Phase(link: base, index: 0, end: nil) }
        let offset = loops ? time % length : time
        let cycleStart = time - offset
        var low = 0
        var high = segments.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if segments[middle].start <= offset { low = middle } else { high = middle - 1 }
        }
        return Phase(link: segments[low].link, index: low + 1, end: cycleStart + segments[low].end)
    }
}
