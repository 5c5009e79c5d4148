import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandWire

/// K clients chatting in their direct and group chats, all through one shaped link (one proxy,
/// one simulated device): the link's rate, queue and outages are shared, as on a cell that
/// serves a crowd.
///
/// Every client is a user of the world (users 1…K, in 2+ chats each, 60 % direct and 40 %
/// groups of 3–10). Once logged in, each client writes into one of its chats (seeded) every
/// 10–50 s (30 s on average). `delivery_delay` is, for every other member, the time from the
/// sender storing the message to that member's engine holding it — by its push, or by the delta
/// sync of a later login (added by the driver from the breakdown); `messages` counts the
/// messages the server acknowledged; `bytes_up`/`bytes_down` are what the link delivered.
final class CrowdScenario: Scenario {
    static let interval: ClosedRange<Duration> = .seconds(10) ... .seconds(50)

    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients, 2), chatsPerUser: 2, messagesPerChat: 10, extraContactsPerUser: 1)
    }

    private struct Key: Hashable {
        var sender: Int64
        var clientID: UInt64
    }

    private final class Member {
        let index: Int
        let client: ScenarioClient
        let chats: [Int64]
        var texts: MessengerFixtures
        var random: SeededGenerator
        var writing = false

        init(index: Int, client: ScenarioClient, chats: [Int64], texts: MessengerFixtures, random: SeededGenerator) {
            self.index = index
            self.client = client
            self.chats = chats
            self.texts = texts
            self.random = random
        }
    }

    private let context: RunContext
    private var members: [Member] = []
    private var composedAt: [Key: Duration] = [:]
    private var delays = TimedSamples()
    private var acknowledged = 0

    init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let userID = Int64(index + 1)
            let chats = context.world.chats(of: userID).filter { $0.memberIDs.count >= 2 }.map(\.id)
            guard !chats.isEmpty else {
                throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat with another member")
            }
            let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
            let member = Member(index: index, client: client, chats: chats, texts: context.texts(for: index), random: context.random(6, UInt64(index)))
            members.append(member)
            client.onEvent = { [weak self, weak member] event in
                guard let self, let member else { return }
                switch event {
                case .synced where !member.writing:
                    member.writing = true
                    self.scheduleNext(member)
                case .messageArrived(let message):
                    self.arrived(message, at: member)
                case .outbox(.sent):
                    self.acknowledged += 1
                default:
                    break
                }
            }
            client.engine.start()
        }
    }

    private func scheduleNext(_ member: Member) {
        let gap = member.random.duration(in: Self.interval)
        context.scheduler.schedule(after: gap) { [weak self, weak member] in
            guard let self, let member, !self.context.trafficIsOver else { return }
            self.write(member)
            self.scheduleNext(member)
        }
    }

    private func write(_ member: Member) {
        let chatID = member.chats[member.random.index(below: member.chats.count)]
        let text = member.texts.text()
        guard let task = try? member.client.engine.send(text: text, to: chatID), let clientID = task.clientID else { return }
        composedAt[Key(sender: member.client.userID, clientID: clientID)] = context.now
        context.line("send", client: member.index, chat: chatID, detail: "client id \(clientID)")
    }

    private func arrived(_ message: Message, at member: Member) {
        guard let clientID = message.clientID, let composed = composedAt[Key(sender: message.senderID, clientID: clientID)] else { return }
        let delay = context.now - composed
        delays.append(delay, endingAt: context.now)
        context.line("arrived", client: member.index, chat: message.chatID, message: message.id, value: delay)
    }

    var liveFigure: String {
        "sent \(acknowledged), " + LiveFigure.describe(delays.values.count, "arrivals", delays.values)
    }

    func finish() -> ScenarioResult {
        let totals = context.trace.totals
        return ScenarioResult(
            metrics: [
                delays.metric(named: "delivery_delay"),
                RunMetric(name: "messages", unit: "count", values: [Double(acknowledged)]),
                RunMetric(name: "bytes_up", unit: "bytes", values: [Double(totals.up)]),
                RunMetric(name: "bytes_down", unit: "bytes", values: [Double(totals.down)]),
                RunMetric(name: "reconnects", unit: "count", values: [Double(context.clients.reduce(0) { $0 + $1.reconnects })]),
            ],
            floorMilliseconds: nil, deliveryMetric: "delivery_delay")
    }
}
