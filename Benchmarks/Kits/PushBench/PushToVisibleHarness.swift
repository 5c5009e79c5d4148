public import LowbandClient
public import LowbandProxy
public import LowbandServer
public import LowbandTesting
import LowbandFixtures
import LowbandShaper
import LowbandWire
import NIOCore
import Synchronization

/// The real server, the real shaping proxy and a real client engine with a chat open, in one
/// process on 127.0.0.1 ephemeral ports: what a push-to-visible sample is measured on.
///
/// Wired by the library's ``SocketHarness``: each part runs on an event loop of its own (three
/// threads), as three machines would: the client's synchronous SQLite work never delays the
/// server or the proxy. The client logs in
/// through the proxy, opens its first direct chat and waits until the chat's first page is on
/// screen; every push then comes from the other member of that chat, so exactly one push frame
/// crosses the proxy per sample.
///
/// ```swift
/// let harness = try await PushToVisibleHarness.start(profileNamed: "edge")
/// let sample = try await harness.measure()      // or prepare() / push(_:) / sample(of:)
/// print(sample.pushToVisible, sample.floor.least, sample.floor.median, sample.frameBytes)
/// try await harness.stop()
/// ```
///
/// Pushes follow one another with at most the screen's animation between them, so the link
/// never idles for the profiles' 10 s radio timer: the figure is that of a push in an active
/// conversation, with the chat open. A push after 10 s of silence also pays the radio's wake-up
/// (0.3–2 s); a real messenger pays it too (its 20 s heartbeat is longer than the radio's idle
/// timer), so that is a different figure, not an artifact this harness hides or adds.
public final class PushToVisibleHarness: Sendable {
    public let configuration: PushHarnessConfiguration
    /// Server, proxy and the client's loop.
    public let sockets: SocketHarness
    public let client: ClientEngineHost
    /// The open chat and the member whose messages are pushed to it.
    public let chatID: Int64
    public let senderID: Int64
    private let watch: NIOLoopBoundBox<VisibilityWatch?>
    private let state = Mutex(State())
    private let floors: FrameFloors

    public var server: MessengerSocketServer { sockets.server }
    public var proxy: ShapingProxy { sockets.proxy }
    /// Where the client connects: the proxy's listening port.
    public var proxyPort: Int { sockets.proxyPort }

    private struct State {
        var pushes = 0
        /// The next row's wait ``prepare()`` registered, for the ticket of that number.
        var nextRow: (number: Int, row: EventLoopFuture<(id: Int64, row: VisibilityWatch.Shown)>)?
        var teardown: PushHarnessTeardown?
        var stopping = false
    }

    private init(
        configuration: PushHarnessConfiguration, sockets: SocketHarness, client: ClientEngineHost, chatID: Int64, senderID: Int64,
        watch: NIOLoopBoundBox<VisibilityWatch?>
    ) {
        self.configuration = configuration
        self.sockets = sockets
        self.client = client
        self.chatID = chatID
        self.senderID = senderID
        self.watch = watch
        floors = FrameFloors(profile: configuration.profile)
    }

    // MARK: Starting

    /// Starts on `profiles/<name>.yaml` (see ``PushBenchProfiles``) with the shaper seeded by
    /// `shaperSeed` and every other figure at its default.
    public static func start(profileNamed name: String, shaperSeed: UInt64 = 1) async throws -> PushToVisibleHarness {
        try await start(PushHarnessConfiguration(profile: PushBenchProfiles.load(name), shaperSeed: shaperSeed))
    }

    /// Starts server, proxy and client, logs in and opens the chat; returns once the chat's
    /// first page is on screen and its update queue is idle. Whatever was started is stopped
    /// again when a step fails.
    ///
    /// - Throws: ``PushBenchError`` (`.unsupportedProfile` when the profile has no single floor,
    ///   `.noChat`, `.timedOut`), or the error of the part that failed to start.
    public static func start(_ configuration: PushHarnessConfiguration = PushHarnessConfiguration()) async throws -> PushToVisibleHarness {
        guard PhysicalFloor(profile: configuration.profile, frameBytes: 0).median != nil else {
            throw PushBenchError(
                .unsupportedProfile,
                "profile '\(configuration.profile.name)' has a timeline or a trace-driven downlink; its median changes over time, pick a profile with fixed figures")
        }
        let sockets = try await SocketHarness.start(
            SocketHarness.Configuration(
                profile: configuration.profile, shaperSeed: configuration.shaperSeed, world: MessengerWorld(seed: configuration.serverSeed),
                proxyName: "push-bench"))
        var watch: NIOLoopBoundBox<VisibilityWatch?>?
        do {
            let (user, chat, sender) = try pickChat(in: sockets.world, userID: configuration.userID)
            let client = try await sockets.startEngine(
                ClientConfiguration(
                    token: user.token, databasePath: sockets.databasePath("cache.sqlite"), seed: configuration.clientSeed,
                    connection: configuration.connection, screen: configuration.screen))
            let clientLoop = client.scheduler.eventLoop
            let chatID = chat.id
            let opened = try await client.withEngine { engine in
                let screen = engine.openChat(chatID)
                let box = NIOLoopBoundBox<VisibilityWatch?>(VisibilityWatch(screen: screen, loop: clientLoop), eventLoop: clientLoop)
                screen.open()
                return box
            }
            watch = opened

            // The first page comes from the server once the login is through the proxy.
            let newest = chat.messages.last?.id ?? 0
            try await onWatch(opened) { watch, continuation in
                watch.when(
                    { screen in !screen.isLoading && screen.rows.contains { $0.id == .message(newest) } },
                    timeout: configuration.setupTimeout, describe: "showing chat \(chatID)'s newest page (message \(newest))", continuation)
            }
            try await onWatch(opened) { watch, continuation in watch.whenIdle(timeout: configuration.setupTimeout, continuation) }
            return PushToVisibleHarness(configuration: configuration, sockets: sockets, client: client, chatID: chatID, senderID: sender, watch: opened)
        } catch {
            if let watch { await close(watch) }
            _ = try? await sockets.stop()
            throw error
        }
    }

    // MARK: Measuring

    /// Untimed preparation of the next push: waits until the chat screen's update queue is idle
    /// (the previous push's animation has finished), registers the wait for the next row on
    /// the client's loop (so the measured part never queues behind the client's work) and notes
    /// the proxy's delivered bytes.
    ///
    /// - Throws: ``PushBenchError`` `.stopped` after ``stop()``, `.timedOut`.
    public func prepare() async throws -> PushTicket {
        let number = try state.withLock { state throws(PushBenchError) -> Int in
            guard state.teardown == nil, !state.stopping else {
                throw PushBenchError(.stopped, "the harness was stopped; start a new one")
            }
            state.pushes += 1
            return state.pushes
        }
        let timeout = configuration.pushTimeout
        try await Self.onWatch(watch) { watch, continuation in watch.whenIdle(timeout: timeout, continuation) }
        let promise = watch.eventLoop.makePromise(of: (id: Int64, row: VisibilityWatch.Shown).self)
        try await Self.onWatch(watch) { watch, continuation in
            watch.whenNextShown(timeout: timeout, promise)
            continuation.resume()
        }
        state.withLock { $0.nextRow = (number, promise.futureResult) }
        let before = await proxy.statistics.downstreamBytes
        return PushTicket(number: number, downstreamBytesBefore: before)
    }

    /// The measured part: the server posts a message to the open chat as the other member
    /// (stores it, encodes and compresses the push and writes it to its socket), and this
    /// returns once the row is in the client's chat screen.
    ///
    /// - Throws: ``PushBenchError`` `.timedOut` when it is not visible within
    ///   ``PushHarnessConfiguration/pushTimeout``; the server's refusal (an `ErrorReply`).
    public func push(_ ticket: PushTicket) async throws -> VisiblePush {
        let next = try state.withLock { state throws(PushBenchError) in
            guard let next = state.nextRow, next.number == ticket.number else {
                throw PushBenchError(.stopped, "push \(ticket.number) was not prepared last; call prepare() before each push")
            }
            state.nextRow = nil
            return next.row
        }
        let text = configuration.text(ofPush: ticket.number)
        let chatID = self.chatID
        let senderID = self.senderID
        let posted = try await server.withServer { server in
            let postedAt = NIODeadline.now()
            let message = try server.post(text, in: chatID, from: senderID)
            return Posted(message: message, at: postedAt)
        }
        let (shownID, shown) = try await next.get()
        guard shownID == posted.message.id else {
            throw PushBenchError(.unexpectedRow, "message \(shownID) entered chat \(chatID)'s list where push \(posted.message.id) was expected")
        }
        return VisiblePush(
            message: posted.message, shownText: shown.text, pushToVisible: Duration(shown.visibleAt - posted.at),
            clientShare: shown.arrivedAt.map { Duration(shown.visibleAt - $0) }, ticket: ticket)
    }

    /// Untimed completion of a sample: the frame's bytes as the proxy delivered them, and the
    /// floor for that many bytes.
    public func sample(of push: VisiblePush) async throws -> PushSample {
        let bytes = await proxy.statistics.downstreamBytes - push.ticket.downstreamBytesBefore
        return PushSample(push: push, frameBytes: bytes, floor: floors.floor(frameBytes: bytes))
    }

    /// One whole sample: ``prepare()``, ``push(_:)``, ``sample(of:)``.
    public func measure() async throws -> PushSample {
        try await sample(of: push(prepare()))
    }

    /// The open chat screen's rows now, oldest first.
    public func screenRows() async throws -> [ScreenRow] {
        try await Self.onWatch(watch) { watch, continuation in continuation.resume(returning: watch.screen.rows) }
    }

    // MARK: Stopping

    /// Stops the client, the proxy and the server, checks that nothing is left (see
    /// ``PushHarnessTeardown``), ends the event loops and removes the client's database.
    /// Calling it again returns the first call's report.
    @discardableResult
    public func stop() async throws -> PushHarnessTeardown {
        let first = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else {
            if let teardown = state.withLock({ $0.teardown }) { return teardown }
            throw PushBenchError(.stopped, "the harness is being stopped by another caller")
        }
        // Let the last animation finish, so the engine's scheduler is empty when it stops.
        let watch = self.watch
        try? await Self.onWatch(watch) { watch, continuation in watch.whenIdle(timeout: .seconds(5), continuation) }
        await Self.close(watch)
        let teardown = try await sockets.stop()
        state.withLock { $0.teardown = teardown }
        return teardown
    }

    // MARK: Helpers

    private struct Posted: Sendable {
        var message: Message
        var at: NIODeadline
    }

    /// Runs `body` with the watch on the client's loop and waits for it to resume the continuation.
    private static func onWatch<Value: Sendable>(
        _ box: NIOLoopBoundBox<VisibilityWatch?>,
        _ body: @escaping @Sendable (VisibilityWatch, CheckedContinuation<Value, any Error>) -> Void
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            box.eventLoop.execute {
                guard let watch = box.value else {
                    return continuation.resume(throwing: PushBenchError(.stopped, "the harness was stopped"))
                }
                body(watch, continuation)
            }
        }
    }

    private static func pickChat(in world: MessengerWorld, userID: Int64) throws(PushBenchError) -> (MessengerWorld.User, MessengerWorld.ChatHistory, Int64) {
        guard let user = world.user(userID) else {
            throw PushBenchError(.noChat, "the server's world (seed \(world.seed)) has no user \(userID); it has users 1…\(world.users.count)")
        }
        let chats = world.chats(of: userID).filter { $0.memberIDs.count >= 2 && !$0.messages.isEmpty }
        guard let chat = chats.first(where: { $0.kind == .direct }) ?? chats.first,
            let sender = chat.memberIDs.first(where: { $0 != userID })
        else {
            throw PushBenchError(.noChat, "user \(userID) has no chat with another member and some history in the server's world (seed \(world.seed))")
        }
        return (user, chat, sender)
    }

    /// Fails every wait on the screen and lets go of it, before the engine stops.
    private static func close(_ watch: NIOLoopBoundBox<VisibilityWatch?>) async {
        try? await watch.eventLoop.submit {
            watch.value?.close()
            watch.value = nil
        }.get()
    }
}

/// What a stopped harness left behind: nothing, when `isClean`.
public typealias PushHarnessTeardown = SocketHarness.Teardown
