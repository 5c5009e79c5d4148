/// Why a proxy, a toxic or a control request failed: an extensible code, a message saying what
/// was wrong and what to do, and the HTTP status the control API answers with.
public struct ProxyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; new codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        /// The status the toxiproxy-compatible API answers with.
        public let httpStatus: Int

        public init(name: String, httpStatus: Int) {
            self.name = name
            self.httpStatus = httpStatus
        }

        public var description: String { name }

        public static let badEndpoint = Code(name: "badEndpoint", httpStatus: 400)
        public static let badRequest = Code(name: "badRequest", httpStatus: 400)
        public static let missingField = Code(name: "missingField", httpStatus: 400)
        public static let invalidToxicType = Code(name: "invalidToxicType", httpStatus: 400)
        public static let invalidStream = Code(name: "invalidStream", httpStatus: 400)
        public static let invalidAttribute = Code(name: "invalidAttribute", httpStatus: 400)
        public static let unknownProfile = Code(name: "unknownProfile", httpStatus: 400)
        public static let proxyNotFound = Code(name: "proxyNotFound", httpStatus: 404)
        public static let toxicNotFound = Code(name: "toxicNotFound", httpStatus: 404)
        public static let routeNotFound = Code(name: "routeNotFound", httpStatus: 404)
        public static let methodNotAllowed = Code(name: "methodNotAllowed", httpStatus: 405)
        public static let proxyExists = Code(name: "proxyExists", httpStatus: 409)
        public static let toxicExists = Code(name: "toxicExists", httpStatus: 409)
        public static let bodyTooLarge = Code(name: "bodyTooLarge", httpStatus: 413)
        /// The registry holds its maximum number of proxies.
        public static let tooManyProxies = Code(name: "tooManyProxies", httpStatus: 429)
        /// The control API serves its maximum number of event streams.
        public static let tooManyEventStreams = Code(name: "tooManyEventStreams", httpStatus: 503)
        public static let listenFailed = Code(name: "listenFailed", httpStatus: 500)
        public static let notRunning = Code(name: "notRunning", httpStatus: 500)
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
