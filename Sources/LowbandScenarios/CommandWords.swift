/// The words of a command line as `lowband run` and `lowband explore` print them: a word with
/// characters a shell would treat specially is single-quoted, and reads back the same.
package enum CommandWords {
    /// `word`, single-quoted when a shell would not take it as it is.
    package static func quoted(_ word: String) -> String {
        let plain = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./,:=".contains($0) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `words` joined into one command line.
    package static func join(_ words: [String]) -> String {
        words.map(quoted).joined(separator: " ")
    }

    /// The words of a command line written by ``join(_:)``: split at spaces, single quotes
    /// taken off, a backslash taking the next character as it is (so `'\''` is a quote).
    package static func split(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quoted = false
        var escaped = false
        for character in line {
            if quoted {
                if character == "'" { quoted = false } else { current.append(character) }
            } else if escaped {
                current.append(character)
                escaped = false
            } else if character == "'" {
                quoted = true
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
