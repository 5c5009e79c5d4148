/// The known name a mistyped one most likely meant, for "did you mean" in errors.
package enum NearestName {
    /// The name in `known` closest to `name` by edit distance (case folded), when it is close
    /// enough to be a typo: at most a third of the longer name's length, and at most 3 edits.
    package static func suggestion(for name: String, among known: [String]) -> String? {
        let typed = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in known {
            let other = Array(candidate.lowercased())
            let distance = editDistance(typed, other)
            let allowed = min(3, max(1, max(typed.count, other.count) / 3))
            guard distance > 0, distance <= allowed else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0 ... b.count)
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
