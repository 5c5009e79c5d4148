import Foundation
import LowbandFixtures
import LowbandServer
import LowbandTestSupport
import LowbandWire
import Testing

/// Drives a ``ServerCore`` directly: no links, no sockets, time moved by hand.
struct CoreHarness {
    var core: ServerCore
    /// The seeded data the core started from.
    let world: MessengerWorld
    var now: Duration = .zero
    private var sequence: UInt32 = 0

    init(seed: UInt64 = 7, shape: MessengerWorld.Shape = MessengerWorld.Shape(), limits: ServerLimits = ServerLimits(), frame: FrameConfiguration = FrameConfiguration()) {
        world = MessengerWorld(seed: seed, shape: shape)
        core = ServerCore(world: world, configuration: ServerConfiguration(limits: limits, frame: frame))
    }

    mutating func open() -> SessionID {
        core.openSession()
    }

    mutating func nextSequence() -> UInt32 {
        sequence += 1
        return sequence
    }

    /// Sends a raw frame and returns everything the core answers.
    mutating func handle(_ frame: Frame, on session: SessionID) -> [Outbound] {
        core.handle(frame, from: session, at: now)
    }

    /// Sends a request and returns everything the core answers (reply first).
    mutating func send<R: WireRequest>(_ request: R, on session: SessionID) throws -> [Outbound] {
        try handle(Frame.request(request, sequence: nextSequence()), on: session)
    }

    /// Sends a request, checks the first frame is its successful reply on the same session, and
    /// returns the decoded reply with the pushes that followed.
    mutating func call<R: WireRequest>(_ request: R, on session: SessionID, sourceLocation: SourceLocation = #_sourceLocation) throws -> (reply: R.Reply, frame: Frame, pushes: [Outbound]) {
        let frame = try Frame.request(request, sequence: nextSequence())
        let out = handle(frame, on: session)
        let first = try #require(out.first, sourceLocation: sourceLocation)
        #expect(first.session == session, sourceLocation: sourceLocation)
        #expect(first.frame.sequence == frame.sequence, sourceLocation: sourceLocation)
        #expect(first.frame.command == R.command, sourceLocation: sourceLocation)
        if first.frame.flags.contains(.error) {
            let error = try first.frame.decode(ErrorReply.self)
            Issue.record("\(R.command) failed: \(error.code.rawValue) \(error.text)", sourceLocation: sourceLocation)
        }
        #expect(first.frame.flags.subtracting(.compressed) == .response, sourceLocation: sourceLocation)
        return (try first.frame.decode(R.Reply.self), first.frame, Array(out.dropFirst()))
    }

    /// Sends a request that must be refused; returns the error reply (and checks nothing else was sent).
    mutating func refuse<R: WireRequest>(_ request: R, on session: SessionID, sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorReply {
        try errorReply(to: Frame.request(request, sequence: nextSequence()), on: session, sourceLocation: sourceLocation)
    }

    mutating func errorReply(to frame: Frame, on session: SessionID, sourceLocation: SourceLocation = #_sourceLocation) throws -> ErrorReply {
        let out = handle(frame, on: session)
        #expect(out.count == 1, "an error reply and nothing else", sourceLocation: sourceLocation)
        let first = try #require(out.first, sourceLocation: sourceLocation)
        #expect(first.session == session, sourceLocation: sourceLocation)
        #expect(first.frame.flags == [.response, .error], sourceLocation: sourceLocation)
        #expect(first.frame.sequence == frame.sequence, sourceLocation: sourceLocation)
        #expect(first.frame.command == frame.command, sourceLocation: sourceLocation)
        return try first.frame.decode(ErrorReply.self)
    }

    /// Logs `session` in as `userID`.
    @discardableResult
    mutating func login(_ session: SessionID, as userID: Int64, lastSync: ServerTime = 0) throws -> (reply: LoginReply, bytes: Int, payloadBytes: Int) {
        let token = try #require(core.token(of: userID))
        let (reply, frame, pushes) = try call(LoginRequest(token: token, lastSync: lastSync), on: session)
        #expect(pushes.isEmpty)
        #expect(reply.userID == userID)
        return (reply, try wireBytes(frame), frame.payload.count)
    }
}

/// The frame's size on the wire with the default framing (header, compressed payload if it pays).
func wireBytes(_ frame: Frame) throws -> Int {
    try FrameEncoder().bytes(of: frame).readableBytes
}

/// Decodes a push frame's payload, checking its flags.
func decodePush<M: WirePush>(_ type: M.Type, _ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) throws -> M {
    #expect(frame.flags.subtracting(.compressed) == .push, sourceLocation: sourceLocation)
    #expect(frame.command == M.command, sourceLocation: sourceLocation)
    return try frame.decode(M.self)
}

extension MessengerWorld {
    /// Two users who share a chat, the chat, and a user who is in none of that chat.
    func pairWithOutsider() throws -> (chat: ChatHistory, first: Int64, second: Int64, outsider: Int64) {
        let chat = try #require(chats.first { $0.memberIDs.count >= 2 && $0.memberIDs.count < users.count })
        let outsider = try #require(users.first { !chat.memberIDs.contains($0.id) }).id
        return (chat, chat.memberIDs[0], chat.memberIDs[1], outsider)
    }
}
