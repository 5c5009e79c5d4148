import CLowbandNamespace
import Glibc
package import LowbandShaper

/// One `lowband shell`: the namespace's TAP on one side, libslirp on the other, and between them
/// the profile's link in both directions (``PacketLink``). ``run()`` is its loop on the calling
/// thread, until the command ends; it returns the command's exit status.
///
/// Each turn: poll the TAP, the signal pipe, the namespace's pidfd and slirp's sockets, until the
/// earliest of the link's next decision and slirp's timers; read the TAP's frames into the
/// uplink; let slirp read and write its sockets (its frames go into the downlink); fire slirp's
/// timers; then do what the link decided: an uplink frame delivered goes to slirp_input, a
/// downlink one is written to the TAP, a dropped one is forgotten. Frames wait only in the
/// link's queues (drop-tail, the profile's bytes) and on their way (bounded by
/// ``maximumFramesInFlight``).
package final class ShellSession {
    /// Frames held at once, queued and on their way, both directions: a bound on memory that a
    /// profile with a long delay and a fast rate could otherwise stretch.
    package static let maximumFramesInFlight = 16_384
    /// The largest frame read from the TAP; a longer one could not be read whole (and the TAP's
    /// MTU is the profile's, so none is).
    static let readBufferSize = 65_536

    package private(set) var statistics = ShellStatistics()
    private let child: NamespaceChild
    private let signals: Int32
    private let stack: SlirpStack
    private var link: PacketLink
    /// The frames on the link, by the link's number, with their direction (a switch of the
    /// link drops them, counted each way).
    private var frames: [PacketID: (frame: [UInt8], direction: Direction)] = [:]
    /// The API's toxics, after the link.
    private var toxics: PacketToxics
    /// Where the link's decisions go, on the session's timeline (the link's own sink is framed
    /// after a switch).
    private let trace: (any ShaperTraceSink)?
    /// The session's time (link nanoseconds) at which the current link's time zero lies: 0
    /// until the API switches the link.
    private var linkOrigin: Int64 = 0
    private let clock = MonotonicClock()
    private let start: Int64
    private var tapUsable = true
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: ShellSession.readBufferSize, alignment: 8)

    /// A session for `child`, its frames through `link`; bytes on `signals` (one per signal
    /// number, from ``lowband_ns_catch_signals``) are passed on to the namespace; `observer` gets a
    /// snapshot of the link after every turn.
    private let observer: ShellObserver?
    /// DNS queries the link delivered, waiting out the profile's DNS delay (due time in link
    /// nanoseconds, in due order), with the NXDOMAIN to send instead when the lookup fails; at
    /// most ``maximumHeldQueries``.
    private var heldQueries: [(due: Int64, frame: [UInt8], answer: [UInt8]?)] = []
    private var dnsDelay: DNSDelay?
    /// Whether the profile's NAT (an idle timeout, or outages that change the address) needs
    /// each TCP packet's flow.
    private var tracksFlows: Bool
    /// The TCP connections crossing the link: their numbers for the trace, and what each end
    /// last said, for the resets the link makes up.
    private var tcp = TCPFlows()
    /// DNS queries held at once; one more is dropped (`dns-held-cap`).
    static let maximumHeldQueries = 256

    /// A host-loopback TCP port whose frames skip the link (``ShellConfiguration/unshapedPort``).
    private let unshapedPort: UInt16?

    package init(child: NamespaceChild, link: PacketLink, signals: Int32, observer: ShellObserver? = nil, unshapedPort: UInt16? = nil) throws(ShellError) {
        self.child = child
        self.unshapedPort = unshapedPort
        self.observer = observer
        dnsDelay = DNSDelay(profile: link.profile, seed: link.seed)
        tracksFlows = link.profile.nat != nil || link.profile.resets != nil || link.profile.outages.contains { $0.newAddress != nil }
        self.link = link
        trace = link.trace
        self.signals = signals
        toxics = PacketToxics(seed: link.seed)
        stack = try SlirpStack(mtu: link.profile.mtu)
        start = clock.nanoseconds()
        observer?.started(at: start)
        // The trace's first line says when its clock started on CLOCK_MONOTONIC, so that a
        // reader (`explore --shell`) can place its decisions on another clock exactly.
        link.trace?.record(ShaperEvent(
            time: ShaperInstant(nanoseconds: 0), kind: .link,
            detail: "\(link.profile.name), seed \(link.seed), started at CLOCK_MONOTONIC \(start) ns"))
        stack.output = { [unowned self] frame in self.fromSlirp(frame) }
    }

    deinit {
        buffer.deallocate()
    }

    /// Runs until the command ends; its exit status (128 + N when signal N ended it).
    package func run() -> Int32 {
        let pidfd = lowband_ns_pidfd(child.pid)
        defer {
            if pidfd >= 0 { close(pidfd) }
            close(child.tapDescriptor)
            close(child.lifelineDescriptor)
        }
        while true {
            var set = [
                pollfd(fd: tapUsable ? child.tapDescriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0),
            ]
            let slirpTimeout = stack.fill(&set)
            let now = clock.nanoseconds()
            // Without a pidfd (a kernel before 5.3) the command's end is looked for every 100 ms.
            var deadline = now + (pidfd >= 0 ? 60_000_000_000 : 100_000_000)
            if let slirpTimeout { deadline = min(deadline, now + slirpTimeout * 1_000_000) }
            if let timer = stack.nextTimer { deadline = min(deadline, timer * 1_000_000) }
            if let wakeup = link.nextWakeup { deadline = min(deadline, start + linkOrigin + wakeup.nanoseconds) }
            if let query = heldQueries.first { deadline = min(deadline, start + query.due) }
            if let due = toxics.nextWakeup { deadline = min(deadline, start + due) }
            let wait = max(0, deadline - now)
            let ready = set.withUnsafeMutableBufferPointer { lowband_ns_poll($0.baseAddress, UInt($0.count), wait) }
            let failed = ready < 0 && errno != EINTR
            if ready < 0 { for index in set.indices { set[index].revents = 0 } }
            // Signals and the API's controls first: an outage asked for applies before slirp
            // reads the API's answer from its socket.
            if set[1].revents != 0 { passSignals() }
            stack.dispatch(set, failed: failed)
            if set[0].revents != 0 { readTap() }
            stack.fireTimers(at: clock.nanoseconds() / 1_000_000)
            actOnLink()
            for (frame, direction) in toxics.release(at: linkNow.nanoseconds) { deliver(frame, direction) }
            for (flow, reason) in toxics.dueResets(at: linkNow.nanoseconds) { reset(flow, reason) }
            releaseQueries()
            publish(running: true)
            if pidfd < 0 || set[2].revents != 0, let status = reap(blocking: pidfd >= 0) {
                publish(running: false)
                return status
            }
        }
    }

    private func publish(running: Bool) {
        guard let observer else { return }
        let now = linkNow
        observer.publish { snapshot in
            snapshot.statistics = statistics
            snapshot.queuedBytes = [link.queuedBytes(.upstream), link.queuedBytes(.downstream)]
            snapshot.elapsed = Double(now.nanoseconds) / 1e9
            snapshot.radio = link.radioStatistics(at: onLink)
            snapshot.running = running
            snapshot.liveConnections = tcp.live
        }
    }

    private var linkNow: ShaperInstant { ShaperInstant(nanoseconds: clock.nanoseconds() - start) }
    /// Now on the current link's own clock.
    private var onLink: ShaperInstant { ShaperInstant(nanoseconds: linkNow.nanoseconds - linkOrigin) }

    private func readTap() {
        for _ in 0 ..< 64 {
            let count = read(child.tapDescriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                // EAGAIN: read them all. Anything else: the namespace is going away.
                if errno != EAGAIN && errno != EINTR { tapUsable = false }
                return
            }
            if count == 0 { return }
            offer(UnsafeRawBufferPointer(rebasing: buffer[..<count]), .upstream)
        }
    }

    private func fromSlirp(_ frame: UnsafeRawBufferPointer) {
        offer(frame, .downstream)
    }

    private func offer(_ frame: UnsafeRawBufferPointer, _ direction: Direction) {
        // ARP is the TAP's Ethernet talking to slirp's, which a cellular link (point to point,
        // IP only) never carries: it passes at once, unshaped and uncounted, and so does the
        // unshaped port's TCP (an observer's channel). Everything else (IPv4, IPv6) crosses the link.
        let isARP = frame.count >= ShellNetwork.ethernetHeader && frame[12] == 0x08 && frame[13] == 0x06
        if isARP || isUnshaped(frame, direction) {
            if direction == .upstream {
                stack.input(Array(frame))
            } else if !writeTap(Array(frame)) {
                statistics[direction].dropped["tap-write", default: 0] += 1
            }
            return
        }
        let bytes = max(0, frame.count - ShellNetwork.ethernetHeader)
        statistics[direction].offeredFrames += 1
        statistics[direction].offeredBytes += bytes
        if frames.count >= Self.maximumFramesInFlight {
            statistics[direction].dropped["in-flight-cap", default: 0] += 1
            return
        }
        let flow = tracksFlows ? FrameHeaders.tcpFlow(frame, direction) : nil
        let segment = TCPSegment(frame, direction)
        if let segment, tcp.offered(segment, direction) == .open, let number = tcp.number(of: segment.flow) {
            traceConnection(.open, number, direction, detail: PacketLink.describe(segment.flow))
        }
        switch link.submit(bytes, direction, flow: flow, at: onLink) {
        case .queued(let id):
            frames[id] = (Array(frame), direction)
        case .dropped(_, let cause):
            statistics[direction].dropped[cause.name, default: 0] += 1
            if let segment { traceDrop(segment, direction, cause) }
        }
    }

    /// Whether `frame` is TCP between the namespace and the host's loopback at the unshaped port.
    private func isUnshaped(_ frame: UnsafeRawBufferPointer, _ direction: Direction) -> Bool {
        guard let unshapedPort, let flow = FrameHeaders.tcpFlow(frame, direction) else { return false }
        return flow.remotePort == unshapedPort && flow.remoteAddress == ShellNetwork.hostAddress
    }

    private func actOnLink() {
        for action in link.advance(to: onLink) {
            switch action {
            case let .deliver(id, direction):
                guard let frame = frames.removeValue(forKey: id)?.frame else { continue }
                let bytes = max(0, frame.count - ShellNetwork.ethernetHeader)
                let segment = toxics.toxics.isEmpty ? nil : frame.withUnsafeBytes { TCPSegment($0, direction) }.map { ($0.flow, $0.payload) }
                switch toxics.pass(frame, bytes: bytes, direction, segment: segment, at: linkNow.nanoseconds) {
                case .now:
                    deliver(frame, direction)
                case .held:
                    break
                case let .dropped(toxic, cause):
                    statistics[direction].dropped[cause, default: 0] += 1
                    trace?.record(ShaperEvent(time: linkNow, kind: .drop, direction: direction, bytes: bytes, detail: "\(toxic): \(cause)"))
                }
            case let .drop(id, direction, cause):
                let frame = frames.removeValue(forKey: id)?.frame
                statistics[direction].dropped[cause.name, default: 0] += 1
                if let segment = frame?.withUnsafeBytes({ TCPSegment($0, direction) }) { traceDrop(segment, direction, cause) }
            case let .reset(flow, reason):
                reset(flow, reason)
            }
        }
    }

    /// A frame the link (and its toxics) delivered: to slirp going up, to the TAP going down.
    private func deliver(_ frame: [UInt8], _ direction: Direction) {
        statistics[direction].deliveredFrames += 1
        statistics[direction].deliveredBytes += max(0, frame.count - ShellNetwork.ethernetHeader)
        if let segment = frame.withUnsafeBytes({ TCPSegment($0, direction) }), let (kind, number, detail) = tcp.delivered(segment, direction) {
            traceConnection(kind, number, direction, bytes: kind == .deliver ? segment.payload : nil, detail: detail)
        }
        if direction == .upstream {
            toSlirp(frame)
        } else if !writeTap(frame) {
            statistics[direction].dropped["tap-write", default: 0] += 1
        }
    }

    /// The network resets `flow` (the profile's `resets`, the NAT's `on-expiry: reset`): a
    /// reset made up toward each end, past the link as the middlebox that sends them sits
    /// beyond the radio — the namespace's kernel sees ECONNRESET, slirp closes its host socket.
    private func reset(_ flow: PacketFlow, _ reason: String) {
        let made = tcp.resets(flow)
        for frame in made.towardDevice where !writeTap(frame) {
            statistics.downstream.dropped["tap-write", default: 0] += 1
        }
        for frame in made.towardSlirp { stack.input(frame) }
        guard let number = made.number else { return }
        traceConnection(.reset, number, nil, detail: "the link reset it: \(reason)")
        // As a proxy's reset, it ends the connection: its `close`, unless a FIN had crossed.
        if made.closes { traceConnection(.close, number, nil, detail: "reset by the link: \(reason)") }
    }

    /// A connection's event in the trace, with its number (`conn`).
    private func traceConnection(_ kind: ShaperEvent.Kind, _ number: Int, _ direction: Direction?, bytes: Int? = nil, detail: String? = nil) {
        trace?.record(ShaperEvent(time: linkNow, kind: kind, connection: ConnectionID(index: number), direction: direction, bytes: bytes, detail: detail))
    }

    /// A dropped segment that carried data, in the trace with its connection and cause.
    private func traceDrop(_ segment: TCPSegment, _ direction: Direction, _ cause: PacketDrop) {
        guard segment.payload > 0, let number = tcp.number(of: segment.flow) else { return }
        traceConnection(.drop, number, direction, bytes: segment.payload, detail: "packet \(cause)")
    }

    /// Hands an uplink frame the link delivered to slirp: a DNS query after the profile's DNS
    /// delay (or, failing, answered NXDOMAIN then, down the link), everything else now.
    private func toSlirp(_ frame: [UInt8]) {
        guard let lookup = dnsDelay?.lookup(of: frame) else {
            stack.input(frame)
            return
        }
        let now = linkNow
        let answer = lookup.fails ? DNSFailure.nxdomain(answering: frame) : nil
        let outcome = answer != nil ? "fails: answered NXDOMAIN"
            : lookup.fails ? "would fail, but its question cannot be read: it goes to slirp's forwarder" : "goes to slirp's forwarder"
        trace?.record(ShaperEvent(
            time: now, kind: .dns, direction: .upstream, bytes: frame.count - ShellNetwork.ethernetHeader, delay: .nanoseconds(lookup.delay),
            detail: "a query to \(ShellNetwork.nameserver) waits the profile's DNS delay and \(outcome)"
        ))
        if lookup.delay <= 0 && answer == nil {
            stack.input(frame)
            return
        }
        guard heldQueries.count < Self.maximumHeldQueries else {
            statistics.upstream.dropped["dns-held-cap", default: 0] += 1
            return
        }
        let due = now.nanoseconds + lookup.delay
        let index = heldQueries.firstIndex { $0.due > due } ?? heldQueries.count
        heldQueries.insert((due, frame, answer), at: index)
    }

    /// Queries whose DNS delay is over go to slirp, or their NXDOMAIN down the link.
    private func releaseQueries() {
        let now = linkNow.nanoseconds
        while let first = heldQueries.first, first.due <= now {
            heldQueries.removeFirst()
            if let answer = first.answer {
                answer.withUnsafeBytes { offer($0, .downstream) }
            } else {
                stack.input(first.frame)
            }
        }
    }

    private func writeTap(_ frame: [UInt8]) -> Bool {
        guard tapUsable else { return false }
        let written = frame.withUnsafeBytes { write(child.tapDescriptor, $0.baseAddress, $0.count) }
        return written == frame.count
    }

    private func passSignals() {
        var numbers = [UInt8](repeating: 0, count: 16)
        let count = numbers.withUnsafeMutableBytes { read(signals, $0.baseAddress, $0.count) }
        guard count > 0 else { return }
        for number in numbers.prefix(count) {
            // 0 is no signal: the API sent a control.
            if number == 0 {
                for control in observer?.takeControls() ?? [] { apply(control) }
            } else {
                kill(child.pid, Int32(number))
            }
        }
    }

    private func apply(_ control: ShellControl) {
        switch control {
        case let .outage(kind, duration):
            let now = linkNow
            link.forceOutage(kind, for: duration, at: onLink)
            let until = Double(now.nanoseconds + duration.nanosecondsClamped) / 1e9
            observer?.publish { snapshot in
                if until > snapshot.forced?.until ?? 0 { snapshot.forced = (until, kind == .handover ? "handover" : "outage") }
            }
        case let .link(profile, seed):
            switchLink(to: profile, seed: seed)
        case let .toxics(list, change, stream):
            toxics.set(list)
            trace?.record(ShaperEvent(time: linkNow, kind: .toxic, direction: stream, detail: change))
        case let .reset(number, reason):
            for flow in tcp.liveFlows(number: number) { reset(flow, reason) }
        }
    }

    /// Another link from now, as the proxy's API switches one: a `link` line in the trace, then
    /// the new link's decisions on the same timeline. The packets still on the old link (queued
    /// or on their way) are dropped (`link-switch`), as a move to another network loses them;
    /// the endpoints' TCP sends them again over the new one.
    private func switchLink(to profile: NetworkProfile, seed: UInt64) {
        let now = linkNow
        var lost = [0, 0]
        for (_, entry) in frames { lost[entry.direction == .upstream ? 0 : 1] += 1 }
        frames = [:]
        for direction in Direction.allCases where lost[direction == .upstream ? 0 : 1] > 0 {
            statistics[direction].dropped["link-switch", default: 0] += lost[direction == .upstream ? 0 : 1]
        }
        trace?.record(ShaperEvent(
            time: now, kind: .link,
            detail: "\(profile.name), seed \(seed)" + (lost == [0, 0] ? "" : "; \(lost[0]) packet(s) up and \(lost[1]) down on the old link dropped (link-switch)")))
        linkOrigin = now.nanoseconds
        link = PacketLink(profile: profile, seed: seed, trace: trace.map { FramedTraceSink($0, frame: ShaperTraceFrame(origin: now, firstNew: 1)) })
        dnsDelay = DNSDelay(profile: profile, seed: seed)
        tracksFlows = profile.nat != nil || profile.resets != nil || profile.outages.contains { $0.newAddress != nil }
        observer?.publish { snapshot in
            snapshot.profile = profile.name
            snapshot.seed = seed
            snapshot.networkProfile = profile
        }
    }

    /// The namespace's exit status once its init has ended; nil while it runs.
    private func reap(blocking: Bool) -> Int32? {
        var status: Int32 = 0
        let reaped = waitpid(child.pid, &status, blocking ? 0 : WNOHANG)
        guard reaped == child.pid else { return nil }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
