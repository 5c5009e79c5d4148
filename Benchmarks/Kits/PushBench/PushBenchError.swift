/// Why the push-to-visible harness could not do what it was asked.
///
/// An extensible code plus a message that says what was wrong, where, and what to do.
public struct PushBenchError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No profile file of that name on the search path.
        public static let profileNotFound = Code("profileNotFound")
        /// The profile has no single floor (a trace-driven or time-varying link).
        public static let unsupportedProfile = Code("unsupportedProfile")
        /// The seeded world has no user or chat the harness can use.
        public static let noChat = Code("noChat")
        /// Something the harness waited for did not happen in time.
        public static let timedOut = Code("timedOut")
        /// The harness was stopped (or never started) while it was used, or a push was not
        /// prepared first.
        public static let stopped = Code("stopped")
        /// Another message than the pushed one entered the list first.
        public static let unexpectedRow = Code("unexpectedRow")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "push-bench \(code): \(message)" }
}
