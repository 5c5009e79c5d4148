import ArgumentParser
import LowbandAppEvents
import LowbandBasics
import LowbandClient
import LowbandDeterminism
import NIOCore
import NIOPosix

/// `lowband client`: the offline-first client engine against a server, from the command line.
///
/// Prints one line per durable step, as it happens, so a supervisor (a test that kills the
/// process half-way, a human watching a bad network) can tell exactly what has been committed:
///
/// ```
/// seed=11
/// stored task=1 client=4611686018427387904 chat=3 text=msg-0
/// synced full=true chats=8 contacts=10
/// sent task=1 client=4611686018427387904 message=1001
/// done sent=1 pending=0 failed=0
/// ```
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Run the client engine against a messenger server: send messages through the persistent outbox.",
        discussion: """
            The cache (SQLite) lives in --database; its outbox survives a crash, and the next run \
            resumes it: every stored message reaches the server exactly once. Lines on stdout: \
            stored, sending, sent, retry, failed, synced, disconnected, done.
            """,
        subcommands: [Send.self, Flush.self, Listen.self]
    )

    @Option(help: "The server, host:port (loopback only in tests).")
    var server: String

    @Option(help: "The login token.")
    var token: String

    @Option(help: "The SQLite cache file (created when missing).")
    var database: String

    @Option(help: "Seed of the engine's random choices (client ids, jitter); drawn at random and printed when absent.")
    var seed: UInt64?

    @Option(help: "Give up (exit 1) when the outbox is not empty after this long (60s, 5m…); what is stored stays for the next run.")
    var timeout: String = "60s"

    @Flag(help: "Print the engine's log on stderr.")
    var verbose = false

    @Option(help: ArgumentHelp(
        "Also print the engine's moments as app events under this device name (`LOWBAND_EVENT {…}` lines), for `lowband explore --exec` (docs/APP-EVENTS.md).",
        valueName: "device"))
    var appEvents: String?

    init() {}

    func validate() throws {
        _ = try AddressOption.parse(server, option: "--server", allowsPortZero: false)
        guard let limit = try? DurationText.parse(timeout), limit > .zero, limit <= .seconds(86_400) else {
            throw ValidationError("--timeout must be a duration from 1ms to 24h such as 60s or 5m, not '\(timeout)'")
        }
    }

    var endpoint: (host: String, port: Int)? {
        guard let endpoint = try? AddressOption.parse(server, option: "--server", allowsPortZero: false) else { return nil }
        return (endpoint.host, endpoint.port)
    }

    /// `lowband client … send`: stores `--count` messages in the outbox, then runs until sent.
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Store messages in the outbox, then deliver them and everything stored before."
        )

        @ParentCommand var client: ClientCommand

        @Option(help: "The chat to write to.")
        var chat: Int64

        @Option(help: "How many messages.")
        var count: Int = 1

        @Option(help: "Message texts are <prefix>-<n>.")
        var prefix: String = "msg"

        init() {}

        func validate() throws {
            guard (0 ... 100_000).contains(count) else { throw ValidationError("--count must be 0...100000, not \(count)") }
        }

        func run() async throws {
            let messages = (0 ..< count).map { (chat: chat, text: "\(prefix)-\($0)") }
            try await client.runEngine(sending: messages, command: "lowband client send")
        }
    }

    /// `lowband client … listen`: stays connected for a while, receiving what is pushed.
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "listen",
            abstract: "Stay connected for --for, delivering anything stored and receiving pushed messages (with --app-events: `received`)."
        )

        @ParentCommand var client: ClientCommand

        @Option(name: .customLong("for"), help: "How long to listen (10s, 2m…).")
        var duration: String = "30s"

        @Option(name: .customLong("open"), help: "Keep this chat's screen open (repeatable): it catches up after every reconnect, and with --app-events each message entering it is `shown`.")
        var openChats: [Int64] = []

        init() {}

        func validate() throws {
            guard let value = try? DurationText.parse(duration), value > .zero, value <= .seconds(86_400) else {
                throw ValidationError("--for must be a duration from 1ms to 24h such as 30s, not '\(duration)'")
            }
        }

        func run() async throws {
            try await client.runEngine(sending: [], command: "lowband client listen", listenFor: try DurationText.parse(duration), open: openChats)
        }
    }

    /// `lowband client … flush`: delivers what an earlier run left in the outbox.
    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flush",
            abstract: "Resume the stored outbox and run until it is empty."
        )

        @ParentCommand var client: ClientCommand

        init() {}

        func run() async throws {
            try await client.runEngine(sending: [], command: "lowband client flush")
        }
    }

    func runEngine(sending messages: [(chat: Int64, text: String)], command: String, listenFor: Duration? = nil, open: [Int64] = []) async throws {
        guard let endpoint else { throw CommandIO.failure("--server must be host:port", command: command) }
        let seed = self.seed ?? UInt64.random(in: 1 ... .max)
        try CommandIO.write("seed=\(seed)\n")
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let box = NIOLoopBoundBox.makeEmptyBox(valueType: ClientRun.self, eventLoop: loop)
        let limit = try listenFor ?? DurationText.parse(timeout)
        let settings = ClientRun.Settings(
            timeout: limit, verbose: verbose, messages: messages, listening: listenFor != nil, device: appEvents, open: open)
        let configuration = ClientConfiguration(token: token, databasePath: database, seed: seed)
        let host: ClientEngineHost
        let outcome: ClientRun.Outcome
        do {
            // The engine is built the one way a socket engine is (ClientEngineHost); the run's
            // observer is attached and the messages stored before it starts.
            let (outcomes, finish) = AsyncStream<ClientRun.Outcome>.makeStream()
            host = try await ClientEngineHost.start(configuration: configuration, host: endpoint.host, port: endpoint.port, eventLoop: loop) { engine in
                let run = ClientRun(settings: settings, engine: engine) { outcome in
                    finish.yield(outcome)
                    finish.finish()
                }
                box.value = run
                try run.prepare()
            }
            var iterator = outcomes.makeAsyncIterator()
            guard let finished = await iterator.next() else { throw CommandIO.IOError(description: "the engine ended without an outcome") }
            outcome = finished
        } catch {
            throw CommandIO.failure(error, command: command)
        }
        try await loop.submit {
            box.value?.printLog()
            box.value = nil
        }.get()
        try await host.stop()
        if !outcome.succeeded {
            throw CommandIO.failure(outcome.summary, command: command)
        }
    }
}

/// One engine run on an event loop: prints the durable steps and reports when the outbox is
/// empty (or the time is up).
private final class ClientRun: ClientEngineObserver {
    struct Settings: Sendable {
        var timeout: Duration
        var verbose: Bool
        var messages: [(chat: Int64, text: String)]
        /// Run to the deadline and succeed there, rather than when the outbox is empty.
        var listening = false
        /// The device name app events are printed under; nil: none.
        var device: String?
        /// Chats whose screens stay open from the first sync on.
        var open: [Int64] = []
    }

    struct Outcome: Sendable {
        var succeeded: Bool
        var summary: String
    }

    private let settings: Settings
    private let engine: ClientEngine
    private let finish: (Outcome) -> Void
    private var finished = false
    private var sent = 0
    private var failed = 0
    private var synced = false
    private var lastDisconnect: String?
    /// The open screens (the engine holds them weakly).
    private var screens: [ChatScreenModel] = []

    init(settings: Settings, engine: ClientEngine, finish: @escaping (Outcome) -> Void) {
        self.settings = settings
        self.engine = engine
        self.finish = finish
        engine.addObserver(self)
    }

    /// Before the engine starts: reports a recovered cache, stores the messages, arms the
    /// deadline.
    func prepare() throws {
        if let recovery = engine.database.recovery {
            CommandIO.reportError(CommandIO.IOError(description: recovery.description), command: "lowband client")
        }
        for message in settings.messages {
            try engine.send(text: message.text, to: message.chat)
        }
        engine.scheduler.schedule(after: settings.timeout) { [weak self] in
            guard let self else { return }
            if self.settings.listening {
                self.complete(succeeded: true, "")
                return
            }
            var problem = "gave up after \(DurationText.format(self.settings.timeout)) (--timeout) with \(self.pendingCount) task(s) still in the outbox; they stay there for the next run"
            if let reason = self.lastDisconnect { problem += "; last connection error: \(reason)" }
            self.complete(succeeded: false, problem)
        }
    }

    /// The engine's log on stderr, with `--verbose`.
    func printLog() {
        guard settings.verbose else { return }
        for entry in engine.log.entries { CommandIO.reportError(CommandIO.IOError(description: entry.description), command: "log") }
    }

    private var pendingCount: Int {
        (try? engine.pendingTasks().count) ?? -1
    }

    func engine(_ engine: ClientEngine, didEmit event: ClientEvent) {
        if let device = settings.device { appEvents(for: event, device: device) }
        switch event {
        case .outbox(let event):
            print(event)
        case .synced(let outcome):
            if !synced { openScreens() }
            synced = true
            line("synced full=\(outcome.wasFullSync) chats=\(outcome.chatsChanged) contacts=\(outcome.contactsChanged)")
        case .disconnected(let error):
            lastDisconnect = "\(error)"
            line("disconnected \(error)")
        case .stopped(let error):
            complete(succeeded: false, "stopped: \(error)")
        case .messageArrived:
            break
        }
        if synced, pendingCount == 0, !settings.listening {
            complete(succeeded: true, "")
        }
    }

    /// Opens the chats of `--open`; each message entering a screen is `shown`.
    private func openScreens() {
        for chat in settings.open {
            let screen = engine.openChat(chat)
            screens.append(screen)
            if let device = settings.device {
                screen.onVisible = { [weak self, weak screen] event in
                    guard let self, let screen, case .message(let id) = event.row,
                          let message = screen.rows.first(where: { $0.id == event.row })?.message else { return }
                    self.emitEvent(device: device, kind: .shown, message: message.clientID.map { "c\($0)" } ?? "m\(id)", chat: chat)
                }
            }
            screen.open()
        }
    }

    /// One `LOWBAND_EVENT` line: the event as an app posts it, written by the events' own writer.
    private func emitEvent(device: String, kind: AppEvent.Kind, message: String? = nil, chat: Int64? = nil) {
        line("LOWBAND_EVENT " + AppEventReader.postedLine(device: device, kind: kind, message: message, chat: chat.map(String.init)))
    }

    /// The engine's moments as app events: a message is `c<client id>` on every device (the
    /// sender's idempotency key travels with it), a chat its server id.
    private func appEvents(for event: ClientEvent, device: String) {
        func emit(_ kind: AppEvent.Kind, message: String? = nil, chat: Int64? = nil) {
            emitEvent(device: device, kind: kind, message: message, chat: chat)
        }
        switch event {
        case .synced:
            // One line per chat: naming a chat makes the device a member of it.
            for chat in (try? engine.sync.chats()) ?? [] { emit(.connected, chat: chat.id) }
        case .disconnected, .stopped:
            emit(.disconnected)
        case .outbox(.stored(let task)) where task.kind == .send:
            if let clientID = task.clientID { emit(.sent, message: "c\(clientID)", chat: task.chatID) }
        case .outbox(.sent(_, let message)):
            emit(.acked, message: message.clientID.map { "c\($0)" } ?? "m\(message.id)", chat: message.chatID)
        case .messageArrived(let message):
            emit(.received, message: message.clientID.map { "c\($0)" } ?? "m\(message.id)", chat: message.chatID)
        default:
            break
        }
    }

    private func print(_ event: OutboxEvent) {
        switch event {
        case .stored(let task) where task.kind == .send:
            line("stored task=\(task.id) client=\(task.clientID ?? 0) chat=\(task.chatID ?? 0) text=\(task.text ?? "")")
        case .stored(let task):
            line("stored task=\(task.id) upload=\(task.uploadID ?? "") bytes=\(task.totalSize ?? 0)")
        case .sending(let task):
            line("sending task=\(task.id) attempt=\(task.attempts + 1)")
        case .uploadProgress(let taskID, let offset, let total):
            line("uploaded task=\(taskID) offset=\(offset) of=\(total)")
        case .uploaded(let taskID, let url):
            line("uploaded task=\(taskID) url=\(url)")
        case .sent(let taskID, let message):
            sent += 1
            line("sent task=\(taskID) client=\(message.clientID ?? 0) message=\(message.id)")
        case .willRetry(let taskID, let error):
            line("retry task=\(taskID) error=\(error)")
        case .failed(let taskID, let error):
            failed += 1
            line("failed task=\(taskID) error=\(error)")
        }
    }

    private func complete(succeeded: Bool, _ problem: String) {
        guard !finished else { return }
        finished = true
        let summary = "done sent=\(sent) pending=\(pendingCount) failed=\(failed)"
        line(summary)
        finish(Outcome(succeeded: succeeded && failed == 0, summary: problem.isEmpty ? summary : problem))
    }

    private func line(_ text: String) {
        // Unbuffered: a line is out before the next step, so a kill never hides a step taken.
        try? CommandIO.write(text + "\n")
    }
}
