import LowbandDeterminism

/// One outage: nothing moves from `start` until `end` (nil: never again).
struct OutageWindow: Sendable, Hashable {
    var start: Int64
    var end: Int64?
    var kind: OutageProfile.Kind
    /// The device comes back with another address: open flows die so.
    var newAddress: FlowDeath? = nil
}

/// The outages of one `outages:` entry, generated lazily from its own random stream.
///
/// Windows are drawn in sequence (first start, then each duration and gap), so the schedule is
/// a fixed function of the seed however often and in whatever order it is queried. Windows that
/// ended before the shaper's present are dropped, so memory stays bounded.
struct OutageSchedule: Sendable {
    private let profile: OutageProfile
    private var generator: SeededGenerator
    /// Generated windows still of interest, in time order; the earliest may have been traced.
    private(set) var windows: [OutageWindow] = []
    /// The start of the next window not generated yet; nil when there are no more.
    private var upcoming: Int64?
    /// No window starts at or after this instant, and one in force then ends there (the
    /// profile's ``NetworkProfile/healedFrom``); the draws before it are unchanged.
    private let healedFrom: Int64?

    init(_ profile: OutageProfile, generator: SeededGenerator, healedFrom: Int64? = nil) {
        self.profile = profile
        self.generator = generator
        self.healedFrom = healedFrom
        upcoming = self.generator.uniform(in: profile.start)
    }

    /// Generates every window that starts at or before `time`.
    mutating func generate(through time: Int64) {
        while let start = upcoming, start <= time {
            if let healedFrom, start >= healedFrom {
                upcoming = nil
                return
            }
            var end: Int64?
            if let duration = profile.duration {
                end = start + generator.uniform(in: duration)
            }
            if let healedFrom { end = min(end ?? healedFrom, healedFrom) }
            windows.append(OutageWindow(start: start, end: end, kind: profile.kind, newAddress: profile.newAddress))
            upcoming = profile.every.map { start + generator.uniform(in: $0) }
        }
    }

    /// The window covering `time`, if any.
    mutating func window(containing time: Int64) -> OutageWindow? {
        generate(through: time)
        guard let last = windows.last(where: { $0.start <= time }) else { return nil }
        if let end = last.end, end <= time { return nil }
        return last
    }

    /// The first window start after `time`.
    mutating func nextStart(after time: Int64) -> Int64? {
        generate(through: time)
        if let window = windows.first(where: { $0.start > time }) { return window.start }
        return upcoming
    }

    /// Forgets up to `limit` leading windows that ended at or before `time`.
    mutating func forget(endedBy time: Int64, atMost limit: Int) {
        var drop = 0
        while drop < min(limit, windows.count), let end = windows[drop].end, end <= time { drop += 1 }
        if drop > 0 { windows.removeFirst(drop) }
    }
}

/// All outage schedules of a profile together: whether the link is down, and until when.
struct Outages: Sendable {
    private(set) var schedules: [OutageSchedule]
    /// Per schedule, the next boundary to report to the trace: (index into windows, isEnd).
    private var traced: [(window: Int, end: Bool)]

    init(_ profiles: [OutageProfile], generator: SeededGenerator, healedFrom: Int64? = nil) {
        schedules = profiles.enumerated().map { index, profile in
            OutageSchedule(profile, generator: generator.derived(1, UInt64(index)), healedFrom: healedFrom)
        }
        traced = Array(repeating: (0, false), count: profiles.count)
    }

    /// The first instant at or after `time` when no outage is in force; nil if that never comes.
    mutating func clear(from time: Int64) -> Int64? {
        var time = time
        var moved = true
        while moved {
            moved = false
            for index in schedules.indices {
                if let window = schedules[index].window(containing: time) {
                    guard let end = window.end else { return nil }
                    time = end
                    moved = true
                }
            }
        }
        return time
    }

    /// The first outage start after `time`, over all schedules.
    mutating func nextStart(after time: Int64) -> Int64? {
        var earliest: Int64?
        for index in schedules.indices {
            if let start = schedules[index].nextStart(after: time) {
                earliest = min(earliest ?? start, start)
            }
        }
        return earliest
    }

    /// The outage boundaries at or before `time` not reported yet, in time order (ties by
    /// schedule), for the trace; then forgets windows that are over.
    mutating func boundaries(through time: Int64) -> [(time: Int64, start: Bool, window: OutageWindow)] {
        var result: [(time: Int64, start: Bool, window: OutageWindow)] = []
        for index in schedules.indices { schedules[index].generate(through: time) }
        while true {
            var best: (schedule: Int, time: Int64)?
            for index in schedules.indices {
                guard let boundary = pendingBoundary(index), boundary <= time else { continue }
                if best == nil || boundary < best!.time { best = (index, boundary) }
            }
            guard let best else { break }
            let cursor = traced[best.schedule]
            let window = schedules[best.schedule].windows[cursor.window]
            result.append((best.time, !cursor.end, window))
            traced[best.schedule] = cursor.end ? (cursor.window + 1, false) : (cursor.window, true)
        }
        for index in schedules.indices {
            let before = schedules[index].windows.count
            schedules[index].forget(endedBy: time, atMost: traced[index].window)
            traced[index].window -= before - schedules[index].windows.count
        }
        return result
    }

    private func pendingBoundary(_ index: Int) -> Int64? {
        let cursor = traced[index]
        let windows = schedules[index].windows
        guard cursor.window < windows.count else { return nil }
        return cursor.end ? windows[cursor.window].end : windows[cursor.window].start
    }
}
