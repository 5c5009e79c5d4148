/// A scheduled fault of a virtual-time run as it was played (or why it was not): the record a
/// verdict's cause names (`fault 3`), and what `--without-faults 3` leaves out.
struct RunFault: Hashable {
    /// Its number in the run's schedule.
    var number: Int
    var kind: FaultKind
    /// When it began, and when it ended (nil: an instant one).
    var start: Duration
    var end: Duration?
    /// The client it acted on; nil: every client (the device's network, the server).
    var client: Int?
    /// The fault in words, without its number: `connection reset of client 1`.
    var words: String
    /// Why it was not played (the client it aimed at was dead); nil when it was.
    var skipped: String?

    /// `fault 3`.
    var name: String { "fault \(number)" }

    /// `fault 3 (connection reset of client 1, at 41.200 s)`, or with its span.
    var described: String {
        "\(name) (\(words), \(when))"
    }

    /// `fault 3: connection reset of client 1, at 41.200 s`: its line in faults.txt.
    var line: String {
        "\(name): \(words), \(when)"
    }

    private var when: String {
        end.map { "\(Self.words(start))–\(Self.words($0)) s" } ?? "at \(Self.words(start)) s"
    }

    /// Whether it acted on `client`'s link or app.
    func touches(_ client: Int) -> Bool {
        skipped == nil && (self.client == nil || self.client == client)
    }

    /// Whether it was in force at `time` (an instant one: within a millisecond of it).
    func covers(_ time: Duration) -> Bool {
        guard let end else { return abs((time - start).nanosecondsClamped) <= 1_000_000 }
        return time >= start - .milliseconds(1) && time <= end + .milliseconds(1)
    }

    static func words(_ time: Duration) -> String {
        String(format: "%.3f", Double(time.nanosecondsClamped) / 1e9)
    }
}

extension PlannedFault {
    /// The fault in words, for the record: `app kill of client 1 for 12.3 s`.
    var words: String {
        let length = String(format: "%.1f s", Double(self.length.nanosecondsClamped) / 1e9)
        let of = client.map { " of client \($0)" } ?? ""
        switch kind {
        case .outage: return "outage of every link for \(length)"
        case .handover: return "handover of every link for \(length)"
        case .reset: return "reset of every connection"
        case .serverRestart: return "server down for \(length)"
        case .appKill: return "app kill\(of) for \(length)"
        case .appSuspend: return "app suspended\(of) for \(length)"
        case .clockSkew: return "clock skew\(of) by \(String(format: "%.0f s", Double(skew.nanosecondsClamped) / 1e9))"
        case .connectionReset: return "connection reset\(of)"
        case .partition: return "partition of \(direction.rawValue) for \(length)"
        case .natExpiry: return "NAT expiry\(of)"
        case .addressChange: return "address change of every link after a \(length) handover"
        case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicTimeout, .toxicResetPeer, .toxicLimitData:
            let attributes = self.attributes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "toxic \(kind.rawValue.dropFirst("toxic-".count)) on \(direction.rawValue) (\(attributes)) for \(length)"
        }
    }
}
