import Foundation
import LowbandClient
import LowbandDeterminism
import LowbandFixtures
import LowbandRunReport
import LowbandServer
import LowbandShaper
import LowbandTransport
import LowbandWire

/// What a scenario drives, the same in both modes: the run's scheduler, the server (``RunServer``),
/// a way to make client engines behind the device's network, the trace and the seeded streams.
///
/// Everything here is confined to the run's scheduler: a virtual one the server shares, or on
/// sockets the engines' event loop, the server running on a loop of its own.
final class RunContext {
    let options: ScenarioOptions
    /// The profile as the scenario plays it (subway may add outages).
    let profile: NetworkProfile
    let scheduler: any Scheduler
    let server: any RunServer
    let trace: TraceLog
    /// What the checks and the latency breakdown are computed from.
    let ledger: RunLedger
    /// The sizes with caps, sampled every second for the `resource_bounds` check.
    let probe = ResourceProbe()
    /// Plays the run's faults (virtual time with `--faults`).
    var faultInjector: FaultInjector?
    /// What the device's radio did so far (time in each state, promotions, energy); nil when
    /// the network has no radio model or the run cannot see it.
    var radio: () -> RadioStatistics? = { nil }
    let gate = NetworkGate()
    /// Where the client databases live (removed after the run).
    let directory: String
    let workClock: any WorkClock
    private let makeConnector: () -> any FrameConnector
    private(set) var clients: [ScenarioClient] = []
    private var connections: [Connection] = []
    /// Screens the scenario opened and asked to be observed, with their client.
    private(set) var screens: [(client: Int, screen: WeakScreen)] = []

    struct WeakScreen {
        weak var screen: ChatScreenModel?
    }

    init(options: ScenarioOptions, profile: NetworkProfile, scheduler: any Scheduler, server: any RunServer, trace: TraceLog, ledger: RunLedger, directory: String, workClock: any WorkClock, makeConnector: @escaping () -> any FrameConnector) {
        self.options = options
        self.ledger = ledger
        self.profile = profile
        self.scheduler = scheduler
        self.server = server
        self.trace = trace
        self.directory = directory
        self.workClock = workClock
        self.makeConnector = makeConnector
    }

    var world: MessengerWorld { server.world }
    var now: Duration { scheduler.now }
    var clientCount: Int { options.clients }

    /// An independent seeded stream for the workload of `labels` (never shared, so one part's
    /// draws never shift another's).
    func random(_ labels: UInt64...) -> SeededGenerator {
        var generator = SeededGenerator(seed: options.seed).derived(0x574F_524B)  // "WORK"
        for label in labels { generator = generator.derived(label) }
        return generator
    }

    /// Seeded message texts for client `index`.
    func texts(for index: Int) -> MessengerFixtures {
        var generator = random(1, UInt64(index))
        return MessengerFixtures(seed: generator.next())
    }

    /// A client engine logged in as `userID`, its cache in `database` (kept across engines, so a
    /// later engine on the same file is a warm cache's cold start). Not started.
    func makeClient(index: Int, userID: Int64, database: String) throws(ScenarioError) -> ScenarioClient {
        guard let user = world.user(userID) else {
            throw ScenarioError(.setupFailed, "client \(index): no user \(userID) in the world")
        }
        var seeds = SeededGenerator(seed: options.seed).derived(0x434C_4945_4E54, UInt64(index))  // "CLIENT"
        var configuration = ClientConfiguration(token: user.token, databasePath: "\(directory)/\(database)", seed: seeds.next(), logCapacity: 200)
        configuration.compressionDictionaries = offeredDictionaries
        // In virtual time nothing dies inside a transaction and nothing must survive the
        // machine: the journal stays in memory, unsynced (CacheWrites), which also keeps a
        // 10,000-client crowd at one descriptor per cache.
        if options.virtualTime { configuration.cacheWrites = .simulated }
        if let heartbeat = options.heartbeat { configuration.connection.heartbeatInterval = heartbeat }
        ledger.register(token: user.token, client: index)
        let device = DeviceScheduler(base: scheduler)
        let connector = GatedConnector(inner: makeConnector(), gate: gate, scheduler: scheduler, ledger: ledger, owner: index, device: device)
        let engine = try makeEngine(index: index, configuration: configuration, connector: connector, device: device)
        let client = ScenarioClient(index: index, userID: userID, engine: engine, connector: connector, device: device, trace: trace, ledger: ledger)
        let chatCount = world.chats(of: userID).count
        probe.watch(
            client,
            ("client \(index) outbox requests in flight", "client \(index) requests in flight", "client \(index) work held while suspended"),
            caps: (chatCount + configuration.outbox.maximumConcurrentUploads, configuration.connection.maximumPendingRequests, Self.suspendedWorkCap))
        clients.append(client)
        return client
    }

    /// An engine for client `index` on its cache file (a fresh process's cold start).
    private func makeEngine(index: Int, configuration: ClientConfiguration, connector: GatedConnector, device: DeviceScheduler) throws(ScenarioError) -> ClientEngine {
        do {
            return try ClientEngine(configuration: configuration, connector: connector, scheduler: device, workClock: workClock)
        } catch {
            throw ScenarioError(.setupFailed, "client \(index): \(error)")
        }
    }

    /// Kills `client`'s app as `kill -9` would: no goodbye, its links are dropped and its cache
    /// file stays as the last commit left it. The ledger remembers what it had stored.
    func kill(_ client: ScenarioClient) {
        var cached: Set<Int64> = []
        for chat in world.chats(of: client.userID) {
            cached.formUnion(((try? client.engine.messages.allMessages(chatID: chat.id)) ?? []).map(\.id))
        }
        let tasks = Set(((try? client.engine.outbox.store.allTasks()) ?? []).compactMap(\.clientID))
        ledger.killed(client: client.index, at: now, cachedMessages: cached, storedTasks: tasks)
        client.device.discardSuspended()
        client.engine.stop()
        client.isDead = true
        note(.note, "app killed", client: client.index)
    }

    /// Starts a killed app again: a new engine on the same cache file, resuming its outbox.
    func restart(_ client: ScenarioClient) throws(ScenarioError) {
        let old = client.engine
        // The killed process let go of its file; a simulated cache holds its lock until closed.
        do {
            try old.database.close()
        } catch {
            throw ScenarioError(.setupFailed, "client \(client.index): \(error)")
        }
        let engine = try makeEngine(index: client.index, configuration: old.configuration, connector: client.connector, device: client.device)
        client.replace(engine)
        client.isDead = false
        note(.note, "app started again (cold start on its cache)", client: client.index)
        engine.start()
    }

    /// Work a suspended app may have waiting before the `resource_bounds` check fails.
    static let suspendedWorkCap = 100_000

    /// A bare connection logged in as `userID` (the phone's push channel in launch-by-push).
    func makeConnection(index: Int, userID: Int64, observer: any ConnectionObserver) -> Connection {
        let token = world.user(userID)?.token ?? ""
        ledger.register(token: token, client: index)
        let connector = GatedConnector(inner: makeConnector(), gate: gate, scheduler: scheduler, ledger: ledger, owner: index, device: nil)
        let connection = Connection(
            connector: connector, scheduler: scheduler, generator: SeededGenerator(seed: options.seed).derived(0x5055_5348, UInt64(index)),  // "PUSH"
            log: ClientLog(capacity: 50), loginRequest: { [offered = offeredDictionaries.map(\.wireValue)] in
                LoginRequest(token: token, lastSync: 0, compressionDictionaries: offered)
            })
        connection.observer = observer
        connections.append(connection)
        return connection
    }

    /// Updates a screen's serial queue may hold before the `resource_bounds` check fails: far
    /// more than a burst of pushes, far less than a queue that never drains.
    static let screenBacklogCap = 1_000

    /// Tells the ledger when rows of `screen` become visible (after the scenario's own
    /// `onVisible`), and keeps the screen for the end-of-run checks. Call after setting `onVisible`.
    func observe(_ screen: ChatScreenModel, client: Int) {
        let previous = screen.onVisible
        let ledger = self.ledger
        let scheduler = self.scheduler
        screen.onVisible = { event in
            // The run's time, not the phone's (its clock may be skewed).
            if case .message(let id) = event.row { ledger.visible(message: id, client: client, at: scheduler.now) }
            previous?(event)
        }
        screens.removeAll { $0.screen.screen == nil }
        screens.append((client, WeakScreen(screen: screen)))
        probe.watch("client \(client) screen of chat \(screen.chatID): updates waiting", client: client, cap: Self.screenBacklogCap) { [weak screen] in
            screen?.queue.backlog
        }
    }

    /// Drops an engine the scenario stopped itself (a killed app), closing its cache.
    func forget(_ client: ScenarioClient) {
        clients.removeAll { $0 === client }
    }

    /// Whether every bare connection (a phone's push channel) is logged in.
    var bareConnectionsLoggedIn: Bool {
        connections.allSatisfy(\.isLoggedIn)
    }

    /// Stops every engine and connection made in the run (at its end).
    func stopAll() {
        for client in clients { client.engine.stop() }
        for connection in connections { connection.stop() }
    }

    /// Calls `body` every `interval` until it returns false.
    func every(_ interval: Duration, _ body: @escaping () -> Bool) {
        scheduler.schedule(after: interval) { [weak self] in
            guard let self else { return }
            if body() { self.every(interval, body) }
        }
    }

    func line(_ event: String, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, value: Duration? = nil, detail: String? = nil) {
        trace.client(ClientTraceLine(time: now, event: event, client: client, chat: chat, message: message, value: value, detail: detail))
    }

    /// A mark on the timeline (and a line in the trace).
    func note(_ kind: TimelineEvent.Kind, _ detail: String, client: Int? = nil) {
        trace.client(
            ClientTraceLine(time: now, event: kind == .note ? "note" : kind.rawValue, client: client, detail: detail),
            timeline: TimelineEvent(seconds: now.seconds, kind: kind, client: client, detail: detail))
    }

    /// The chat client `userID` plays in: its first chat (direct chats first when asked).
    func chat(of userID: Int64, preferDirect: Bool = false) -> MessengerWorld.ChatHistory? {
        let chats = world.chats(of: userID)
        if preferDirect, let direct = chats.first(where: { $0.kind == .direct }) { return direct }
        return chats.first
    }

    /// The wire size of the push that carries `message`, compressed with `dictionary` when the
    /// receiving session agreed one.
    static func pushFrameBytes(_ message: Message, dictionary: WireDictionary.ID?) -> Int? {
        guard var frame = try? Frame.push(NewMessagePush(message: message), sequence: 1) else { return nil }
        frame.compressionDictionary = dictionary
        return (try? FrameEncoder().bytes(of: frame))?.readableBytes
    }

    /// The wire dictionaries the run's engines offer at login (``ScenarioOptions/compressionDictionary``).
    var offeredDictionaries: [WireDictionary.ID] {
        options.compressionDictionary ? WireDictionary.shipped.map(\.id) : []
    }

    /// The dictionary the server agrees with the run's engines: the highest they offer.
    var agreedDictionary: WireDictionary.ID? { offeredDictionaries.max() }
}

extension SeededGenerator {
    /// A uniform draw in 0 ..< 1 from the top 53 bits (not the toolchain's `random(in:)`, whose
    /// algorithm may change).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A duration drawn uniformly from `range`, to the nanosecond.
    mutating func duration(in range: ClosedRange<Duration>) -> Duration {
        let low = range.lowerBound.nanosecondsClamped
        let span = UInt64(range.upperBound.nanosecondsClamped - low)
        let draw = next().multipliedFullWidth(by: span &+ 1).high
        return .nanoseconds(low + Int64(draw))
    }

    /// An index drawn uniformly from 0 ..< count.
    mutating func index(below count: Int) -> Int {
        Int(next().multipliedFullWidth(by: UInt64(max(1, count))).high)
    }
}
