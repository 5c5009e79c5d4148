public import LowbandWire

/// Why a client operation failed: a code plus what happened and where.
///
/// A struct with an extensible code (not an enum), so adding a reason never breaks a caller's
/// `switch`. Server refusals keep the server's `LowbandWire/ErrorReply`.
public struct ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a ``ClientError``; compare with the static members, e.g. `.timedOut`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `timedOut`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The request was made while no session was logged in; retry after the next login.
        public static let notConnected = Code("notConnected")
        /// The link went away with the request in flight; its effect on the server is unknown.
        public static let connectionLost = Code("connectionLost")
        /// No reply within the request's timeout; its effect on the server is unknown.
        public static let timedOut = Code("timedOut")
        /// The server answered with an error reply (see `serverReply`).
        public static let server = Code("server")
        /// The reply could not be decoded as the request's reply type.
        public static let malformedReply = Code("malformedReply")
        /// The request could not be encoded.
        public static let encodingFailed = Code("encodingFailed")
        /// The engine was stopped.
        public static let stopped = Code("stopped")
        /// The server refused the login token; the engine does not retry.
        public static let unauthorized = Code("unauthorized")
        /// Too many requests are waiting for replies.
        public static let tooManyRequests = Code("tooManyRequests")
        /// The cache could not be read or written.
        public static let database = Code("database")
        /// Stored data contradicts itself (e.g. an outbox task whose dependency is missing).
        public static let inconsistentState = Code("inconsistentState")
        /// The call names a chat or message the cache does not hold.
        public static let unknownMessage = Code("unknownMessage")
    }

    /// Why the operation failed.
    public var code: Code
    /// What happened and where, for a human.
    public var message: String
    /// The server's refusal, when `code` is `.server` or `.unauthorized`.
    public var serverReply: ErrorReply?

    /// An error with `code`, a `message` saying what failed and where, and the server's reply if
    /// the server refused.
    public init(_ code: Code, _ message: String, serverReply: ErrorReply? = nil) {
        self.code = code
        self.message = message
        self.serverReply = serverReply
    }

    /// Whether trying again later (after a reconnect) can succeed: the request may not have
    /// reached the server, or the server was busy (429) or failed (500). Other refusals are final.
    public var isTransient: Bool {
        switch code {
        case .notConnected, .connectionLost, .timedOut, .tooManyRequests: true
        case .server: [429, 500].contains(serverReply?.code.rawValue ?? 500)
        default: false
        }
    }

    public var description: String {
        if let serverReply { return "\(message) (server: \(serverReply.code.rawValue) \(serverReply.text))" }
        return message
    }
}
