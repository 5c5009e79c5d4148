import LowbandFixtures
import LowbandServer
import LowbandServerStore
import LowbandTestSupport
import LowbandWire
import Testing

/// Drives a ``ServerCore`` on a data directory with frames, one logged-in session per user.
struct StoreHarness {
    var core: ServerCore
    var now: Duration = .zero
    private var sequence: UInt32 = 0
    private var sessions: [Int64: SessionID] = [:]

    init(core: ServerCore) {
        self.core = core
    }

    /// Opens `folder` with the small world of `seed`.
    static func open(_ folder: TemporaryDirectory, seed: UInt64 = 5, limits: ServerLimits = ServerLimits()) throws -> (StoreHarness, ServerDataDirectory) {
        let data = try ServerDataDirectory.open(folder.path, world: world(seed: seed), configuration: ServerConfiguration(limits: limits))
        return (StoreHarness(core: data.core), data)
    }

    /// The small world the harness's directories are seeded with.
    static func world(seed: UInt64 = 5) -> MessengerWorld {
        MessengerWorld(seed: seed, shape: .init(users: 6, chatsPerUser: 3, messagesPerChat: 10))
    }

    /// The session of `userID`, logged in on first use.
    mutating func session(of userID: Int64) throws -> SessionID {
        if let session = sessions[userID] { return session }
        let session = core.openSession()
        sessions[userID] = session
        let token = try #require(core.token(of: userID))
        _ = try call(LoginRequest(token: token, lastSync: 0), as: session)
        return session
    }

    /// Sends `request` as `userID` and returns the first frame answered (the reply).
    mutating func frame<R: WireRequest>(_ request: R, from userID: Int64) throws -> Frame {
        let session = try session(of: userID)
        return try frame(request, as: session)
    }

    mutating func call<R: WireRequest>(_ request: R, from userID: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws -> R.Reply {
        let reply = try frame(request, from: userID)
        if reply.flags.contains(.error) {
            let error = try reply.decode(ErrorReply.self)
            Issue.record("\(R.command) failed: \(error.code.rawValue) \(error.text)", sourceLocation: sourceLocation)
        }
        return try reply.decode(R.Reply.self)
    }

    mutating func refusal<R: WireRequest>(_ request: R, from userID: Int64, sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorReply {
        let reply = try frame(request, from: userID)
        #expect(reply.flags.contains(.error), "\(R.command) was answered, not refused", sourceLocation: sourceLocation)
        return try reply.decode(ErrorReply.self)
    }

    private mutating func call<R: WireRequest>(_ request: R, as session: SessionID) throws -> R.Reply {
        try frame(request, as: session).decode(R.Reply.self)
    }

    private mutating func frame<R: WireRequest>(_ request: R, as session: SessionID) throws -> Frame {
        sequence += 1
        now += .milliseconds(3)
        let out = core.handle(try Frame.request(request, sequence: sequence), from: session, at: now)
        return try #require(out.first).frame
    }
}
