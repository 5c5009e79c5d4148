import ArgumentParser
import LowbandBasics

/// The words a command hands to a program it starts (`lowband startup -- CMD…`,
/// `lowband shell -- CMD…`). ArgumentParser's passthrough captures everything from the first word
/// the parser does not know, its own `--help` and `-h` included: those are asked for here, and an
/// option the parser did not know is refused as an option, with the nearest known one.
enum PassedThrough {
    /// - Parameters:
    ///   - words: what the parser passed through.
    ///   - command: the command they belong to (its help is printed for `--help`).
    ///   - options: the command's own options, for the suggestion.
    ///   - program: what goes after `--`, in words ("the program to time").
    static func validate(_ words: [String], of command: any ParsableCommand, options: [String], program: String) throws {
        if let first = words.first, ["--help", "-h", "-help"].contains(first) {
            throw CleanExit.helpRequest(command)
        }
        if let first = words.first, first != "--", first.hasPrefix("-") {
            let word = first.split(separator: "=", maxSplits: 1).first.map(String.init) ?? first
            let guess = NearestName.suggestion(for: word, among: options).map { "; did you mean '\($0)'?" } ?? ""
            throw ValidationError("unknown option '\(word)'\(guess) (\(program) goes after --)")
        }
    }
}
