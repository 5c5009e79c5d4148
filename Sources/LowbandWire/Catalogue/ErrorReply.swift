/// The payload of a response with the error flag: a code and a text for humans.
public struct ErrorReply: Codable, Hashable, Sendable, Error {
    /// Error codes; a struct so new codes never break a switch.
    public struct Code: RawRepresentable, Codable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let badRequest = Code(rawValue: 400)
        public static let unauthorized = Code(rawValue: 401)
        public static let forbidden = Code(rawValue: 403)
        public static let notFound = Code(rawValue: 404)
        public static let unsupportedCommand = Code(rawValue: 405)
        public static let payloadTooLarge = Code(rawValue: 413)
        public static let internalError = Code(rawValue: 500)
    }

    public var code: Code
    public var text: String

    public init(code: Code, text: String) {
        self.code = code
        self.text = text
    }
}
