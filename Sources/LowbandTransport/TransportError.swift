/// Why a link could not be opened or went away: a code plus what happened and where.
///
/// A struct with an extensible code rather than an enum, so adding a reason never breaks a
/// caller's `switch`. Frame-level protocol errors are `LowbandWire/WireError`s and reach
/// `linkDidClose(_:error:)` as they are.
package struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a `TransportError`; compare with the static members, e.g. `.connectTimeout`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `connectTimeout`.
        package let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { name }

        /// Nobody accepts connections there (the server is down, or refuses them on purpose).
        package static let connectionRefused = Code("connectionRefused")
        /// The connection was not established within the connect timeout.
        package static let connectTimeout = Code("connectTimeout")
        /// Connecting failed for another reason (address, socket, resolver).
        package static let connectFailed = Code("connectFailed")
        /// The connection was aborted by the network (a dropped radio link, a cut network).
        package static let connectionReset = Code("connectionReset")
        /// A listener could not bind its address.
        package static let bindFailed = Code("bindFailed")
        /// The operation needs a state the object is not in (e.g. stopping a listener that never started).
        package static let invalidState = Code("invalidState")
    }

    /// What kind of failure it is.
    package var code: Code
    /// What happened and where, for a human.
    package var message: String

    /// An error with `code` and a `message` saying what happened and where.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
