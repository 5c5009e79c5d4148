/// Why a link could not be opened or went away: a code plus what happened and where.
///
/// A struct with an extensible code rather than an enum, so adding a reason never breaks a
/// caller's `switch`. Frame-level protocol errors are `LowbandWire/WireError`s and reach
/// `linkDidClose(_:error:)` as they are.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a ``TransportError``; compare with the static members, e.g. `.connectTimeout`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `connectTimeout`.
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// Nobody accepts connections there (the server is down, or refuses them on purpose).
        public static let connectionRefused = Code("connectionRefused")
        /// The connection was not established within the connect timeout.
        public static let connectTimeout = Code("connectTimeout")
        /// Connecting failed for another reason (address, socket, resolver).
        public static let connectFailed = Code("connectFailed")
        /// The connection was aborted by the network (a dropped radio link, a cut network).
        public static let connectionReset = Code("connectionReset")
        /// A listener could not bind its address.
        public static let bindFailed = Code("bindFailed")
        /// The operation needs a state the object is not in (e.g. stopping a listener that never started).
        public static let invalidState = Code("invalidState")
    }

    /// What kind of failure it is.
    public var code: Code
    /// What happened and where, for a human.
    public var message: String

    /// An error with `code` and a `message` saying what happened and where.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
