/// Which of a seed's numbered faults are played, all else identical: all of them, all but some
/// (`--without-faults 4`: what `--prove` runs to show a fault was needed), or only some
/// (`--only-faults 4`: to show it was enough). The numbers are the seed's schedule's (`fault 4`
/// in faults.txt), so a fault keeps its number, its time and its link whatever else is left out.
package struct FaultSelection: Sendable, Hashable, CustomStringConvertible {
    /// Faults not played.
    package var without: Set<Int>
    /// When set, the only faults played.
    package var only: Set<Int>?

    /// Every fault played.
    package static let all = FaultSelection()

    /// A selection leaving out `without`, and when `only` is given playing only those.
    package init(without: Set<Int> = [], only: Set<Int>? = nil) {
        self.without = without
        self.only = only
    }

    /// The selection of `--without-faults` and `--only-faults` (comma-separated numbers).
    ///
    /// - Throws: ``ScenarioError`` `invalidOptions` naming the option and the word that is no fault number.
    package init(without: String?, only: String?) throws(ScenarioError) {
        func numbers(_ text: String?, _ option: String) throws(ScenarioError) -> Set<Int>? {
            guard let text else { return nil }
            var result: Set<Int> = []
            for word in text.split(separator: ",") {
                guard let number = Int(word.trimmingCharacters(in: .whitespaces)), number >= 1 else {
                    throw ScenarioError(.invalidOptions, "\(option) \(text): '\(word)' is not a fault number (the numbers of faults.txt: 1, 2, …)")
                }
                result.insert(number)
            }
            return result
        }
        self.init(without: try numbers(without, "--without-faults") ?? [], only: try numbers(only, "--only-faults"))
    }

    /// Whether fault `number` is played.
    package func plays(_ number: Int) -> Bool {
        !without.contains(number) && (only?.contains(number) ?? true)
    }

    /// True when every fault is played.
    package var isAll: Bool { without.isEmpty && only == nil }

    /// The options that give this selection: `--without-faults 4`, `--only-faults 2,5`.
    package var words: [String] {
        var words: [String] = []
        if !without.isEmpty { words += ["--without-faults", Self.list(without)] }
        if let only { words += ["--only-faults", Self.list(only)] }
        return words
    }

    package var description: String {
        if isAll { return "every fault" }
        var parts: [String] = []
        if !without.isEmpty { parts.append("without \(Self.faults(without))") }
        if let only { parts.append("only \(Self.faults(only))") }
        return parts.joined(separator: ", ")
    }

    /// `fault 4`, `faults 2 and 5`, `faults 1, 2 and 5`.
    static func faults(_ numbers: Set<Int>) -> String {
        let sorted = numbers.sorted().map(String.init)
        if sorted.count == 1 { return "fault \(sorted[0])" }
        return "faults " + sorted.dropLast().joined(separator: ", ") + " and " + sorted.last!
    }

    private static func list(_ numbers: Set<Int>) -> String {
        numbers.sorted().map(String.init).joined(separator: ",")
    }
}
