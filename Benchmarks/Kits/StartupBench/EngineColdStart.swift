public import LowbandClient
import LowbandDeterminism
public import LowbandWire

/// Cold start of the real client engine, up to its first screen.
///
/// One ``run()`` is what a launch does before the chat list can be drawn: `ClientEngine.init`
/// opens the cache file and checks its migrations, `start()` resumes the outbox and begins
/// connecting (the connector stays offline, so no network time is counted), the pending outbox
/// tasks are read (what the outbox resumes from: `Outbox.start()` reads them only once a
/// session is up, which a cold start offline never reaches), and `SyncStore.chats()` yields the
/// chat list with each chat's last message: the engine's own API for the first screen. The
/// engine is stopped and released at the end, which closes the file.
public final class EngineColdStart {
    public let configuration: ClientConfiguration
    private let connector = OfflineConnector()
    private let scheduler = VirtualScheduler()
    private let workClock = ManualWorkClock()

    public init(databasePath: String, seed: UInt64 = 1) {
        configuration = ClientConfiguration(token: "startup-bench", databasePath: databasePath, seed: seed)
    }

    /// The first screen's data.
    public struct FirstScreen {
        /// The chat list, newest activity first, each with its last message.
        public var chats: [Chat]
        /// Tasks the outbox will resume.
        public var pendingTasks: [OutboxTask]
    }

    /// Launches the engine on the file and returns what the first screen shows.
    ///
    /// - Throws: ``ClientError`` `.database` when the cache cannot be opened or read.
    public func run() throws(ClientError) -> FirstScreen {
        let engine = try ClientEngine(configuration: configuration, connector: connector, scheduler: scheduler, workClock: workClock)
        engine.start()
        defer { engine.stop() }
        do {
            let pending = try engine.outbox.store.pendingTasks()
            let chats = try engine.sync.chats()
            return FirstScreen(chats: chats, pendingTasks: pending)
        } catch {
            throw ClientError(.database, "cannot read the first screen from \(configuration.databasePath): \(error)")
        }
    }
}
