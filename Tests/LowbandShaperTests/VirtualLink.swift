import LowbandShaper

/// Drives a ``NetworkShaper`` in virtual time the way the proxy does in real time: bulk senders
/// submit chunks until told to stop, the loop jumps to `nextWakeup`, and every action is
/// recorded with the instant it came out.
struct VirtualLink {
    struct Delivery: Equatable {
        var time: ShaperInstant
        var id: ConnectionID
        var direction: Direction
        var bytes: Int
    }

    private struct Sender {
        var id: ConnectionID
        var direction: Direction
        var remaining: Int
        var chunk: Int
        var paused = false
    }

    var shaper: NetworkShaper
    private(set) var time = ShaperInstant.zero
    private(set) var deliveries: [Delivery] = []
    private(set) var resets: [(time: ShaperInstant, id: ConnectionID)] = []
    private(set) var resumes: [(time: ShaperInstant, id: ConnectionID, direction: Direction)] = []
    private(set) var refusals = 0
    /// The most bytes ever queued in each direction, sampled after every submit.
    private(set) var peakQueued: [Direction: Int] = [.upstream: 0, .downstream: 0]
    private var senders: [Sender] = []

    init(_ profile: NetworkProfile, seed: UInt64 = 1, trace: (any ShaperTraceSink)? = nil) {
        shaper = NetworkShaper(profile: profile, seed: seed, trace: trace)
    }

    mutating func open() -> (id: ConnectionID, connectAt: ShaperInstant) {
        shaper.open(at: time)
    }

    /// Starts sending `bytes` on `id` in chunks of `chunk`, now and whenever reading may resume.
    mutating func send(_ bytes: Int, on id: ConnectionID, _ direction: Direction = .downstream, chunk: Int = 16 * 1024) {
        senders.append(Sender(id: id, direction: direction, remaining: bytes, chunk: chunk))
        pump()
    }

    /// Submits one message of `bytes` at the current instant, whatever the queue says.
    @discardableResult
    mutating func submit(_ bytes: Int, on id: ConnectionID, _ direction: Direction = .downstream) -> Bool {
        let accepted = shaper.submit(bytes, on: id, direction, at: time)
        note(direction)
        return accepted
    }

    /// Processes everything up to `limit` (or until nothing is left to do).
    mutating func run(until limit: ShaperInstant? = nil) {
        while let next = shaper.nextWakeup, limit.map({ next <= $0 }) ?? true {
            precondition(next >= time, "nextWakeup went back in time")
            advance(to: next)
        }
        if let limit, limit > time { advance(to: limit) }
    }

    mutating func advance(to instant: ShaperInstant) {
        time = max(time, instant)
        for action in shaper.advance(to: time) {
            switch action {
            case let .deliver(id, direction, bytes):
                deliveries.append(Delivery(time: time, id: id, direction: direction, bytes: bytes))
            case let .resumeReading(id, direction):
                resumes.append((time, id, direction))
                for index in senders.indices where senders[index].id == id && senders[index].direction == direction {
                    senders[index].paused = false
                }
            case let .reset(id):
                resets.append((time, id))
                senders.removeAll { $0.id == id }
            }
        }
        pump()
    }

    mutating func close(_ id: ConnectionID) {
        shaper.close(id, at: time)
        senders.removeAll { $0.id == id }
    }

    /// Bytes delivered on `id` in `direction` (all directions and connections when nil).
    func delivered(on id: ConnectionID? = nil, _ direction: Direction? = nil, from start: ShaperInstant = .zero, to end: ShaperInstant = ShaperInstant(nanoseconds: .max)) -> Int {
        deliveries.filter { delivery in
            (id == nil || delivery.id == id) && (direction == nil || delivery.direction == direction)
                && delivery.time >= start && delivery.time < end
        }.reduce(0) { $0 + $1.bytes }
    }

    /// Reads a chunk from each sender in turn, as an event loop serves readable sockets, until
    /// each is paused or done.
    private mutating func pump() {
        var reading = true
        while reading {
            reading = false
            for index in senders.indices where !senders[index].paused && senders[index].remaining > 0 {
                let chunk = min(senders[index].chunk, senders[index].remaining)
                senders[index].remaining -= chunk
                let accepted = shaper.submit(chunk, on: senders[index].id, senders[index].direction, at: time)
                note(senders[index].direction)
                if accepted {
                    reading = true
                } else {
                    senders[index].paused = true
                    refusals += 1
                }
            }
        }
    }

    private mutating func note(_ direction: Direction) {
        peakQueued[direction] = max(peakQueued[direction] ?? 0, shaper.queuedBytes(direction))
    }
}

/// Profiles built in code for the tests, one figure at a time.
enum TestProfiles {
    static func link(
        rate: LinkRate = .bitsPerSecond(1_000_000), delay: Duration = .milliseconds(100),
        jitter: JitterProfile = .none, loss: LossProfile = .none, queue: Int = 64_000
    ) -> LinkProfile {
        LinkProfile(rate: rate, delay: delay, jitter: jitter, loss: loss, queueBytes: queue)
    }

    /// The same link both ways.
    static func symmetric(_ link: LinkProfile, name: String = "test") -> NetworkProfile {
        NetworkProfile(name: name, summary: "a test link", downlink: link, uplink: link)
    }
}

extension ShaperInstant {
    static func seconds(_ value: Double) -> ShaperInstant {
        ShaperInstant(nanoseconds: Int64((value * 1e9).rounded()))
    }

    static func milliseconds(_ value: Int64) -> ShaperInstant {
        ShaperInstant(nanoseconds: value * 1_000_000)
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }
}

extension Duration {
    var inSeconds: Double { Double(nanosecondsClamped) / 1e9 }
}
