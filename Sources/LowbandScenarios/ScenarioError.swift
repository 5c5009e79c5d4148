/// Why a run could not start or could not finish: a code plus what was wrong and what to do.
///
/// A struct with an extensible code, so adding a reason never breaks a caller's `switch`.
package struct ScenarioError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason of a ``ScenarioError``; compare with the static members, e.g. `.invalidOptions`.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, e.g. `invalidOptions`.
        package let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { name }

        /// The scenario name is not one of ``ScenarioName``.
        package static let unknownScenario = Code("unknownScenario")
        /// The options contradict each other or the scenario (zero clients, no duration…).
        package static let invalidOptions = Code("invalidOptions")
        /// The run could not be set up (a port, a temporary directory, a client's cache).
        package static let setupFailed = Code("setupFailed")
    }

    /// What kind of failure it is.
    package var code: Code
    /// What was wrong and what to do, for a human.
    package var message: String

    /// An error with `code` and a `message` saying what was wrong and what to do.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
