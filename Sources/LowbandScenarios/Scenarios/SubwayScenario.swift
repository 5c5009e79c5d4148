import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandShaper
import LowbandWire

/// A conversation on a metro line: signal at the stations, blackouts in the tunnels.
///
/// The outages are the profile's when it has blackouts (`subway`); any other profile gets the
/// subway schedule on top of its own figures: a blackout of 45–90 s every 120 s, the first at
/// 30 s. Outages do not close connections; the engine finds a dead link by its heartbeat and
/// reconnects when the train reaches a station.
///
/// Each client (a rider) talks with the other member of a direct chat, who writes through the
/// server. Every 4–12 s (seeded) one of them writes. `delivery_delay` is, for the rider's
/// messages, the time until the server's acknowledgement reaches the rider; for the partner's,
/// the time until the message is visible on the rider's screen. The screen stays open from the
/// first login on; after every reconnect it catches up by itself with what the blackout held
/// back.
final class SubwayScenario: Scenario {
    static let blackouts = OutageProfile(kind: .blackout, start: .seconds(30) ... .seconds(30), duration: .seconds(45) ... .seconds(90), every: .seconds(120) ... .seconds(120))

    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 4), chatsPerUser: 2, messagesPerChat: 20)
    }

    static func profile(adjusting profile: NetworkProfile) -> NetworkProfile {
        guard !profile.outages.contains(where: { $0.kind == .blackout }) else { return profile }
        var adjusted = profile
        adjusted.outages.append(blackouts)
        return adjusted
    }

    private struct Sent: Hashable {
        var rider: Int
        var clientID: UInt64
    }

    private let context: RunContext
    private var riders: [DirectChatter] = []
    private var composedAt: [Sent: Duration] = [:]
    private let partners: PartnerPosts
    private var delays = TimedSamples()
    private var written = 0

    init(context: RunContext) {
        self.context = context
        partners = PartnerPosts(context: context)
        partners.delivered = { [unowned self] id, rider, posted, visibleAt in
            self.delivered(id, rider: rider, posted: posted, visibleAt: visibleAt)
        }
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let rider = try DirectChatter.make(index: index, context: context, stream: 5)
            riders.append(rider)
            rider.client.onEvent = { [weak self, weak rider] event in
                guard let self, let rider else { return }
                switch event {
                case .synced where rider.screen == nil:
                    self.partners.openChat(of: rider)
                    self.scheduleNext(rider)
                case .outbox(.sent(_, let message)):
                    self.acknowledged(message, rider: rider)
                default:
                    break
                }
            }
            rider.client.engine.start()
        }
    }

    private func scheduleNext(_ rider: DirectChatter) {
        let gap = rider.random.duration(in: .seconds(4) ... .seconds(12))
        context.scheduler.schedule(after: gap) { [weak self, weak rider] in
            guard let self, let rider, !self.context.trafficIsOver else { return }
            self.write(rider)
            self.scheduleNext(rider)
        }
    }

    private func write(_ rider: DirectChatter) {
        let text = rider.texts.text()
        written += 1
        if rider.random.next() & 1 == 0 {
            guard let task = try? rider.client.engine.send(text: text, to: rider.chatID), let clientID = task.clientID else { return }
            composedAt[Sent(rider: rider.index, clientID: clientID)] = context.now
            context.line("send", client: rider.index, chat: rider.chatID, detail: "client id \(clientID)")
        } else {
            partners.post(text, to: rider)
        }
    }

    private func acknowledged(_ message: Message, rider: DirectChatter) {
        guard let clientID = message.clientID, let composed = composedAt.removeValue(forKey: Sent(rider: rider.index, clientID: clientID)) else { return }
        let delay = context.now - composed
        delays.append(delay, endingAt: context.now)
        context.line("delivered", client: rider.index, chat: rider.chatID, message: message.id, value: delay, detail: "acknowledged")
    }

    private func delivered(_ id: Int64, rider: Int, posted: Duration, visibleAt: Duration) {
        let delay = visibleAt - posted
        delays.append(delay, endingAt: visibleAt)
        context.line("delivered", client: rider, chat: riders[rider].chatID, message: id, value: delay, detail: "visible")
    }

    var liveFigure: String {
        let reconnects = context.clients.reduce(0) { $0 + $1.reconnects }
        return "reconnects \(reconnects), " + LiveFigure.describe(delays.values.count, "delivered", delays.values)
    }

    func finish() -> ScenarioResult {
        ScenarioResult(
            metrics: [
                delays.metric(named: "delivery_delay"),
                RunMetric(name: "reconnects", unit: "count", values: [Double(context.clients.reduce(0) { $0 + $1.reconnects })]),
                RunMetric(name: "disconnects", unit: "count", values: [Double(context.clients.reduce(0) { $0 + $1.disconnects })]),
                RunMetric(name: "outages", unit: "count", values: [Double(Outages.count(in: context.trace.timeline, runEnd: context.now.seconds))]),
                RunMetric(name: "messages", unit: "count", values: [Double(written)]),
                RunMetric(name: "undelivered", unit: "count", values: [Double(composedAt.count + partners.pending)]),
            ],
            floorMilliseconds: nil)
    }
}
