import Foundation

/// What `lowband startup --measure` asks for: wall clock in plain runs, instructions (and the
/// cycle estimate) in runs under callgrind.
package struct StartupMeasures: Sendable, Hashable {
    /// Wall-clock time to the ready line (and peak resident size), in uninstrumented runs.
    package var time = false
    /// Instructions executed to the ready line, in runs under callgrind.
    package var instructions = false
    /// The cycle estimate from callgrind's cache simulation (with the instructions, same runs).
    package var cycles = false

    /// The measures named; none by default.
    package init(time: Bool = false, instructions: Bool = false, cycles: Bool = false) {
        self.time = time
        self.instructions = instructions
        self.cycles = cycles
    }

    /// The names `--measure` knows, in the order the help lists them.
    package static let known = ["time", "instructions", "cycles"]

    /// Why a `--measure` value was refused.
    package struct ParseError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Reads `time`, `instructions`, `time,instructions`, `cycles`…; `cycles` implies
    /// `instructions` (one callgrind run gives both).
    package static func parse(_ text: String) throws(ParseError) -> StartupMeasures {
        var measures = StartupMeasures()
        for word in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
            switch word {
            case "time": measures.time = true
            case "instructions": measures.instructions = true
            case "cycles": measures.instructions = true; measures.cycles = true
            default:
                throw ParseError(description: "--measure knows \(known.joined(separator: ", ")) (comma-separated), not '\(word)'")
            }
        }
        return measures
    }

    /// `text` read, or time alone when it cannot be (validation refused it already).
    package static func parseOrTime(_ text: String) -> StartupMeasures {
        (try? parse(text)) ?? StartupMeasures(time: true)
    }

    /// Whether any run is instrumented.
    package var instrumented: Bool { instructions || cycles }
}
