public import LowbandWire

/// The messenger server's logic, with no I/O: state, and a function from (session, frame, now)
/// to the frames to send to which sessions.
///
/// Transport plumbing (``MessengerServer`` over any `LowbandTransport/FrameLink`) only moves
/// frames in and out, so everything here is tested without sockets or sleeping. Time comes in
/// as the server scheduler's `now`; server time is ``ServerConfiguration/epoch`` plus that, in
/// milliseconds, kept strictly increasing for change stamps. The core draws nothing at random:
/// its data comes in whole, as a `ServerSnapshot` (`LowbandFixtures` makes one of a seeded
/// world). Nothing iterates a dictionary on the way to the wire:
/// members, sessions and chats are kept in ascending arrays.
///
/// Each call returns what to send, in order: the reply to the request first (an
/// `LowbandWire/ErrorReply` frame when the request is refused), then the pushes it causes,
/// by receiving user and session, ascending. Each frame names the wire dictionary its session
/// agreed at login (`LowbandWire/Frame/compressionDictionary`), for the encoder to compress with.
public struct ServerCore: Sendable {
    /// The settings the core was made with.
    public let configuration: ServerConfiguration
    /// What the core has done so far.
    public internal(set) var statistics = ServerStatistics()

    var clock: ServerClock
    /// Indexed by user id − 1.
    var users: [UserState]
    var userIDsByToken: [String: Int64] = [:]
    /// Indexed by chat id − 1.
    var chats: [ChatState]
    var sentMessages: [ClientMessageKey: MessageReference] = [:]
    var uploads: [UploadKey: UploadState] = [:]
    var storedUploadBytes = 0
    var uploadsStarted = 0
    var sessions: [SessionID: SessionState] = [:]
    var lastSessionID: UInt64 = 0
    var lastMessageID: Int64
    /// Where every change goes before it is answered (nothing, for a server in memory).
    var store: any ServerStore
    /// Where upload bytes are kept.
    var uploadStorage: any UploadStorage
    /// The highest upload number handed out (names an upload's bytes in the storage).
    var lastUploadNumber: Int64

    /// A server in memory whose data is `snapshot`.
    package init(configuration: ServerConfiguration, snapshot: ServerSnapshot) {
        self.init(configuration: configuration, snapshot: snapshot, store: MemoryServerStore(), uploadStorage: MemoryUploadStorage())
    }

    // MARK: Sessions

    /// A new connection: a session that is not logged in yet.
    public mutating func openSession() -> SessionID {
        lastSessionID += 1
        let id = SessionID(rawValue: lastSessionID)
        sessions[id] = SessionState()
        return id
    }

    /// The connection is gone; its user stops getting pushes there.
    public mutating func closeSession(_ session: SessionID) {
        guard let state = sessions.removeValue(forKey: session) else { return }
        if let userID = state.userID { detach(session, from: userID) }
    }

    /// Open sessions, ascending.
    public var openSessions: [SessionID] { sessions.keys.sorted() }

    /// Who `session` is logged in as; nil before login (or for an unknown session).
    public func userID(of session: SessionID) -> Int64? {
        sessions[session]?.userID
    }

    /// The sessions logged in as `userID`, ascending.
    public func sessions(of userID: Int64) -> [SessionID] {
        user(userID)?.sessions ?? []
    }

    // MARK: Requests

    /// Handles one frame that arrived on `session` at the scheduler's `now`.
    ///
    /// A request gets exactly one reply (or error reply) with its sequence number. Frames that
    /// cannot be answered — pushes from a client — are dropped and counted. Unknown sessions
    /// get nothing.
    public mutating func handle(_ frame: Frame, from session: SessionID, at now: Duration) -> [Outbound] {
        guard sessions[session] != nil else { return [] }
        if frame.command.isPush || frame.flags.contains(.push) {
            statistics.ignoredFrames += 1
            return []
        }
        statistics.requests += 1
        // The reply is compressed as the session agreed before this request: the login reply
        // that names a dictionary is not yet compressed with it.
        let agreed = sessions[session]?.dictionary
        var pushes: [Outbound] = []
        var reply: Frame
        do throws(ErrorReply) {
            if let refusal = dictionaryRefusal(frame, session: session) { throw refusal }
            reply = try respond(to: frame, from: session, at: now, pushes: &pushes)
        } catch {
            statistics.errorReplies += 1
            reply = errorFrame(error, answering: frame)
        }
        reply.compressionDictionary = agreed
        statistics.pushes += pushes.count
        return [Outbound(session: session, frame: reply)] + pushes
    }

    private static let requestCommands: Set<Command> = [.ping, .login, .history, .sendMessage, .markRead, .uploadChunk, .uploadStatus]

    private mutating func respond(to frame: Frame, from session: SessionID, at now: Duration, pushes: inout [Outbound]) throws(ErrorReply) -> Frame {
        guard frame.flags.isEmpty else {
            throw ErrorReply(.badRequest, "a \(frame.command) frame with flags \(frame.flags) is not a request: clients send frames without the response, error and push flags")
        }
        guard Self.requestCommands.contains(frame.command) else {
            throw ErrorReply(.unsupportedCommand, "command \(frame.command) is not a request this server answers")
        }
        if frame.command == .login {
            return try reply(login(decode(LoginRequest.self, from: frame), session: session, at: now), to: frame)
        }
        guard let userID = sessions[session]?.userID else {
            throw ErrorReply(.unauthorized, "\(frame.command) needs a logged-in session: send login with your token first")
        }
        switch frame.command {
        case .ping:
            _ = try decode(Ping.self, from: frame)
            return try reply(Pong(serverTime: clock.reading(at: now)), to: frame)
        case .history:
            return try historyReply(decode(HistoryRequest.self, from: frame), userID: userID, frame: frame)
        case .sendMessage:
            let (message, sent) = try send(decode(SendMessageRequest.self, from: frame), userID: userID, session: session, at: now)
            pushes = sent
            return try reply(SendMessageReply(message: message), to: frame)
        case .markRead:
            pushes = try markRead(decode(MarkReadRequest.self, from: frame), userID: userID, session: session, at: now)
            return try reply(Ack(), to: frame)
        case .uploadChunk:
            return try reply(uploadChunk(decode(UploadChunkRequest.self, from: frame), userID: userID), to: frame)
        case .uploadStatus:
            return try reply(uploadStatus(decode(UploadStatusRequest.self, from: frame), userID: userID), to: frame)
        default:
            throw ErrorReply(.unsupportedCommand, "command \(frame.command) is not a request this server answers")
        }
    }

    func decode<M: WireMessage>(_ type: M.Type, from frame: Frame) throws(ErrorReply) -> M {
        do {
            return try frame.decode(type)
        } catch {
            throw ErrorReply(.badRequest, "malformed \(frame.command) request: \(error.message)")
        }
    }

    /// The reply frame for `request`, or 413 when it would not fit in one frame.
    func reply<M: WireMessage>(_ message: M, to request: Frame) throws(ErrorReply) -> Frame {
        let frame: Frame
        do {
            frame = try Frame.response(message, answering: request)
        } catch {
            throw ErrorReply(.internalError, "cannot encode the \(request.command) reply: \(error)")
        }
        guard fits(frame) else {
            throw ErrorReply(.payloadTooLarge, "the \(request.command) reply would be \(frame.payload.count) bytes, over the frame limit of \(configuration.frame.maximumPayloadLength)")
        }
        return frame
    }

    func fits(_ frame: Frame) -> Bool {
        frame.payload.count <= configuration.frame.maximumPayloadLength
    }

    private func errorFrame(_ error: ErrorReply, answering request: Frame) -> Frame {
        var reply = error
        if reply.text.utf8.count > 1024 {
            reply.text = String(decoding: reply.text.utf8.prefix(1024), as: UTF8.self)
        }
        if let frame = try? Frame.error(reply, command: request.command, sequence: request.sequence) {
            return frame
        }
        // Cannot happen (the text is cut to 1 KiB above); if it did, the v2 ErrorReply [500, ""].
        return Frame(flags: [.response, .error], command: request.command, sequence: request.sequence, payload: [0x92, 0xCD, 0x01, 0xF4, 0xA0])
    }

    // MARK: Shared helpers

    func user(_ id: Int64) -> UserState? {
        id >= 1 && id <= Int64(users.count) ? users[Int(id - 1)] : nil
    }

    /// The chat's index, checking it exists and `userID` is a member.
    func memberChat(_ chatID: Int64, userID: Int64) throws(ErrorReply) -> (chat: Int, member: Int) {
        guard chatID >= 1, chatID <= Int64(chats.count) else {
            throw ErrorReply(.notFound, "there is no chat \(chatID)")
        }
        let index = Int(chatID - 1)
        guard let member = chats[index].memberIndex(userID) else {
            throw ErrorReply(.forbidden, "user \(userID) is not a member of chat \(chatID)")
        }
        return (index, member)
    }

    mutating func attach(_ session: SessionID, to userID: Int64) {
        if let previous = sessions[session]?.userID {
            if previous == userID { return }
            detach(session, from: previous)
        }
        sessions[session]?.userID = userID
        var list = users[Int(userID - 1)].sessions
        list.insert(session, at: list.firstIndex { $0 > session } ?? list.count)
        users[Int(userID - 1)].sessions = list
    }

    private mutating func detach(_ session: SessionID, from userID: Int64) {
        users[Int(userID - 1)].sessions.removeAll { $0 == session }
    }

    /// One push frame per logged-in session of `userIDs` (ascending), except `excluded`, each
    /// with its session's next push sequence number.
    mutating func pushes<M: WirePush>(_ message: M, to userIDs: [Int64], excluding excluded: SessionID? = nil) -> [Outbound] {
        guard let template = try? Frame.push(message, sequence: 0) else { return [] }
        var result: [Outbound] = []
        for userID in userIDs {
            for session in users[Int(userID - 1)].sessions where session != excluded {
                guard var state = sessions[session] else { continue }
                state.pushSequence &+= 1
                sessions[session] = state
                var frame = template
                frame.sequence = state.pushSequence
                frame.compressionDictionary = state.dictionary
                result.append(Outbound(session: session, frame: frame))
            }
        }
        return result
    }
}
