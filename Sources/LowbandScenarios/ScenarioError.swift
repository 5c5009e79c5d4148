/// Why a run could not start or could not finish: a code plus what was wrong and what to do.
///
/// A struct with an extensible code, so adding a reason never breaks a caller's `switch`.
public struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The scenario name is not one of ``ScenarioName``.
        public static let unknownScenario = Code("unknownScenario")
        /// The options contradict each other or the scenario (zero clients, no duration…).
        public static let invalidOptions = Code("invalidOptions")
        /// The run could not be set up (a port, a temporary directory, a client's cache).
        public static let setupFailed = Code("setupFailed")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
