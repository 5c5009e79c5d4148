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

    private final class Phone {
        let index: Int
        let client: ScenarioClient
        let chatID: Int64
        let partner: Int64
        var texts: MessengerFixtures
        var random: SeededGenerator
        var screen: ChatScreenModel?

        init(index: Int, client: ScenarioClient, chatID: Int64, partner: Int64, texts: MessengerFixtures, random: SeededGenerator) {
            self.index = index
            self.client = client
            self.chatID = chatID
            self.partner = partner
            self.texts = texts
            self.random = random
        }
    }

    private let context: RunContext
    private var phones: [Phone] = []
    private var postedAt: [Int64: Duration] = [:]
    private var sightings = PostSightings<Int64, (phone: Int, visibleAt: Duration)>()
    private var delays = TimedSamples()
    private var written = 0
    private var byPush = 0
    private var late = 0

    init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let userID = Int64(index + 1)
            guard let chat = context.chat(of: userID, preferDirect: true), let partner = chat.memberIDs.first(where: { $0 != userID }) else {
                throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat with another member")
            }
            let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
            let phone = Phone(index: index, client: client, chatID: chat.id, partner: partner, texts: context.texts(for: index), random: context.random(6, UInt64(index)))
            phones.append(phone)
            client.onEvent = { [weak self, weak phone] event in
                guard let self, let phone, case .synced = event, phone.screen == nil else { return }
                self.openChat(phone)
                self.scheduleNext(phone)
            }
            client.engine.start()
        }
    }

    private func openChat(_ phone: Phone) {
        let screen = phone.client.engine.openChat(phone.chatID)
        phone.screen = screen
        screen.onVisible = { [weak self, weak phone] event in
            guard let self, let phone, case .message(let id) = event.row else { return }
            guard let posted = self.postedAt.removeValue(forKey: id) else { return self.sightings.sawUnposted(id, (phone.index, self.context.now)) }
            self.delivered(id, phone: phone.index, posted: posted, visibleAt: self.context.now)
        }
        context.observe(screen, client: phone.client.index)
        screen.open()
    }

    private func scheduleNext(_ phone: Phone) {
        let gap = phone.random.duration(in: .seconds(300) ... .seconds(900))
        context.scheduler.schedule(after: gap) { [weak self, weak phone] in
            guard let self, let phone, !self.context.trafficIsOver else { return }
            self.write(phone)
            self.scheduleNext(phone)
        }
    }

    private func write(_ phone: Phone) {
        written += 1
        let (index, chatID) = (phone.index, phone.chatID)
        sightings.willPost()
        context.server.post(phone.texts.text(), in: chatID, from: phone.partner) { [weak self] result, postedAt in
            guard let self else { return }
            guard case .success(let message) = result else {
                _ = self.sightings.didPost(nil)
                return
            }
            self.context.line("partner-sent", client: index, chat: chatID, message: message.id)
            if let seen = self.sightings.didPost(message.id) {
                self.delivered(message.id, phone: seen.phone, posted: postedAt, visibleAt: seen.visibleAt)
            } else {
                self.postedAt[message.id] = postedAt
            }
        }
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
