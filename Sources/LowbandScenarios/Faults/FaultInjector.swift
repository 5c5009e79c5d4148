import LowbandProxy
import LowbandProxyCore
import LowbandRunReport
import LowbandShaper
import LowbandTransport

/// What the injector needs of the network: the in-memory network in virtual time, whose
/// toxics, partitions and resets are the socket proxy's own state machine.
protocol FaultNetwork: AnyObject {
    /// Resets every connection of the device.
    func cut()
    /// Resets the connection of one client's link.
    func reset(_ link: any FrameLink)
    /// Forgets the flow of one client's link: its bytes vanish both ways, with no reset.
    func forgetBinding(_ link: any FrameLink)
    /// While true, new connections fail as refused (the server is down).
    var refusesConnections: Bool { get set }
    func addToxic(_ toxic: Toxic) throws(ProxyError) -> Toxic
    func removeToxic(named name: String) throws(ProxyError)
    /// Holds `direction`'s bytes until ``heal()``.
    func partition(_ direction: Direction)
    func heal()
}

/// Plays a ``FaultPlan`` on a run: at each planned instant it resets connections, takes the
/// server down and up, kills and cold-starts apps, suspends and resumes them, and skews their
/// clocks. Outages and handovers are in the profile already (``FaultPlan/profile(_:seed:duration:clients:)``).
/// Every fault is a line in the trace and a mark on the timeline.
final class FaultInjector {
    /// The context owns the injector (``RunContext/faultInjector``).
    private unowned let context: RunContext
    private let network: any FaultNetwork
    private let faults: [PlannedFault]

    init(context: RunContext, network: any FaultNetwork, plan: FaultPlan) {
        self.context = context
        self.network = network
        faults = plan.schedule(seed: context.options.seed, duration: context.options.duration, clients: context.clientCount)
    }

    func arm() {
        context.faultInjector = self
        for fault in faults {
            context.scheduler.schedule(at: fault.at) { [weak self] in self?.begin(fault) }
        }
    }

    /// Records `fault` as played on `client` (nil: every client) until `end` (nil: an instant).
    private func played(_ fault: PlannedFault, client: Int?, until end: Duration?) {
        context.ledger.played(RunFault(number: fault.number, kind: fault.kind, start: fault.at, end: end, client: client, words: fault.words))
    }

    private func skipped(_ fault: PlannedFault, _ why: String) {
        context.ledger.played(RunFault(number: fault.number, kind: fault.kind, start: fault.at, end: nil, client: fault.client, words: fault.words, skipped: why))
    }

    private func begin(_ fault: PlannedFault) {
        switch fault.kind {
        case .outage, .handover:
            // Played by the shaper, which ends it when the network heals (the drain); the trace
            // has its outage lines.
            let end = context.profile.healedFrom.map { min(fault.at + fault.length, $0) } ?? fault.at + fault.length
            context.ledger.networkDown(client: nil, fault.at ..< max(fault.at, end))
            played(fault, client: nil, until: max(fault.at, end))
        case .reset:
            context.note(.note, "fault: every connection reset")
            network.cut()
            played(fault, client: nil, until: nil)
        case .serverRestart:
            context.note(.note, "fault: server down for \(seconds(fault.length)) s")
            context.ledger.networkDown(client: nil, fault.at ..< fault.at + fault.length)
            network.refusesConnections = true
            context.server.disconnectAll()
            played(fault, client: nil, until: fault.at + fault.length)
            context.scheduler.schedule(after: fault.length) { [weak self] in
                guard let self else { return }
                self.network.refusesConnections = false
                self.context.note(.note, "fault: server up again")
            }
        case .appKill:
            guard let client = target(fault), !client.isDead else { return skipped(fault, "its client was not running") }
            context.note(.note, "fault: app killed for \(seconds(fault.length)) s", client: client.index)
            context.kill(client)
            context.ledger.networkDown(client: client.index, fault.at ..< fault.at + fault.length)
            played(fault, client: client.index, until: fault.at + fault.length)
            context.scheduler.schedule(after: fault.length) { [weak self, weak client] in
                guard let self, let client, client.isDead else { return }
                do {
                    try self.context.restart(client)
                } catch {
                    self.context.note(.note, "fault: app could not start again: \(error)", client: client.index)
                }
            }
        case .appSuspend:
            guard let client = target(fault), !client.isDead, !client.device.isSuspended else { return skipped(fault, "its client was not running, or already suspended") }
            context.note(.note, "fault: app suspended for \(seconds(fault.length)) s", client: client.index)
            context.ledger.networkDown(client: client.index, fault.at ..< fault.at + fault.length)
            client.device.suspend()
            played(fault, client: client.index, until: fault.at + fault.length)
            context.scheduler.schedule(after: fault.length) { [weak self, weak client] in
                guard let client, client.device.isSuspended else { return }
                self?.context.note(.note, "fault: app resumed", client: client.index)
                client.device.resume()
            }
        case .clockSkew:
            guard let client = target(fault) else { return skipped(fault, "its client does not exist") }
            context.note(.note, "fault: phone clock jumps \(seconds(fault.skew)) s", client: client.index)
            client.device.skew(by: fault.skew)
            played(fault, client: client.index, until: nil)
        case .addressChange:
            // The shaper plays the handover and kills the open flows; the engines find them dead
            // by their heartbeats.
            let end = context.profile.healedFrom.map { min(fault.at + fault.length, $0) } ?? fault.at + fault.length
            context.note(.note, "fault: the device comes back from a \(seconds(fault.length)) s handover with another address")
            context.ledger.networkDown(client: nil, fault.at ..< max(fault.at, end) + ReconnectCauses.window(heartbeat: context.options.heartbeat))
            played(fault, client: nil, until: max(fault.at, end))
        case .natExpiry:
            guard let client = target(fault), let link = client.connector.current?.inner else { return skipped(fault, "its client had no connection") }
            context.note(.note, "fault: the NAT forgot the client's connection", client: client.index)
            context.ledger.networkDown(client: client.index, fault.at ..< fault.at + ReconnectCauses.window(heartbeat: context.options.heartbeat))
            network.forgetBinding(link)
            played(fault, client: client.index, until: nil)
        case .connectionReset:
            guard let client = target(fault), let link = client.connector.current?.inner else { return skipped(fault, "its client had no connection") }
            context.note(.note, "fault: the client's connection reset", client: client.index)
            network.reset(link)
            played(fault, client: client.index, until: nil)
        case .partition:
            context.note(.note, "fault: \(fault.direction.rawValue) cut off for \(seconds(fault.length)) s")
            context.ledger.networkDown(client: nil, fault.at ..< fault.at + fault.length)
            network.partition(fault.direction)
            played(fault, client: nil, until: fault.at + fault.length)
            context.scheduler.schedule(after: fault.length) { [weak self] in
                guard let self else { return }
                self.network.heal()
                self.context.note(.note, "fault: partition healed")
            }
        case .toxicLatency, .toxicBandwidth, .toxicSlicer, .toxicTimeout, .toxicResetPeer, .toxicLimitData:
            toxic(fault)
        }
    }

    private var toxics = 0

    /// Adds the fault's toxic (the proxy's own, on every connection) for its length.
    private func toxic(_ fault: PlannedFault) {
        let type: ToxicType
        switch fault.kind {
        case .toxicLatency: type = .latency
        case .toxicBandwidth: type = .bandwidth
        case .toxicSlicer: type = .slicer
        case .toxicTimeout: type = .timeout
        case .toxicResetPeer: type = .resetPeer
        default: type = .limitData
        }
        toxics += 1
        let name = "fault-\(toxics)-\(type.rawValue)"
        let attributes = fault.attributes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        do {
            _ = try network.addToxic(Toxic(name: name, type: type, stream: fault.direction, attributes: fault.attributes))
        } catch {
            context.note(.note, "fault: toxic \(type.rawValue) refused: \(error)")
            return skipped(fault, "the proxy refused its toxic: \(error)")
        }
        played(fault, client: nil, until: fault.at + fault.length)
        context.note(.note, "fault: toxic \(type.rawValue) on \(fault.direction.rawValue) (\(attributes)) for \(seconds(fault.length)) s")
        // Toxics that drop data or close connections take the network away meanwhile; the
        // others only slow it down, and the checks keep watching.
        if [.timeout, .resetPeer, .limitData].contains(type) {
            context.ledger.networkDown(client: nil, fault.at ..< fault.at + fault.length)
        }
        let drops = [.timeout, .resetPeer, .limitData].contains(type)
        context.scheduler.schedule(after: fault.length) { [weak self] in
            guard let self else { return }
            try? self.network.removeToxic(named: name)
            self.context.note(.note, "fault: toxic \(type.rawValue) removed")
            // As in toxiproxy, a toxic removed before it closed its connection leaves the
            // bytes it dropped missing from a stream that goes on: a gap TCP never makes. The
            // connections it may have touched are reset instead, as a broken TCP stream is.
            if drops {
                self.network.cut()
                self.context.note(.note, "fault: the connections the toxic dropped data on were reset")
            }
        }
    }

    private func target(_ fault: PlannedFault) -> ScenarioClient? {
        guard let index = fault.client else { return nil }
        return context.clients.first { $0.index == index }
    }

    private func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", Double(duration.nanosecondsClamped) / 1e9)
    }
}
