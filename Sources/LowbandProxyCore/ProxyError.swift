/// Why a proxy, a toxic or a control request failed: an extensible code, a message saying what
/// was wrong and what to do, and the HTTP status the control API answers with.
public struct ProxyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure this is; new codes may be added without breaking callers.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the control API's error bodies give it.
        public let name: String
        /// The status the toxiproxy-compatible API answers with.
        public let httpStatus: Int

        /// A code named `name` that the control API answers with `httpStatus`.
        public init(name: String, httpStatus: Int) {
            self.name = name
            self.httpStatus = httpStatus
        }

        public var description: String { name }

        /// An address that is not `host:port`.
        public static let badEndpoint = Code(name: "badEndpoint", httpStatus: 400)
        /// A request body or parameter of the wrong shape.
        public static let badRequest = Code(name: "badRequest", httpStatus: 400)
        /// A required field is absent.
        public static let missingField = Code(name: "missingField", httpStatus: 400)
        /// A toxic type toxiproxy does not define.
        public static let invalidToxicType = Code(name: "invalidToxicType", httpStatus: 400)
        /// A stream other than `upstream` or `downstream`.
        public static let invalidStream = Code(name: "invalidStream", httpStatus: 400)
        /// A toxic attribute that is unknown or out of range.
        public static let invalidAttribute = Code(name: "invalidAttribute", httpStatus: 400)
        /// No profile has the name, or the file cannot be loaded.
        public static let unknownProfile = Code(name: "unknownProfile", httpStatus: 400)
        /// No proxy has the name.
        public static let proxyNotFound = Code(name: "proxyNotFound", httpStatus: 404)
        /// The proxy has no toxic of the name.
        public static let toxicNotFound = Code(name: "toxicNotFound", httpStatus: 404)
        /// The proxy has no open connection of the number.
        public static let connectionNotFound = Code(name: "connectionNotFound", httpStatus: 404)
        /// The control API has no such route.
        public static let routeNotFound = Code(name: "routeNotFound", httpStatus: 404)
        /// The route does not take the method.
        public static let methodNotAllowed = Code(name: "methodNotAllowed", httpStatus: 405)
        /// A proxy of the name exists already.
        public static let proxyExists = Code(name: "proxyExists", httpStatus: 409)
        /// The proxy has a toxic of the name already.
        public static let toxicExists = Code(name: "toxicExists", httpStatus: 409)
        /// A request body over the API's limit.
        public static let bodyTooLarge = Code(name: "bodyTooLarge", httpStatus: 413)
        /// The registry holds its maximum number of proxies.
        public static let tooManyProxies = Code(name: "tooManyProxies", httpStatus: 429)
        /// More app events than the session takes per second (`POST /events`): the rest were dropped and counted.
        public static let tooManyEvents = Code(name: "tooManyEvents", httpStatus: 429)
        /// The control API serves its maximum number of event streams.
        public static let tooManyEventStreams = Code(name: "tooManyEventStreams", httpStatus: 503)
        /// The listening address cannot be bound.
        public static let listenFailed = Code(name: "listenFailed", httpStatus: 500)
        /// The proxy's event loop is gone.
        public static let notRunning = Code(name: "notRunning", httpStatus: 500)
    }

    /// What kind of failure this is.
    public var code: Code
    /// What was wrong and what to do, for a person.
    public var message: String

    /// An error of `code` saying `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
