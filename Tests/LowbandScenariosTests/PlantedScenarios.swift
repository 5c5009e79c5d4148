import GRDB
import LowbandClient
import LowbandFixtures
import LowbandWire
@testable import LowbandScenarios

/// Two clients in one chat; client 0 writes every 10 s once logged in. Subclasses plant one
/// bug each, as a messenger's own code might have it, so the checks are shown to catch it.
class PlantedScenario: Scenario {
    static func worldShape(clients: Int) -> MessengerWorld.Shape {
        MessengerWorld.Shape(users: 2, chatsPerUser: 2, messagesPerChat: 5, extraContactsPerUser: 0)
    }

    let context: RunContext
    private(set) var writer: ScenarioClient!
    private(set) var reader: ScenarioClient!
    private(set) var chatID: Int64 = 0
    private var writing = false

    required init(context: RunContext) {
        self.context = context
    }

    func start() throws(ScenarioError) {
        guard let chat = context.world.chats(of: 1).first(where: { $0.memberIDs.contains(2) }) else {
            throw ScenarioError(.setupFailed, "users 1 and 2 share no chat")
        }
        chatID = chat.id
        writer = try context.makeClient(index: 0, userID: 1, database: "writer.sqlite")
        reader = try context.makeClient(index: 1, userID: 2, database: "reader.sqlite")
        writer.onEvent = { [weak self] event in
            guard let self, case .synced = event, !self.writing else { return }
            self.writing = true
            self.writerLoggedIn()
            self.context.every(.seconds(10)) { [weak self] in
                guard let self, !self.context.trafficIsOver else { return false }
                _ = try? self.writer.engine.send(text: "hello", to: self.chatID)
                return true
            }
        }
        reader.onEvent = { [weak self] event in
            guard let self else { return }
            if case .messageArrived(let message) = event { self.readerGot(message) }
            if case .synced = event { self.readerSynced() }
        }
        writer.engine.start()
        reader.engine.start()
        plantAtStart()
    }

    /// The bugs.
    func writerLoggedIn() {}
    func readerGot(_ message: Message) {}
    func readerSynced() {}
    func plantAtStart() {}

    var liveFigure: String { "" }

    func finish() -> ScenarioResult {
        ScenarioResult(metrics: [], floorMilliseconds: nil)
    }

    /// Runs `self` for `seconds` in virtual time on EDGE with `faults`, then drains unless
    /// `drain` is false.
    static func run(seconds: Int64, seed: UInt64 = 1, drain: Bool = true, faults: FaultPlan = .none) throws -> ScenarioOutput {
        var options = try ScenarioFixtures.virtualOptions(.crowd, seed: seed, clients: 2, seconds: seconds)
        options.drain = drain
        options.faults = faults
        return try VirtualRun.run(options, implementation: self)
    }
}

/// Nothing planted: the control.
final class HonestScenario: PlantedScenario {}

/// The reader's cache loses the first message it received.
final class ForgetsAMessage: PlantedScenario {
    private var done = false
    override func readerGot(_ message: Message) {
        guard !done else { return }
        done = true
        _ = try? reader.engine.database.writer.writeCached { db in
            try db.execute(sql: "DELETE FROM message WHERE chatID = ? AND id = ?", arguments: [message.chatID, message.id])
        }
    }
}

/// The reader's cache stores the first message twice under two ids.
final class StoresAMessageTwice: PlantedScenario {
    private var done = false
    override func readerGot(_ message: Message) {
        guard !done else { return }
        done = true
        var copy = message
        copy.id += 1_000_000
        try? reader.engine.messages.applyLive(copy)
    }
}

/// After every login the reader claims its whole history is cached, so it never fetches what
/// it missed while away: a message stored while it had no session is lost for good (the app's
/// bug; the fault that took its session away is the cause).
final class ClaimsItsHistoryComplete: PlantedScenario {
    override func readerSynced() {
        let chat = chatID
        _ = try? reader.engine.database.writer.writeCached { db in
            try db.execute(sql: "DELETE FROM historyChunk WHERE chatID = ?", arguments: [chat])
            try db.execute(sql: "INSERT INTO historyChunk (chatID, oldestID, newestID) VALUES (?, 1, ?)", arguments: [chat, Int64(1) << 40])
        }
    }
}

/// The writer's outbox stops working while its session stays up.
final class StallsTheOutbox: PlantedScenario {
    override func writerLoggedIn() {
        writer.engine.outbox.stop()
    }
}

/// The reader's chat list claims 99 unread messages.
final class MiscountsUnread: PlantedScenario {
    override func plantAtStart() {
        context.every(.seconds(5)) { [weak self] in
            guard let self else { return false }
            _ = try? self.reader.engine.database.writer.writeCached { db in try db.execute(sql: "UPDATE chat SET unreadCount = 99") }
            return true
        }
    }
}

/// The reader's app is killed at 60 s and its cache emptied before it starts again at 70 s.
final class WipesTheCacheOnKill: PlantedScenario {
    override func plantAtStart() {
        context.scheduler.schedule(at: .seconds(60)) { [weak self] in
            guard let self else { return }
            self.context.kill(self.reader)
            _ = try? self.reader.engine.database.writer.writeCached { db in try db.execute(sql: "DELETE FROM message") }
        }
        context.scheduler.schedule(at: .seconds(70)) { [weak self] in
            guard let self else { return }
            try? self.context.restart(self.reader)
        }
    }
}

/// A buffer of the app grows past its cap.
final class OverfillsABuffer: PlantedScenario {
    override func plantAtStart() {
        var held = 0
        context.probe.watch("planted buffer", client: 1, cap: 10) {
            held += 1
            return held
        }
    }
}
