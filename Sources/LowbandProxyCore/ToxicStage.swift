import LowbandDeterminism
import LowbandShaper
import NIOCore

/// What moves through a toxic chain, in stream order.
enum ToxicItem: Hashable {
    /// The next `n` bytes go on.
    case pass(Int)
    /// The next `n` bytes are discarded.
    case drop(Int)
    /// The source ended (FIN): forward it once the bytes before it are delivered.
    case end
    /// A toxic closes the connection once the bytes before it are delivered.
    case close
}

/// What a stage hands on: an item, or an immediate reset of the connection.
enum ToxicOutput: Hashable {
    case item(ToxicItem)
    case reset
}

/// One toxic acting on one direction of one connection: a pure state machine on the proxy's
/// timeline. Like a toxiproxy stub it handles items one after another, so it never reorders;
/// unlike one it computes release instants instead of sleeping.
struct ToxicStage {
    let name: String
    private(set) var effect: ToxicEffect
    /// False when the toxicity roll left this connection unaffected (toxiproxy's noop).
    private(set) var active: Bool
    private var busyUntil: ShaperInstant
    private var scheduled = CircularBuffer<Scheduled>()
    private var timer: Scheduled?
    private var finished = false
    private var transmitted: Int64 = 0
    private var triggered = false

    struct Scheduled: Hashable {
        var at: ShaperInstant
        var output: ToxicOutput
    }

    init(name: String, effect: ToxicEffect, active: Bool, at start: ShaperInstant) {
        self.name = name
        self.effect = effect
        self.active = active
        self.busyUntil = start
        armTimer(at: start)
    }

    var nextWakeup: ShaperInstant? {
        switch (scheduled.first?.at, timer?.at) {
        case let (a?, b?): min(a, b)
        case let (a?, nil): a
        case let (nil, b?): b
        case (nil, nil): nil
        }
    }

    /// Replaces the parameters, as toxiproxy's update does: the toxicity is rolled again and a
    /// timeout restarts from `now`.
    mutating func update(effect: ToxicEffect, active: Bool, at now: ShaperInstant) {
        self.effect = effect
        self.active = active
        if case .timeout = effect { timer = nil }
        if !finished { armTimer(at: now) }
    }

    /// Takes an item that left the previous stage at `time`.
    mutating func ingest(_ item: ToxicItem, at time: ShaperInstant, random: inout SeededGenerator) {
        let start = max(time, busyUntil)
        if finished {
            if case .pass(let count) = item { schedule(.drop(count), at: start) }
            if case .drop = item { schedule(item, at: start) }
            return
        }
        guard active else {
            passThrough(item, at: start)
            return
        }
        switch effect {
        case .latency(let latency, let jitter):
            guard case .pass = item else { return passThrough(item, at: start) }
            var delay = latency.nanosecondsClamped
            let spread = jitter.nanosecondsClamped
            if spread > 0 { delay += Int64.random(in: -spread..<spread, using: &random) }
            passThrough(item, at: max(start, ShaperInstant(nanoseconds: time.nanoseconds + max(delay, 0))))

        case .bandwidth(let rate):
            guard case .pass(let count) = item, rate > 0 else { return passThrough(item, at: start) }
            // Like toxiproxy: a chunk larger than 100 ms of data leaves in 100 ms pieces.
            let piece = max(Int(rate / 10), 1)
            var sent = 0
            while count - sent > piece {
                sent += piece
                schedule(.pass(piece), at: start + transmission(sent, rate))
            }
            let end = start + transmission(count, rate)
            schedule(.pass(count - sent), at: end)
            busyUntil = end

        case .slicer(let average, let variation, let delay):
            guard case .pass(let count) = item else { return passThrough(item, at: start) }
            var sizes: [Int] = []
            Self.slice(count, average: average, variation: variation, random: &random, into: &sizes)
            var at = start
            for size in sizes where size > 0 {
                schedule(.pass(size), at: at)
                at = at + delay
            }
            busyUntil = at

        case .limitData(let limit):
            guard case .pass(let count) = item else { return passThrough(item, at: start) }
            let allowed = Int(min(Int64(count), max(limit - transmitted, 0)))
            if allowed > 0 { schedule(.pass(allowed), at: start) }
            if count > allowed { schedule(.drop(count - allowed), at: start) }
            transmitted += Int64(allowed)
            if limit - transmitted <= 0 {
                schedule(.close, at: start)
                finished = true
            }

        case .timeout:
            switch item {
            case .pass(let count): schedule(.drop(count), at: start)
            case .drop: schedule(item, at: start)
            case .end, .close:
                timer = nil
                schedule(.close, at: start)
                finished = true
            }

        case .resetPeer(let after):
            switch item {
            case .pass(let count): schedule(.drop(count), at: start)
            case .drop: schedule(item, at: start)
            case .end, .close: break
            }
            if case .drop = item { return }
            if !triggered {
                triggered = true
                timer = Scheduled(at: time + after, output: .reset)
            }

        case .slowClose(let delay):
            switch item {
            case .pass, .drop: passThrough(item, at: start)
            case .end, .close: passThrough(item, at: start + delay)
            }
        }
    }

    /// Everything due by `now`, in order, each with the instant it left this stage.
    mutating func due(by now: ShaperInstant, _ body: (Scheduled) -> Void) {
        while true {
            let nextScheduled = scheduled.first.flatMap { $0.at <= now ? $0 : nil }
            let nextTimer = timer.flatMap { $0.at <= now ? $0 : nil }
            if let fired = nextTimer, nextScheduled.map({ fired.at < $0.at }) ?? true {
                timer = nil
                fire(fired, body)
            } else if let entry = nextScheduled {
                scheduled.removeFirst()
                body(entry)
            } else {
                return
            }
        }
    }

    /// Hands on everything held, at `now`, because the toxic is being removed. Like toxiproxy,
    /// removing a timeout toxic closes the connections it held; a pending reset is cancelled.
    mutating func flush(at now: ShaperInstant, _ body: (Scheduled) -> Void) {
        while let entry = scheduled.popFirst() {
            body(Scheduled(at: min(entry.at, now), output: entry.output))
        }
        if active, case .timeout = effect, !finished {
            body(Scheduled(at: now, output: .item(.close)))
        }
        timer = nil
        finished = true
    }

    // MARK: Helpers

    private mutating func passThrough(_ item: ToxicItem, at time: ShaperInstant) {
        schedule(item, at: time)
        if item == .end || item == .close { finished = true }
    }

    private mutating func schedule(_ item: ToxicItem, at time: ShaperInstant) {
        let at = max(time, busyUntil)
        busyUntil = at
        scheduled.append(Scheduled(at: at, output: .item(item)))
    }

    /// A timer's close or reset ends the stage: later bytes are dropped.
    private mutating func fire(_ entry: Scheduled, _ body: (Scheduled) -> Void) {
        finished = true
        body(entry)
    }

    private mutating func armTimer(at start: ShaperInstant) {
        if active, case .timeout(let after?) = effect {
            timer = Scheduled(at: start + after, output: .item(.close))
        }
    }

    private func transmission(_ bytes: Int, _ bytesPerSecond: Int64) -> Duration {
        .nanoseconds(Int64((Double(bytes) * 1e9 / Double(bytesPerSecond)).rounded()))
    }

    /// Toxiproxy's slicer: halve recursively, moving each cut by up to ± `variation`, until a
    /// piece is within `variation` of `average`.
    private static func slice(
        _ count: Int, average: Int, variation: Int, random: inout SeededGenerator, into sizes: inout [Int]
    ) {
        if count - average <= variation {
            sizes.append(count)
            return
        }
        var middle = count / 2
        if variation > 0 { middle += Int.random(in: -variation..<variation, using: &random) }
        middle = min(max(middle, 1), count - 1)
        slice(middle, average: average, variation: variation, random: &random, into: &sizes)
        slice(count - middle, average: average, variation: variation, random: &random, into: &sizes)
    }
}
