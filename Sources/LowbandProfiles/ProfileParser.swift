import LowbandBasics
import LowbandShaper
import Yams

/// Turns the YAML of a profile file into a `NetworkProfile`, checking every key and value.
///
/// The file is walked as a YAML node tree (never decoded into dictionaries), so unknown keys,
/// duplicates and bad values are reported with their path (`downlink.loss`) and line.
/// Any figure may be written plainly (`rate: 150kbit`) or with its citation
/// (`rate: {value: 150kbit, source: "…"}`); any section may carry a `source:` covering its figures.
struct ProfileParser {
    let file: String
    /// Where relative trace paths are resolved from.
    let directory: String
    private(set) var sources: [ProfileSource] = []

    init(file: String, directory: String) {
        self.file = file
        self.directory = directory
    }

    /// Parses a whole profile file.
    mutating func parse(yaml: String, name: String) throws(ProfileError) -> NetworkProfile {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
            let key = duplicates.first ?? "?"
            throw ProfileError(.duplicateKey, file: file, key: key, line: context.mark.line, reason: "'\(key)' is given twice in one mapping; keep one")
        } catch {
            throw ProfileError(.invalidYAML, file: file, reason: "not valid YAML: \("\(error)".split(whereSeparator: \.isNewline).first ?? "")")
        }
        guard let root else {
            throw ProfileError(.invalidYAML, file: file, reason: "the file is empty; a profile needs at least description, downlink and uplink")
        }
        let fields = try Fields(root, path: "", parser: self, allowed: ["description", "group", "mtu", "overhead", "nat", "downlink", "uplink", "connect", "dns", "wakeup", "radio", "outages", "resets", "timeline", "source"])
        record(fields)
        let summary = try text(fields.required("description"), key: "description")
        var mtu = 1500
        if let node = fields["mtu"] {
            let value = try figure(node, "mtu", Units.bytes)
            guard (1 ... 65_535).contains(value) else { throw failure(node, "mtu", "mtu must be between 1 and 65535 bytes (got \(value))") }
            mtu = Int(value)
        }
        let downlink = try link(fields.required("downlink"), path: "downlink", base: nil)
        let uplink = try link(fields.required("uplink"), path: "uplink", base: nil)
        var profile = NetworkProfile(name: name, summary: summary, mtu: mtu, downlink: downlink, uplink: uplink, file: file)
        if let node = fields["group"] { profile.group = try text(node, key: "group") }
        profile.overhead = .tcpIPv4
        if let node = fields["overhead"] { profile.overhead = try overhead(node) }
        if profile.overhead.headerBytes >= mtu {
            throw failure(fields["overhead"] ?? fields["mtu"] ?? root, "overhead", "the headers (\(profile.overhead.headerBytes) bytes a segment) leave no payload in an MTU of \(mtu) bytes")
        }
        if let node = fields["connect"] {
            let connect = try Fields(node, path: "connect", parser: self, allowed: ["delay", "source"])
            record(connect)
            if let delay = connect["delay"] {
                profile.connectDelay = try durationRange(delay, "connect.delay")
            }
        }
        if let node = fields["dns"] {
            let dns = try Fields(node, path: "dns", parser: self, allowed: ["delay", "failure", "source"])
            record(dns)
            var model = DNSProfile()
            if let delay = dns["delay"] { model.delay = try durationRange(delay, "dns.delay") }
            if let failure = dns["failure"] {
                model.failure = try figure(failure, "dns.failure", Units.percentage)
                guard model.failure < 1 else { throw self.failure(failure, "dns.failure", "a lookup that always fails leaves no network: give less than 100%") }
            }
            profile.dns = model
        }
        if let node = fields["wakeup"] { profile.wakeUp = try wakeUp(node) }
        if let node = fields["radio"] {
            if fields["wakeup"] != nil {
                throw failure(node, "radio", "give radio or wakeup, not both: radio's states replace wakeup's fixed delay")
            }
            profile.radio = try radio(node)
        }
        if let node = fields["outages"] { profile.outages = try outages(node) }
        if let node = fields["resets"] { profile.resets = try resets(node) }
        if let node = fields["nat"] { profile.nat = try nat(node, roundTrip: downlink.delay + uplink.delay) }
        if let node = fields["timeline"] { profile.timeline = try timeline(node, downlink: downlink, uplink: uplink) }
        profile.sources = sources
        return profile
    }

    // MARK: Sections

    private mutating func link(_ node: Node, path: String, base: LinkProfile?) throws(ProfileError) -> LinkProfile {
        let inSegment = base != nil
        let allowed = inSegment ? ["rate", "trace", "delay", "jitter", "loss", "source"] : ["rate", "trace", "delay", "jitter", "loss", "queue", "source"]
        let fields = try Fields(node, path: path, parser: self, allowed: allowed)
        record(fields)
        var link = base ?? LinkProfile(rate: .unlimited)
        switch (fields["rate"], fields["trace"]) {
        case let (rate?, nil):
            link.rate = try figure(rate, "\(path).rate") { (text: String) throws(Units.Failure) in
                text == "unlimited" ? .unlimited : .bitsPerSecond(try Units.rate(text))
            }
        case let (nil, trace?):
            let tracePath = try figureText(trace, "\(path).trace")
            let resolved = tracePath.hasPrefix("/") ? tracePath : "\(directory)/\(tracePath)"
            link.rate = .trace(try MahimahiTrace(contentsOf: resolved))
        case let (rate?, _?):
            throw failure(rate, "\(path).rate", "give either rate or trace, not both")
        case (nil, nil):
            if !inSegment { throw missing(fields, "\(path).rate", "the bottleneck rate (e.g. rate: 150kbit, or trace: file.trace for a Mahimahi trace)") }
        }
        if let delay = fields["delay"] {
            link.delay = .nanoseconds(try figure(delay, "\(path).delay", Units.duration))
        } else if !inSegment {
            throw missing(fields, "\(path).delay", "the one-way base delay (e.g. delay: 200ms)")
        }
        if let queue = fields["queue"] {
            let bytes = try figure(queue, "\(path).queue", Units.bytes)
            guard bytes > 0 else { throw failure(queue, "\(path).queue", "the queue must hold at least one byte") }
            link.queueBytes = Int(bytes)
        } else if !inSegment {
            throw missing(fields, "\(path).queue", "the bottleneck queue size (e.g. queue: 30KB)")
        }
        if let node = fields["jitter"] { link.jitter = try jitter(node, path: "\(path).jitter", base: link.jitter) }
        if let node = fields["loss"] { link.loss = try loss(node, path: "\(path).loss", base: link.loss) }
        return link
    }

    private mutating func jitter(_ node: Node, path: String, base: JitterProfile) throws(ProfileError) -> JitterProfile {
        var jitter = base
        guard !isFigure(node) else {
            jitter.amount = .nanoseconds(try figure(node, path, Units.duration))
            return jitter
        }
        let fields = try Fields(node, path: path, parser: self, allowed: ["amount", "distribution", "correlation", "source"])
        record(fields)
        if let amount = fields["amount"] {
            jitter.amount = .nanoseconds(try figure(amount, "\(path).amount", Units.duration))
        }
        if let node = fields["distribution"] {
            let name = try text(node, key: "\(path).distribution")
            guard let distribution = JitterDistribution(rawValue: name) else {
                throw failure(node, "\(path).distribution", "unknown distribution '\(name)'; use uniform, normal or pareto")
            }
            jitter.distribution = distribution
        }
        if let node = fields["correlation"] {
            let value = try figure(node, "\(path).correlation", Units.percentage)
            guard value < 1 else { throw failure(node, "\(path).correlation", "correlation must be below 100% (got \(Units.formatPercentage(value)))") }
            jitter.correlation = value
        }
        return jitter
    }

    private mutating func loss(_ node: Node, path: String, base: LossProfile) throws(ProfileError) -> LossProfile {
        var loss = base
        guard !isFigure(node) else {
            loss.rate = try figure(node, path, Units.percentage)
            return loss
        }
        let fields = try Fields(node, path: path, parser: self, allowed: ["rate", "burst", "rto", "rto-max", "source"])
        record(fields)
        if let node = fields["rate"] { loss.rate = try figure(node, "\(path).rate", Units.percentage) }
        if let node = fields["burst"] { loss.burst = try burst(node, "\(path).burst") }
        if let node = fields["rto"] {
            let rto = try figure(node, "\(path).rto", Units.duration)
            guard rto > 0 else { throw failure(node, "\(path).rto", "the retransmission timeout must be positive") }
            loss.rto = .nanoseconds(rto)
        }
        if let node = fields["rto-max"] {
            loss.maximumRTO = .nanoseconds(try figure(node, "\(path).rto-max", Units.duration))
        }
        if loss.maximumRTO < loss.rto {
            throw failure(fields["rto-max"] ?? node, "\(path).rto-max", "rto-max (\(Units.formatDuration(loss.maximumRTO.nanosecondsClamped))) is below rto (\(Units.formatDuration(loss.rto.nanosecondsClamped)))")
        }
        return loss
    }

    /// What bytes cost beyond their payload: `none`, or `{ip: ipv4|ipv6, timestamps: true|false,
    /// tls: 22B, acks: true|false, delayed-ack: 40ms}` (each key optional; ipv4 with timestamps,
    /// no TLS, acknowledgements after 40 ms by default).
    private mutating func overhead(_ node: Node) throws(ProfileError) -> PacketOverhead {
        if case .scalar(let scalar) = node {
            guard scalar.string == "none" else { throw failure(node, "overhead", "write none (payload only) or a mapping such as {ip: ipv6, tls: 22B}") }
            return .none
        }
        let fields = try Fields(node, path: "overhead", parser: self, allowed: ["ip", "timestamps", "tls", "acks", "delayed-ack", "source"])
        record(fields)
        var ipBytes = 20
        if let node = fields["ip"] {
            switch try text(node, key: "overhead.ip") {
            case "ipv4": ipBytes = 20
            case "ipv6": ipBytes = 40
            case let other: throw failure(node, "overhead.ip", "unknown IP version '\(other)'; use ipv4 or ipv6")
            }
        }
        var timestamps = true
        if let node = fields["timestamps"] { timestamps = try flag(node, "overhead.timestamps") }
        var overhead = PacketOverhead(headerBytes: ipBytes + 20 + (timestamps ? 12 : 0))
        if let node = fields["tls"] {
            let bytes = try figure(node, "overhead.tls", Units.bytes)
            guard bytes <= 1024 else { throw failure(node, "overhead.tls", "a TLS record adds tens of bytes (22 for TLS 1.3 with AES-GCM), not \(bytes)") }
            overhead.tlsRecordBytes = Int(bytes)
        }
        if let node = fields["acks"] { overhead.acknowledgements = try flag(node, "overhead.acks") }
        if let node = fields["delayed-ack"] {
            let delay = try figure(node, "overhead.delayed-ack", Units.duration)
            guard delay > 0, delay < 500_000_000 else { throw failure(node, "overhead.delayed-ack", "the delayed-ACK time must be above 0 and below 500ms (RFC 1122 §4.2.3.2)") }
            overhead.delayedAck = .nanoseconds(delay)
        }
        return overhead
    }

    /// The carrier's NAT: `{idle-timeout: 5m, on-expiry: silent|reset}`; the timeout must
    /// outlast a round trip, or no exchange could finish.
    private mutating func nat(_ node: Node, roundTrip: Duration) throws(ProfileError) -> NATProfile {
        let fields = try Fields(node, path: "nat", parser: self, allowed: ["idle-timeout", "on-expiry", "source"])
        record(fields)
        let timeoutNode = try fields.required("idle-timeout")
        let timeout = try figure(timeoutNode, "nat.idle-timeout", Units.duration)
        guard timeout > roundTrip.nanosecondsClamped else {
            throw failure(timeoutNode, "nat.idle-timeout", "a NAT that forgets a flow within one round trip (\(Units.formatDuration(roundTrip.nanosecondsClamped)) here) lets no exchange finish; give a longer timeout")
        }
        var nat = NATProfile(idleTimeout: .nanoseconds(timeout))
        if let node = fields["on-expiry"] {
            let name = try text(node, key: "nat.on-expiry")
            guard let death = FlowDeath(rawValue: name) else { throw failure(node, "nat.on-expiry", "unknown '\(name)'; use silent (packets vanish) or reset") }
            nat.onExpiry = death
        }
        return nat
    }

    private func flag(_ node: Node, _ key: String) throws(ProfileError) -> Bool {
        switch try text(node, key: key) {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw failure(node, key, "write true or false, not '\(other)'")
        }
    }

    /// A loss burst: the mean length of a fade (`300ms`), or `1` / `independent` for losses
    /// that are independent. A count of pieces above 1 (what `burst` meant before fades were
    /// intervals of time) is refused with what to write instead.
    private mutating func burst(_ node: Node, _ key: String) throws(ProfileError) -> Duration? {
        let raw = try figureText(node, key)
        if raw == "independent" || Double(raw) == 1 { return nil }
        if Double(raw) != nil {
            throw failure(node, key, "burst is the mean length of a fade in time, such as 300ms, no longer a count of pieces; '\(raw)' has no unit: write the fade's length, or 1 (or independent) for independent losses")
        }
        let length: Int64
        do {
            length = try Units.duration(raw)
        } catch {
            throw failure(node, key, error.reason)
        }
        guard length > 0 else { throw failure(node, key, "a fade must last longer than 0; write 1 or independent for independent losses") }
        return .nanoseconds(length)
    }

    private mutating func wakeUp(_ node: Node) throws(ProfileError) -> WakeUpProfile {
        let fields = try Fields(node, path: "wakeup", parser: self, allowed: ["idle", "delay", "source"])
        record(fields)
        let idleNode = try fields.required("idle")
        let idle = try figure(idleNode, "wakeup.idle", Units.duration)
        guard idle > 0 else { throw failure(idleNode, "wakeup.idle", "the idle time before the radio sleeps must be positive") }
        let delay = try durationRange(fields.required("delay"), "wakeup.delay")
        return WakeUpProfile(idle: .nanoseconds(idle), delay: delay)
    }

    /// A state's small-transfer thresholds: `500B` for both directions, or `{uplink: 540B,
    /// downlink: 475B}`; each positive.
    private mutating func carried(_ node: Node, _ path: String) throws(ProfileError) -> RadioProfile.Carried {
        func threshold(_ node: Node, _ key: String) throws(ProfileError) -> Int {
            let bytes = try figure(node, key, Units.bytes)
            guard bytes > 0, bytes <= 1 << 30 else { throw failure(node, key, "a threshold is a positive number of bytes, at most 1GB") }
            return Int(bytes)
        }
        guard case .mapping = node else {
            let both = try threshold(node, path)
            return RadioProfile.Carried(uplink: both, downlink: both)
        }
        let fields = try Fields(node, path: path, parser: self, allowed: ["uplink", "downlink", "source"])
        record(fields)
        return RadioProfile.Carried(
            uplink: try threshold(try fields.required("uplink"), "\(path).uplink"),
            downlink: try threshold(try fields.required("downlink"), "\(path).downlink"))
    }

    /// The radio's ladder of power states, top first: `{promotion-power: 1210mW, states: [{name,
    /// power, demote-after, promotion}, …]}`. Every state but the last drops after its
    /// `demote-after`; the last rests; every state but the first has a promotion to the top.
    private mutating func radio(_ node: Node) throws(ProfileError) -> RadioProfile {
        let fields = try Fields(node, path: "radio", parser: self, allowed: ["technology", "promotion-power", "states", "source"])
        record(fields)
        let statesNode = try fields.required("states")
        guard case .sequence(let sequence) = statesNode, sequence.count >= 2 else {
            throw failure(statesNode, "radio.states", "states is a list of at least two power states, the top (where data moves) first")
        }
        var states: [RadioProfile.State] = []
        for (index, entry) in sequence.enumerated() {
            let path = "radio.states[\(index)]"
            let state = try Fields(entry, path: path, parser: self, allowed: ["name", "power", "demote-after", "promotion", "carries", "source"])
            record(state)
            let name = try text(state.required("name"), key: "\(path).name")
            let power = try state["power"].map { node throws(ProfileError) in try figure(node, "\(path).power", Units.milliwatts) }
            var demoteAfter: Duration?
            if let node = state["demote-after"] {
                let after = try figure(node, "\(path).demote-after", Units.duration)
                guard after > 0 else { throw failure(node, "\(path).demote-after", "an inactivity timer must be positive") }
                guard index < sequence.count - 1 else {
                    throw failure(node, "\(path).demote-after", "the last state has nowhere to drop to: a radio whose bottom state times out never rests; remove demote-after here")
                }
                demoteAfter = .nanoseconds(after)
            } else if index < sequence.count - 1 {
                throw failure(entry, "\(path).demote-after", "missing; every state but the last drops to the next after its inactivity timer")
            }
            var promotion: ClosedRange<Duration> = .zero ... .zero
            if let node = state["promotion"] {
                guard index > 0 else { throw failure(node, "\(path).promotion", "the top state is where data moves; it needs no promotion") }
                promotion = try durationRange(node, "\(path).promotion")
            } else if index > 0 {
                throw failure(entry, "\(path).promotion", "missing; give the time from this state back to the top, e.g. 2s")
            }
            var carries: RadioProfile.Carried?
            if let node = state["carries"] {
                guard index > 0, index < sequence.count - 1 else {
                    throw failure(
                        node, "\(path).carries",
                        index == 0 ? "the top state carries everything; carries belongs to a lower state that sends small transfers itself (CELL_FACH)" : "the bottom state is where the radio rests, with no channel to carry anything; every transfer from it is promoted")
                }
                carries = try carried(node, "\(path).carries")
            }
            states.append(RadioProfile.State(name: name, milliwatts: power, demoteAfter: demoteAfter, promotion: promotion, carries: carries))
        }
        var radio = RadioProfile(states: states)
        if let node = fields["promotion-power"] { radio.promotionMilliwatts = try figure(node, "radio.promotion-power", Units.milliwatts) }
        let powered = states.filter { $0.milliwatts != nil }.count
        if powered != 0 && powered != states.count {
            throw failure(statesNode, "radio.states", "give every state a power, or none (then no energy is reported)")
        }
        return radio
    }

    private mutating func outages(_ node: Node) throws(ProfileError) -> [OutageProfile] {
        guard case .sequence(let sequence) = node else {
            throw failure(node, "outages", "outages is a list of schedules, each starting with '- '")
        }
        var result: [OutageProfile] = []
        for (index, entry) in sequence.enumerated() {
            let path = "outages[\(index)]"
            let fields = try Fields(entry, path: path, parser: self, allowed: ["kind", "start", "duration", "every", "new-address", "source"])
            record(fields)
            var outage = OutageProfile(start: .zero ... .zero, duration: nil)
            if let node = fields["kind"] {
                let name = try text(node, key: "\(path).kind")
                guard let kind = OutageProfile.Kind(rawValue: name) else {
                    throw failure(node, "\(path).kind", "unknown kind '\(name)'; use blackout or handover")
                }
                outage.kind = kind
            }
            if let node = fields["start"] { outage.start = try durationRange(node, "\(path).start") }
            let durationNode = try fields.required("duration")
            let duration = try figure(durationNode, "\(path).duration") { (text: String) throws(Units.Failure) -> ClosedRange<Int64>? in
                text == "forever" ? nil : try Units.range(text, Units.duration)
            }
            if let duration {
                guard duration.lowerBound > 0 else { throw failure(durationNode, "\(path).duration", "an outage must last longer than 0s") }
                outage.duration = .nanoseconds(duration.lowerBound) ... .nanoseconds(duration.upperBound)
            }
            if let node = fields["every"] {
                let every = try durationRange(node, "\(path).every")
                guard let duration = outage.duration else {
                    throw failure(node, "\(path).every", "an outage lasting forever cannot repeat; remove every or give a duration")
                }
                guard every.lowerBound > duration.upperBound else {
                    throw failure(node, "\(path).every", "every (the time from one start to the next) must exceed the longest duration (\(Units.formatDuration(duration.upperBound.nanosecondsClamped)))")
                }
                outage.every = every
            }
            if let node = fields["new-address"] {
                switch try text(node, key: "\(path).new-address") {
                case "false", "no": outage.newAddress = nil
                case "true", "yes", "silent": outage.newAddress = .silent
                case "reset": outage.newAddress = .reset
                case let other: throw failure(node, "\(path).new-address", "write true (open flows die silently), reset (they die with a reset) or false, not '\(other)'")
                }
            }
            result.append(outage)
        }
        return result
    }

    private mutating func resets(_ node: Node) throws(ProfileError) -> ResetProfile {
        let fields = try Fields(node, path: "resets", parser: self, allowed: ["probability", "after-time", "after-bytes", "source"])
        record(fields)
        var resets = ResetProfile()
        if let node = fields["probability"] { resets.probability = try figure(node, "resets.probability", Units.percentage) }
        if let node = fields["after-time"] {
            let range = try durationRange(node, "resets.after-time")
            guard range.lowerBound > .zero else { throw failure(node, "resets.after-time", "after-time must be positive") }
            resets.afterTime = range
        }
        if let node = fields["after-bytes"] {
            let range = try figure(node, "resets.after-bytes") { (text: String) throws(Units.Failure) in try Units.range(text, Units.bytes) }
            guard range.lowerBound > 0 else { throw failure(node, "resets.after-bytes", "after-bytes must be positive") }
            resets.afterBytes = Int(range.lowerBound) ... Int(range.upperBound)
        }
        guard resets.afterTime != nil || resets.afterBytes != nil else {
            throw missing(fields, "resets.after-time", "when to reset: after-time (e.g. 30s..120s) and/or after-bytes (e.g. 100KB..1MB)")
        }
        return resets
    }

    private mutating func timeline(_ node: Node, downlink: LinkProfile, uplink: LinkProfile) throws(ProfileError) -> ProfileTimeline {
        let fields = try Fields(node, path: "timeline", parser: self, allowed: ["loop", "segments", "source"])
        record(fields)
        var loops = false
        if let node = fields["loop"] {
            let value = try text(node, key: "timeline.loop")
            switch value {
            case "true", "yes": loops = true
            case "false", "no": loops = false
            default: throw failure(node, "timeline.loop", "loop is true or false (got '\(value)')")
            }
        }
        let segmentsNode = try fields.required("segments")
        guard case .sequence(let sequence) = segmentsNode, sequence.count > 0 else {
            throw failure(segmentsNode, "timeline.segments", "segments is a non-empty list, each entry starting with '- '")
        }
        var segments: [ProfileSegment] = []
        for (index, entry) in sequence.enumerated() {
            let path = "timeline.segments[\(index)]"
            let segment = try Fields(entry, path: path, parser: self, allowed: ["name", "duration", "downlink", "uplink", "source"])
            record(segment)
            let name = try segment["name"].map { (node: Node) throws(ProfileError) in try text(node, key: "\(path).name") }
            let durationNode = try segment.required("duration")
            let duration = try figure(durationNode, "\(path).duration", Units.duration)
            guard duration > 0 else { throw failure(durationNode, "\(path).duration", "a segment must last longer than 0s") }
            let segmentDownlink = try segment["downlink"].map { (node: Node) throws(ProfileError) in try link(node, path: "\(path).downlink", base: downlink) } ?? downlink
            let segmentUplink = try segment["uplink"].map { (node: Node) throws(ProfileError) in try link(node, path: "\(path).uplink", base: uplink) } ?? uplink
            segments.append(ProfileSegment(name: name, duration: .nanoseconds(duration), downlink: segmentDownlink, uplink: segmentUplink))
        }
        return ProfileTimeline(loops: loops, segments: segments)
    }

    // MARK: Figures

    /// True when `node` is a figure written as a scalar or as `{value: …, source: …}`.
    private func isFigure(_ node: Node) -> Bool {
        switch node {
        case .scalar: return true
        case .mapping(let mapping): return mapping["value"] != nil
        default: return false
        }
    }

    /// Reads the figure at `node` with `parse`, recording its source when written with one.
    private mutating func figure<Value>(_ node: Node, _ key: String, _ parse: (String) throws(Units.Failure) -> Value) throws(ProfileError) -> Value {
        let raw = try figureText(node, key)
        do {
            return try parse(raw)
        } catch {
            throw failure(node, key, error.reason)
        }
    }

    private mutating func durationRange(_ node: Node, _ key: String) throws(ProfileError) -> ClosedRange<Duration> {
        let range = try figure(node, key) { (text: String) throws(Units.Failure) in try Units.range(text, Units.duration) }
        return .nanoseconds(range.lowerBound) ... .nanoseconds(range.upperBound)
    }

    private mutating func figureText(_ node: Node, _ key: String) throws(ProfileError) -> String {
        switch node {
        case .scalar(let scalar):
            return scalar.string
        case .mapping:
            let fields = try Fields(node, path: key, parser: self, allowed: ["value", "source"])
            if let source = fields["source"] {
                sources.append(ProfileSource(key: key, text: try text(source, key: "\(key).source")))
            }
            return try text(fields.required("value"), key: key)
        default:
            throw failure(node, key, "expected a value like 150kbit or {value: 150kbit, source: \"…\"}")
        }
    }

    private func text(_ node: Node, key: String) throws(ProfileError) -> String {
        guard case .scalar(let scalar) = node else {
            throw failure(node, key, "expected a single value, not a list or mapping")
        }
        return scalar.string
    }

    /// Keeps the `source:` of a section.
    private mutating func record(_ fields: Fields) {
        guard let node = fields["source"], case .scalar(let scalar) = node else { return }
        sources.append(ProfileSource(key: fields.path, text: scalar.string))
    }

    // MARK: Errors

    fileprivate func failure(_ node: Node, _ key: String, _ reason: String, code: ProfileError.Code = .invalidValue) -> ProfileError {
        ProfileError(code, file: file, key: key, line: node.mark?.line, reason: reason)
    }

    private func missing(_ fields: Fields, _ key: String, _ what: String) -> ProfileError {
        ProfileError(.missingKey, file: file, key: key, line: fields.node.mark?.line, reason: "missing; give \(what)")
    }
}

/// One YAML mapping of a profile: its keys checked against those allowed, each once.
private struct Fields {
    let node: Node
    let path: String
    private let entries: [(key: String, value: Node)]
    private let file: String

    init(_ node: Node, path: String, parser: ProfileParser, allowed: [String]) throws(ProfileError) {
        guard case .mapping(let mapping) = node else {
            let what = path.isEmpty ? "the top of the file" : path
            throw parser.failure(node, path.isEmpty ? "profile" : path, "\(what) must be a mapping of keys to values (key: value)")
        }
        var entries: [(key: String, value: Node)] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw parser.failure(keyNode, path, "keys must be plain names")
            }
            let key = scalar.string
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            guard allowed.contains(key) else {
                throw parser.failure(keyNode, keyPath, "unknown key '\(key)'; expected one of: \(allowed.joined(separator: ", "))", code: .unknownKey)
            }
            guard !entries.contains(where: { $0.key == key }) else {
                throw parser.failure(keyNode, keyPath, "'\(key)' is given twice", code: .duplicateKey)
            }
            entries.append((key, value))
        }
        self.node = node
        self.path = path
        self.entries = entries
        self.file = parser.file
    }

    subscript(key: String) -> Node? {
        entries.first { $0.key == key }?.value
    }

    func required(_ key: String) throws(ProfileError) -> Node {
        guard let value = self[key] else {
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            throw ProfileError(.missingKey, file: file, key: keyPath, line: node.mark?.line, reason: "missing; this figure is required")
        }
        return value
    }
}
