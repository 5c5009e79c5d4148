import LowbandDeterminism
import LowbandFixtures
import LowbandServer
import LowbandTransport
import LowbandWire
import NIOCore
import Synchronization

/// The run's server as the scenarios and the checks see it.
///
/// In virtual time it is the server itself, on the run's scheduler. On sockets the server runs on
/// a loop of its own (the engines' SQLite work never runs there), so a post hops to it and its
/// answer hops back, and the checks read a copy of its core taken when the run ends.
protocol RunServer: AnyObject {
    /// The data the server started from.
    var world: MessengerWorld { get }
    /// The server's state: live in virtual time, as of the end of the run on sockets.
    var core: ServerCore { get }
    /// Posts `text` to `chatID` as `userID`; `done` gets the stored message (or the refusal)
    /// and the run's time of the post, on the run's scheduler: at once in virtual time.
    func post(_ text: String, in chatID: Int64, from userID: Int64, _ done: @escaping (Result<Message, ErrorReply>, Duration) -> Void)
    /// Drops every connection (a server restart).
    func disconnectAll()
}

/// The server on the run's own scheduler (virtual time).
final class DirectRunServer: RunServer {
    let server: MessengerServer
    let world: MessengerWorld
    private let scheduler: any Scheduler

    init(_ server: MessengerServer, world: MessengerWorld, scheduler: any Scheduler) {
        self.server = server
        self.world = world
        self.scheduler = scheduler
    }

    var core: ServerCore { server.core }

    func post(_ text: String, in chatID: Int64, from userID: Int64, _ done: @escaping (Result<Message, ErrorReply>, Duration) -> Void) {
        let at = scheduler.now
        let result: Result<Message, ErrorReply>
        do {
            result = .success(try server.post(text, in: chatID, from: userID))
        } catch {
            result = .failure(error)
        }
        done(result, at)
    }

    func disconnectAll() {
        server.disconnectAll()
    }
}

/// The server on a loop of its own (sockets), reached by hops from the run's loop.
final class LoopRunServer: RunServer {
    let world: MessengerWorld
    private let server: NIOLoopBoundBox<MessengerServer>
    private let runLoop: any EventLoop
    private let runScheduler: EventLoopScheduler
    private(set) var snapshot: ServerCore

    init(world: MessengerWorld, server: NIOLoopBoundBox<MessengerServer>, core: ServerCore, runScheduler: EventLoopScheduler) {
        self.world = world
        self.server = server
        self.runLoop = runScheduler.eventLoop
        self.runScheduler = runScheduler
        snapshot = core
    }

    var core: ServerCore { snapshot }

    /// The loop the server runs on: never the run's (the engines').
    var serverLoop: any EventLoop { server.eventLoop }
    /// The run's loop: the scenario's and the engines'.
    var loop: any EventLoop { runLoop }

    func post(_ text: String, in chatID: Int64, from userID: Int64, _ done: @escaping (Result<Message, ErrorReply>, Duration) -> Void) {
        let answer = NIOLoopBound(done, eventLoop: runLoop)
        let server = self.server
        let runLoop = self.runLoop
        let runScheduler = self.runScheduler
        server.eventLoop.execute {
            // The run's clock read on the server's loop: the moment the server posts.
            let at = runScheduler.now
            let result: Result<Message, ErrorReply>
            do throws(ErrorReply) {
                result = .success(try server.value.post(text, in: chatID, from: userID))
            } catch {
                result = .failure(error)
            }
            runLoop.execute { answer.value(result, at) }
        }
    }

    func disconnectAll() {
        let server = self.server
        server.eventLoop.execute { server.value.disconnectAll() }
    }

    /// Copies the server's core (after everything the server did so far) and calls `then` on
    /// the run's loop. Call on the run's loop.
    func refresh(then: @escaping () -> Void) {
        let server = self.server
        let next = NIOLoopBound(then, eventLoop: runLoop)
        server.eventLoop.submit { server.value.core }.hop(to: runLoop).assumeIsolated().whenComplete { [weak self] result in
            if case .success(let core) = result { self?.snapshot = core }
            next.value()
        }
    }
}

/// What the server's side tells the run's ledger, wherever the server runs.
protocol ServerLedger: AnyObject {
    func serverReceived(_ frame: Frame, link: ObjectIdentifier, at time: Duration)
    func serverSent(_ frame: Frame, link: ObjectIdentifier, at time: Duration)
    func serverLinkClosed(_ link: ObjectIdentifier)
}

extension RunLedger: ServerLedger {}

/// The ledger as the server's loop sees it on sockets: each event is stamped with the run's clock
/// where it happens and handed to the ledger on the run's loop, in the server's order.
final class HoppingLedger: ServerLedger, Sendable {
    private let target = Mutex<(ledger: NIOLoopBoundBox<RunLedger>, scheduler: EventLoopScheduler)?>(nil)

    /// Where events go from now on (before any link is accepted).
    func connect(_ ledger: NIOLoopBoundBox<RunLedger>, scheduler: EventLoopScheduler) {
        target.withLock { $0 = (ledger, scheduler) }
    }

    private func hop(_ body: @escaping @Sendable (RunLedger, Duration) -> Void) {
        guard let (ledger, scheduler) = target.withLock({ $0 }) else { return }
        let at = scheduler.now
        ledger.eventLoop.execute { body(ledger.value, at) }
    }

    func serverReceived(_ frame: Frame, link: ObjectIdentifier, at _: Duration) {
        hop { ledger, at in ledger.serverReceived(frame, link: link, at: at) }
    }

    func serverSent(_ frame: Frame, link: ObjectIdentifier, at _: Duration) {
        hop { ledger, at in ledger.serverSent(frame, link: link, at: at) }
    }

    func serverLinkClosed(_ link: ObjectIdentifier) {
        hop { ledger, _ in ledger.serverLinkClosed(link) }
    }
}
