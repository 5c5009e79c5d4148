import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandWire

/// Messages sent while the network is gone, then it returns: every message must reach the
/// server exactly once, and the outbox must drain.
///
/// Cycles, once every client is logged in: the device's network goes down (every link closes,
/// connects fail), each client stores ``burstSize`` messages at seeded moments of the
/// ``offlineTime``, the network comes back, and the time until each client's outbox is empty
/// is one `outbox_drain` sample. The next cycle starts 5 s after the last client drained.
/// At the end the server is asked: `delivered` (distinct messages stored), `duplicates` (a
/// client id stored twice, or cached twice), `lost` (neither stored nor still waiting),
/// `pending` (still in an outbox when the run ended).
final class OfflineBurstScenario: Scenario {
    static let burstSize = 10
    static let offlineTime: Duration = .seconds(10)
    static let settleTime: Duration = .seconds(5)

    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: max(clients + 1, 4), chatsPerUser: 2, messagesPerChat: 20)
    }

    private struct Sender {
        var client: ScenarioClient
        var chatID: Int64
        var texts: MessengerFixtures
        var random: SeededGenerator
        /// Client ids of every message stored while offline.
        var stored: [UInt64] = []
        var draining = false
    }

    private let context: RunContext
    private var senders: [Sender] = []
    private var backAt: Duration?
    private var drainSamples = TimedSamples()
    private var cycles = 0

    init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        for index in 0 ..< context.clientCount {
            let userID = Int64(index + 1)
            guard let chat = context.chat(of: userID) else {
                throw ScenarioError(.setupFailed, "client \(index): user \(userID) has no chat")
            }
            let client = try context.makeClient(index: index, userID: userID, database: "client-\(index).sqlite")
            senders.append(Sender(client: client, chatID: chat.id, texts: context.texts(for: index), random: context.random(4, UInt64(index))))
            client.onEvent = { [weak self] event in
                if case .outbox = event { self?.checkDrained(index) }
            }
            client.engine.start()
        }
        context.every(.milliseconds(250)) { [weak self] in
            guard let self else { return false }
            guard self.senders.allSatisfy({ $0.client.isLoggedIn }) else { return true }
            self.beginCycle()
            return false
        }
    }

    private func beginCycle() {
        guard !context.trafficIsOver else { return }
        cycles += 1
        context.gate.close()
        context.note(.outageStart, "offline: the scenario took the network away (cycle \(cycles))")
        for index in senders.indices {
            for _ in 0 ..< Self.burstSize {
                let at = senders[index].random.duration(in: .zero ... Self.offlineTime * 0.8)
                context.scheduler.schedule(after: at) { [weak self] in self?.send(index) }
            }
        }
        context.scheduler.schedule(after: Self.offlineTime) { [weak self] in self?.networkBack() }
    }

    private func send(_ index: Int) {
        guard !context.trafficIsOver else { return }
        let text = senders[index].texts.text()
        do {
            let task = try senders[index].client.engine.send(text: text, to: senders[index].chatID)
            if let clientID = task.clientID { senders[index].stored.append(clientID) }
            context.line("send-offline", client: index, chat: senders[index].chatID, detail: "client id \(task.clientID.map { String($0) } ?? "-")")
        } catch {
            context.line("send-failed", client: index, chat: senders[index].chatID, detail: "\(error)")
        }
    }

    private func networkBack() {
        context.gate.open()
        backAt = context.now
        context.note(.outageEnd, "online: the network is back (cycle \(cycles))")
        for index in senders.indices {
            senders[index].draining = true
            checkDrained(index)
        }
    }

    private func checkDrained(_ index: Int) {
        guard senders[index].draining, let backAt else { return }
        guard let pending = try? senders[index].client.engine.outbox.store.pendingTasks(), pending.isEmpty else { return }
        senders[index].draining = false
        let drain = context.now - backAt
        drainSamples.append(drain, endingAt: context.now)
        context.line("outbox-drained", client: index, chat: senders[index].chatID, value: drain)
        if senders.allSatisfy({ !$0.draining }) {
            context.scheduler.schedule(after: Self.settleTime) { [weak self] in self?.beginCycle() }
        }
    }

    var liveFigure: String {
        let sent = senders.reduce(0) { $0 + $1.stored.count }
        let drain = LiveFigure.median(drainSamples.values).map { ", drain p50 \(Int($0.rounded())) ms" } ?? ""
        return "cycles \(cycles), stored offline \(sent)\(drain)"
    }

    func finish() -> ScenarioResult {
        var delivered = 0
        var duplicates = 0
        var lost = 0
        var pendingCount = 0
        for sender in senders {
            let onServer = (context.server.core.messages(in: sender.chatID) ?? []).filter { $0.senderID == sender.client.userID }
            let cached = (try? sender.client.engine.messages.allMessages(chatID: sender.chatID)) ?? []
            let pendingIDs = Set(((try? sender.client.engine.outbox.store.pendingTasks()) ?? []).compactMap(\.clientID))
            for clientID in sender.stored {
                let stored = onServer.count { $0.clientID == clientID }
                let inCache = cached.count { $0.clientID == clientID }
                if stored >= 1 {
                    delivered += 1
                    duplicates += stored - 1 + max(0, inCache - 1)
                } else if pendingIDs.contains(clientID) {
                    pendingCount += 1
                } else {
                    lost += 1
                }
            }
        }
        return ScenarioResult(
            metrics: [
                RunMetric(name: "delivered", unit: "count", values: [Double(delivered)]),
                RunMetric(name: "duplicates", unit: "count", values: [Double(duplicates)]),
                RunMetric(name: "lost", unit: "count", values: [Double(lost)]),
                RunMetric(name: "pending", unit: "count", values: [Double(pendingCount)]),
                drainSamples.metric(named: "outbox_drain"),
            ],
            floorMilliseconds: nil)
    }
}
