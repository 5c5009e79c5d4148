/// The search `--prove` runs, whatever runs the seed again (an app's session on sockets, or a
/// virtual-time run): the seed with the fault a cause names left out, `runs` times, then with it
/// alone as many times; proved when the case held every time without it and the promise broke
/// on the same device every time with it alone. When not (or the cause names no fault), delta
/// debugging over the played faults finds the fewest that break it again alone.
struct CauseProof {
    /// Runs each way (an app's sessions: 3 by default; virtual time: 1, which is exact).
    let runs: Int
    /// The most single runs the search for what made the difference may take.
    let searchBudget: Int
    /// The selection the failing seed ran with (`--without-faults` it had already).
    let base: FaultSelection
    /// Whether the seed run with a selection (and a label for its folder) broke the case itself
    /// (`exact`) or the promise on the case's device.
    let breaks: (FaultSelection, String, Bool) async throws -> Bool
    /// Said after the counts: why one run each way is enough, where it is.
    var exactness = ""

    /// The verdict: a line, whether the named cause was proved, and the selection that shows
    /// what made the difference when the search found one.
    struct Found {
        var line: String
        var proved: Bool
        var selection: FaultSelection?
    }

    /// `m-3@bob` as the message and the device (after the last `@`: an app's message id may hold one).
    static func parts(of subject: String?) -> (message: String, device: String)? {
        subject.flatMap { subject in subject.lastIndex(of: "@").map { (message: String(subject[..<$0]), device: String(subject[subject.index(after: $0)...])) } }
    }

    /// Proves or refutes `fault` (`fault 4`) as the cause of the case `subject` of `signature`;
    /// `asked` are the faults played, `words` names them.
    func prove(signature: String, subject: String?, fault: String?, asked: [Int], words: [Int: String]) async throws -> Found {
        let subjectParts = Self.parts(of: subject)
        var line: String
        var proved = false
        if let fault, let number = Int(fault.dropFirst("fault ".count)) {
            let named = "\(fault)" + (words[number].map { " (\($0))" } ?? "")
            var held = 0
            var broke = 0
            for _ in 0 ..< runs {
                if try await !breaks(FaultSelection(without: base.without.union([number]), only: base.only), "without-\(number)", true) { held += 1 }
            }
            for _ in 0 ..< runs {
                if try await breaks(FaultSelection(only: [number]), "only-\(number)", false) { broke += 1 }
            }
            proved = held == runs && broke == runs
            let what = subjectParts.map { (held: "\(signature) of \($0.message) on \($0.device)", broke: "\(signature) on \($0.device)") } ?? (held: signature, broke: signature)
            line = "\(proved ? "proved" : "not proved"): without \(named) \(what.held) held \(held) of \(runs), with it alone \(what.broke) broke \(broke) of \(runs)\(exactness)"
            if proved { return Found(line: line, proved: true, selection: nil) }
        } else {
            line = "not proved: the cause names no planned fault"
        }
        // What did make the difference: the smallest set of played faults that breaks it alone.
        var current = Set(asked)
        guard !current.isEmpty else { return Found(line: line + "; no fault was played, so the app decides it", proved: false, selection: nil) }
        var budget = searchBudget - 1
        guard try await breaks(FaultSelection(only: current), "only-all", false) else {
            return Found(line: line + "; all \(current.count) played faults alone did not break it again: the app's timing decides it", proved: false, selection: nil)
        }
        var parts = 2
        search: while current.count >= 2, budget > 0 {
            let sorted = current.sorted()
            let size = (sorted.count + parts - 1) / parts
            let chunks = stride(from: 0, to: sorted.count, by: size).map { Set(sorted[$0 ..< min($0 + size, sorted.count)]) }
            for chunk in chunks where budget > 0 {
                budget -= 1
                if try await breaks(FaultSelection(only: chunk), "only-\(chunk.sorted().map(String.init).joined(separator: "+"))", false) {
                    current = chunk
                    parts = 2
                    continue search
                }
            }
            for chunk in chunks where budget > 0 && chunks.count > 2 {
                let rest = current.subtracting(chunk)
                budget -= 1
                if try await breaks(FaultSelection(only: rest), "only-\(rest.sorted().map(String.init).joined(separator: "+"))", false) {
                    current = rest
                    parts = max(parts - 1, 2)
                    continue search
                }
            }
            guard parts < current.count else { break }
            parts = min(current.count, parts * 2)
        }
        let selection = FaultSelection(only: current)
        let named = current.sorted().map { number in "fault \(number)" + (words[number].map { " (\($0))" } ?? "") }
        let together = current.count == 1 ? named[0] : named.joined(separator: " with ") + " together"
        return Found(
            line: line + "; the fewest played faults that broke it again alone, one run each: \(together) (of \(asked.count) played)", proved: false,
            selection: selection)
    }
}
