import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandShaper

/// A phone in a pocket: the app is open in the background, logged in, its chat's screen open,
/// and the partner writes rarely — every 5–15 minutes (seeded). Between messages the only
/// traffic is the engine's heartbeat, so this is what staying reachable costs: the radio's
/// time and energy per idle hour (`radio.*`, `energy.*`), and whether each message still
/// arrives by its push on a live connection or only by the sync after a reconnect, because the
/// carrier's NAT forgot the idle flow in between (`pushes_late`).
///
/// Metrics: `pushes` (written by partners), `pushes_by_push` (visible after a push frame reached
/// the phone), `pushes_late` (visible only after a later login's sync: the push went into a
/// flow the network had forgotten, or the link was down), `push_delay` (ms, written → visible),
/// `dead_flow_notice` (s, from the network forgetting a flow to the engine giving it up).
final class PocketScenario: Scenario {
    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 4), chatsPerUser: 2, messagesPerChat: 20)
    }

    private let context: RunContext
    private var phones: [DirectChatter] = []
    private let partners: PartnerPosts
    private var delays = TimedSamples()
    private var written = 0
    private var byPush = 0
    private var late = 0

    init(context: RunContext) {
        self.context = context
        partners = PartnerPosts(context: context)
        partners.delivered = { [unowned self] id, phone, posted, visibleAt in
            self.delivered(id, phone: phone, posted: posted, visibleAt: visibleAt)
        }
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let phone = try DirectChatter.make(index: index, context: context, stream: 6)
            phones.append(phone)
            phone.client.onEvent = { [weak self, weak phone] event in
                guard let self, let phone, case .synced = event, phone.screen == nil else { return }
                self.partners.openChat(of: phone)
                self.scheduleNext(phone)
            }
            phone.client.engine.start()
        }
    }

    private func scheduleNext(_ phone: DirectChatter) {
        let gap = phone.random.duration(in: .seconds(300) ... .seconds(900))
        context.scheduler.schedule(after: gap) { [weak self, weak phone] in
            guard let self, let phone, !self.context.trafficIsOver else { return }
            self.write(phone)
            self.scheduleNext(phone)
        }
    }

    private func write(_ phone: DirectChatter) {
        written += 1
        partners.post(phone.texts.text(), to: phone)
    }

    private func delivered(_ id: Int64, phone: Int, posted: Duration, visibleAt: Duration) {
        delays.append(visibleAt - posted, endingAt: visibleAt)
        let pushed = context.ledger.pushArrived[RunLedger.DeliveryKey(client: phone, message: id)] != nil
        if pushed { byPush += 1 } else { late += 1 }
        context.line("delivered", client: phone, chat: phones[phone].chatID, message: id, value: visibleAt - posted, detail: pushed ? "by its push" : "by a later sync")
    }

    var liveFigure: String {
        "pushes \(written), late \(late)"
    }

    func finish() -> ScenarioResult {
        ScenarioResult(
            metrics: [
                RunMetric(name: "pushes", unit: "count", values: [Double(written)]),
                RunMetric(name: "pushes_by_push", unit: "count", values: [Double(byPush)]),
                RunMetric(name: "pushes_late", unit: "count", values: [Double(late)]),
                delays.metric(named: "push_delay"),
                RunMetric(name: "dead_flow_notice", unit: "s", values: deadFlowNotices()),
                RunMetric(name: "reconnects", unit: "count", values: [Double(context.clients.reduce(0) { $0 + $1.reconnects })]),
            ],
            floorMilliseconds: nil)
    }

    /// For each flow the network forgot while its client used it: seconds until that client's
    /// engine gave the link up.
    private func deadFlowNotices() -> [Double] {
        let disconnects = context.trace.timeline.filter { $0.kind == .disconnect }
        return context.trace.forgotten.compactMap { forgotten in
            let at = Duration.nanoseconds(forgotten.time)
            guard let client = phones.first(where: { context.ledger.connection(of: $0.index, at: at) == forgotten.connection })?.index,
                  let noticed = disconnects.first(where: { $0.client == client && $0.seconds >= at.seconds }) else { return nil }
            return noticed.seconds - at.seconds
        }
    }
}
