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
/// chat list with each chat's last message: the engine's own API for the first screen.
/// ``launch()`` keeps the engine running, as the app does once its first screen is up; the
/// benchmark stops its clock before releasing it, because closing the file (a WAL checkpoint
/// and its fsync, about 2 ms on this machine's disk) is not on the way to the first screen.
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

    /// A launched engine and its first screen; the engine stops and closes its file when this
    /// is released.
    public final class Launch {
        public let engine: ClientEngine
        public let screen: FirstScreen

        init(engine: ClientEngine, screen: FirstScreen) {
            self.engine = engine
            self.screen = screen
        }

        deinit { engine.stop() }
    }

    /// Launches the engine on the file and returns it running, with what the first screen shows.
    ///
    /// - Throws: ``ClientError`` `.database` when the cache cannot be opened or read.
    public func launch() throws(ClientError) -> Launch {
        let engine = try ClientEngine(configuration: configuration, connector: connector, scheduler: scheduler, workClock: workClock)
        engine.start()
        do {
            let pending = try engine.outbox.store.pendingTasks()
            let chats = try engine.sync.chats()
            return Launch(engine: engine, screen: FirstScreen(chats: chats, pendingTasks: pending))
        } catch {
            engine.stop()
            throw ClientError(.database, "cannot read the first screen from \(configuration.databasePath): \(error)")
        }
    }

    /// Launches the engine, reads the first screen, stops the engine.
    public func run() throws(ClientError) -> FirstScreen {
        try launch().screen
    }
}
