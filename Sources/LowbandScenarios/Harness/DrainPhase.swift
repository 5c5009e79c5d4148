import LowbandClient
import LowbandRunReport
import LowbandShaper

/// The run after its traffic (docs/RUN.md, "The drain"): the scenario sends nothing new, the
/// network is healed (``NetworkProfile/healedFrom``), and the run goes on until nothing is in
/// flight on two checks a second apart, or the bound passes.
///
/// A promise is judged on cases that had the time to keep it (the settle time online, the
/// liveness bound delivering); a run that stops at the end of its traffic leaves the last
/// minutes' cases unjudged, which on edge (settle 147 s) is every case of a one-minute run.
/// The drain gives them that time, and a drain that settles gives it at once: with every
/// session up, every outbox and request answered and every chat list showing the server's
/// newest message, nothing can change any more, so the checks take the state as final and
/// judge each session still up as lasting the settle time (``judgedEnd``).
final class DrainPhase {
    /// When the traffic ended (the run's `--duration`).
    let trafficEnd: Duration
    /// When the drain gives up settling: the last injected fault's end (a killed app starts
    /// again, the server comes back) or the traffic's end, plus the settle time.
    let bound: Duration
    let settle: Duration
    /// When the run was found settled (the second quiet check), if it was.
    private(set) var settledAt: Duration?
    private var quietChecks = 0

    /// How often the drain looks whether the run has settled.
    static let checkInterval: Duration = .seconds(1)

    init(options: ScenarioOptions, bounds: InvariantBounds) {
        trafficEnd = options.duration
        settle = bounds.settle
        let faultsEnd = options.faults.schedule(seed: options.seed, duration: options.duration, clients: options.clients)
            .filter { $0.kind != .outage && $0.kind != .handover }
            .map { $0.at + $0.length }
            .max() ?? .zero
        bound = max(trafficEnd, faultsEnd) + bounds.settle
    }

    /// The profile as the drain plays it: its outages and resets end with the traffic.
    static func healing(_ profile: NetworkProfile, options: ScenarioOptions) -> NetworkProfile {
        guard options.drain else { return profile }
        var healed = profile
        healed.healedFrom = options.duration
        return healed
    }

    /// Looks once; true when the run has settled (quiet now and at the check before).
    func check(_ context: RunContext, networkIdle: Bool) -> Bool {
        guard settledAt == nil else { return true }
        if networkIdle, context.nothingInFlight() {
            quietChecks += 1
        } else {
            quietChecks = 0
        }
        if quietChecks >= 2 { settledAt = context.now }
        return settledAt != nil
    }

    /// The end the checks judge at: the bound when the drain ran out, else the settled
    /// instant plus the settle time (nothing in flight, so the state then is the state at the
    /// end of any settle time).
    func judgedEnd(actualEnd: Duration) -> Duration {
        guard let settledAt else { return actualEnd }
        return settledAt + settle
    }

    /// What the record says of the drain.
    func outcome(actualEnd: Duration) -> RunDrain {
        RunDrain(seconds: max(0, (actualEnd - trafficEnd).seconds), settled: settledAt != nil, judgedUntilSeconds: judgedEnd(actualEnd: actualEnd).seconds)
    }
}

extension RunContext {
    /// Whether the traffic is over: past `--duration`, a scenario starts nothing new (no post,
    /// send, scroll, launch or burst); what it started goes on.
    var trafficIsOver: Bool { options.drain && now >= options.duration }

    /// Whether nothing the checks judge is in flight: every app alive, awake, logged in, with
    /// no request owing a reply, an empty outbox and a chat list that shows the server's newest
    /// message of every chat; every screen idle; no fault or scenario outage in force.
    func nothingInFlight() -> Bool {
        guard gate.isOpen, !ledger.networkDown.contains(where: { $0.span.contains(now) }) else { return false }
        guard bareConnectionsLoggedIn else { return false }
        let core = server.core
        for client in clients {
            let engine = client.engine
            guard !client.isDead, !client.device.isSuspended, client.device.deferredCount == 0, client.isLoggedIn,
                  engine.connection.pendingRequestCount == 0, engine.outbox.runningCount == 0,
                  let pending = try? engine.outbox.store.pendingTasks(), pending.isEmpty,
                  let list = try? engine.sync.chats()
            else { return false }
            for chat in world.chats(of: client.userID) {
                guard let newest = core.messages(in: chat.id)?.last?.id else { continue }
                guard list.first(where: { $0.id == chat.id })?.lastMessage?.id == newest else { return false }
            }
        }
        for entry in screens {
            guard let screen = entry.screen.screen else { continue }
            if screen.isLoading || screen.queue.isBusy { return false }
        }
        return true
    }
}
