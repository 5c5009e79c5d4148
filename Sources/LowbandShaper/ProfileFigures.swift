/// One resolved figure of a profile, printed in the file's units, with its source.
public struct ProfileFigure: Sendable, Hashable {
    /// The figure's path, as in the file: `downlink.loss.rate`.
    public var key: String
    /// The value as a person writes it: `150 kbit/s`, `400 ms`, `0.5%`.
    public var value: String
    /// The citation covering it (its own or its section's); nil when the file gives none.
    public var source: String?

    /// A figure at `key` printed as `value`, with its citation.
    package init(key: String, value: String, source: String?) {
        self.key = key
        self.value = value
        self.source = source
    }
}

extension NetworkProfile {
    /// Every figure that shapes traffic, in a fixed order (the file's layout), with its source.
    ///
    /// Figures that do nothing are left out: jitter details without jitter, loss details without
    /// loss. A timeline segment lists only what differs from the base link.
    public var figures: [ProfileFigure] {
        var list: [ProfileFigure] = []
        func add(_ key: String, _ value: String) {
            list.append(ProfileFigure(key: key, value: value, source: source(for: key)))
        }
        add("mtu", "\(mtu) B")
        func addOverhead(_ key: String, _ value: String) {
            let fallback = overhead == .tcpIPv4 ? PacketOverhead.defaultSource : nil
            list.append(ProfileFigure(key: key, value: value, source: source(for: key) ?? fallback))
        }
        if overhead == .none {
            addOverhead("overhead", "none (payload only)")
        } else {
            addOverhead("overhead.headers", "\(overhead.headerBytes) B a segment (MSS \(maximumSegmentPayload) B)")
            if overhead.tlsRecordBytes > 0 { addOverhead("overhead.tls", "\(overhead.tlsRecordBytes) B a record") }
            addOverhead("overhead.acks", overhead.acknowledgements ? "every second segment, a lone one after \(Units.formatDuration(overhead.delayedAck.nanosecondsClamped))" : "not charged")
        }
        for (name, link) in [("downlink", downlink), ("uplink", uplink)] {
            for (key, value) in Self.linkFigures(link, base: nil) { add("\(name).\(key)", value) }
            add("\(name).queue", Units.formatBytes(Int64(link.queueBytes)))
        }
        add("connect.delay", Self.range(connectDelay))
        if let dns {
            add("dns.delay", Self.range(dns.delay))
            add("dns.failure", Units.formatPercentage(dns.failure))
        }
        if let radio {
            for (index, state) in radio.states.enumerated() {
                let path = "radio.states[\(index)]"
                add("\(path).name", state.name)
                if let power = state.milliwatts { add("\(path).power", "\(Self.power(power))") }
                if let after = state.demoteAfter { add("\(path).demote-after", Units.formatDuration(after.nanosecondsClamped)) }
                if index > 0 { add("\(path).promotion", Self.range(state.promotion)) }
            }
            if let power = radio.promotionMilliwatts { add("radio.promotion-power", Self.power(power)) }
        }
        if let wakeUp {
            add("wakeup.idle", Units.formatDuration(wakeUp.idle.nanosecondsClamped))
            add("wakeup.delay", Self.range(wakeUp.delay))
        }
        for (index, outage) in outages.enumerated() {
            let path = "outages[\(index)]"
            add("\(path).kind", outage.kind.rawValue)
            add("\(path).start", Self.range(outage.start))
            add("\(path).duration", outage.duration.map(Self.range) ?? "forever")
            if let every = outage.every { add("\(path).every", Self.range(every)) }
            if let death = outage.newAddress { add("\(path).new-address", death == .silent ? "true (open flows die silently)" : "reset (open flows are reset)") }
        }
        if let resets {
            add("resets.probability", Units.formatPercentage(resets.probability))
            if let time = resets.afterTime { add("resets.after-time", Self.range(time)) }
            if let bytes = resets.afterBytes {
                add("resets.after-bytes", Units.formatRange(Int64(bytes.lowerBound) ... Int64(bytes.upperBound), Units.formatBytes))
            }
        }
        if let nat {
            add("nat.idle-timeout", Units.formatDuration(nat.idleTimeout.nanosecondsClamped))
            add("nat.on-expiry", nat.onExpiry.rawValue)
        }
        if let timeline {
            add("timeline.loop", timeline.loops ? "true" : "false")
            for (index, segment) in timeline.segments.enumerated() {
                let path = "timeline.segments[\(index)]"
                if let name = segment.name { add("\(path).name", name) }
                add("\(path).duration", Units.formatDuration(segment.duration.nanosecondsClamped))
                for (name, link, base) in [("downlink", segment.downlink, downlink), ("uplink", segment.uplink, uplink)] {
                    for (key, value) in Self.linkFigures(link, base: base) { add("\(path).\(name).\(key)", value) }
                }
            }
        }
        return list
    }

    /// The figures of a link, or only those differing from `base`.
    private static func linkFigures(_ link: LinkProfile, base: LinkProfile?) -> [(String, String)] {
        var figures: [(String, String)] = []
        func add(_ key: String, _ value: String, _ baseValue: String?) {
            if value != baseValue { figures.append((key, value)) }
        }
        func rate(_ link: LinkProfile) -> (String, String) {
            switch link.rate {
            case .bitsPerSecond(let bits): return ("rate", Units.formatRate(bits))
            case .unlimited: return ("rate", "unlimited")
            case .trace(let trace): return ("trace", "\(trace.file) (mean \(Units.formatRate(Int64(trace.averageBitsPerSecond.rounded()))))")
            }
        }
        func burst(_ value: Duration?) -> String {
            value.map { "fades of \(Units.formatDuration($0.nanosecondsClamped)) on average" } ?? "independent"
        }
        let (rateKey, rateValue) = rate(link)
        add(rateKey, rateValue, base.map { rate($0).1 })
        add("delay", Units.formatDuration(link.delay.nanosecondsClamped), base.map { Units.formatDuration($0.delay.nanosecondsClamped) })
        if link.jitter.amount > .zero {
            add("jitter.amount", Units.formatDuration(link.jitter.amount.nanosecondsClamped), base.map { Units.formatDuration($0.jitter.amount.nanosecondsClamped) })
            add("jitter.distribution", link.jitter.distribution.rawValue, base.map { $0.jitter.distribution.rawValue })
            add("jitter.correlation", Units.formatPercentage(link.jitter.correlation), base.map { Units.formatPercentage($0.jitter.correlation) })
        }
        add("loss.rate", Units.formatPercentage(link.loss.rate), base.map { Units.formatPercentage($0.loss.rate) })
        if link.loss.rate > 0 {
            add("loss.burst", burst(link.loss.burst), base.map { burst($0.loss.burst) })
            add("loss.rto", Units.formatDuration(link.loss.rto.nanosecondsClamped), base.map { Units.formatDuration($0.loss.rto.nanosecondsClamped) })
            add("loss.rto-max", Units.formatDuration(link.loss.maximumRTO.nanosecondsClamped), base.map { Units.formatDuration($0.loss.maximumRTO.nanosecondsClamped) })
        }
        return figures
    }

    private static func power(_ milliwatts: Double) -> String {
        milliwatts == milliwatts.rounded() ? "\(Int64(milliwatts)) mW" : "\(milliwatts) mW"
    }

    private static func range(_ range: ClosedRange<Duration>) -> String {
        Units.formatRange(range.lowerBound.nanosecondsClamped ... range.upperBound.nanosecondsClamped, Units.formatDuration)
    }
}
