extension ErrorReply {
    /// Error codes; a struct so new codes never break a switch.
    public struct Code: RawRepresentable, Codable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// 400: the request is malformed or its values are invalid.
        public static let badRequest = Code(rawValue: 400)
        /// 401: the login token was refused, or the request came before a login.
        public static let unauthorized = Code(rawValue: 401)
        /// 403: the user may not do this (e.g. write to a chat they are not in).
        public static let forbidden = Code(rawValue: 403)
        /// 404: the chat, message or upload does not exist.
        public static let notFound = Code(rawValue: 404)
        /// 405: the server does not know the command.
        public static let unsupportedCommand = Code(rawValue: 405)
        /// 413: the request is over one of the server's limits (payload, text, attachments).
        public static let payloadTooLarge = Code(rawValue: 413)
        /// 500: the server failed; the request may be retried.
        public static let internalError = Code(rawValue: 500)
    }
}
