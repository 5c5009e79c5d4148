import Foundation

/// `--prove`: a failing seed run again with the fault its cause names left out, all else
/// identical, `runs` times, and with that fault alone as many times; the cause is proved when
/// the promise held every time without it and broke every time with it alone. When it is not
/// (or the cause names no planned fault), delta debugging over the faults the proxies played
/// finds the smallest set that still breaks the promise alone (docs/APP-EVENTS.md, "Proving a cause").
struct ExecProof: Sendable {
    let options: ExecOptions
    let seed: UInt64
    let plan: ExecFaultPlan
    let window: Duration
    /// The seed's session folder; the proof's runs are kept under `prove/` in it.
    let folder: String
    /// The most single runs the search for what made the difference may take.
    static let searchBudget = 10

    /// The proof's verdict.
    struct Outcome: Sendable {
        /// One line: `proved: without fault 4 (reset) held 3 of 3, with it alone broke 3 of 3`, or
        /// `not proved: …` and then what made the difference.
        var line: String
        /// Whether the named cause was proved.
        var proved: Bool
        /// The command that shows the difference alone, when the search found one.
        var command: String?
    }

    /// Proves or refutes `fault` (`fault 4`) as the cause of the case `subject` (`m-3@bob`) of
    /// `signature` (the promise that broke, or `exit`/`timeout`); `asked` are the faults the
    /// proxies played, `words` names them. Without the fault, that very case must hold (the
    /// same message on the same device: other faults may still break others); with it alone,
    /// the promise must break on the same device. Without a subject, the promise as a whole.
    func prove(signature: String, subject: String? = nil, fault: String?, asked: [Int], words: [Int: String]) async throws -> Outcome {
        let base = options.selection
        var attempt = 0
        // `m-3@bob`: the device after the last `@` (an app's message id may hold one itself).
        let subjectParts = subject.flatMap { subject in subject.lastIndex(of: "@").map { (message: String(subject[..<$0]), device: String(subject[subject.index(after: $0)...])) } }
        let device = subjectParts?.device
        /// Whether the run of `selection` broke the case (`exact`) or the promise on its device.
        func breaks(_ selection: ExecFaultSelection, _ label: String, exact: Bool = false) async throws -> Bool {
            attempt += 1
            let result = try await ExecSession.run(
                options, seed: seed, faults: plan, window: window, folder: "\(folder)/prove/\(attempt)-\(label)", selection: selection)
            guard let subject, let device else { return result.broken.contains { $0.name == signature } }
            if exact { return result.brokenSubjects.contains("\(signature) \(subject)") }
            return result.brokenSubjects.contains { $0.hasPrefix("\(signature) ") && $0.hasSuffix("@\(device)") }
        }
        var line: String
        var proved = false
        if let fault, let number = Int(fault.dropFirst("fault ".count)) {
            let named = "\(fault)" + (words[number].map { " (\($0))" } ?? "")
            var held = 0
            var broke = 0
            for _ in 0 ..< options.proveRuns {
                if try await !breaks(ExecFaultSelection(without: base.without.union([number]), only: base.only), "without-\(number)", exact: true) { held += 1 }
            }
            for _ in 0 ..< options.proveRuns {
                if try await breaks(ExecFaultSelection(only: [number]), "only-\(number)") { broke += 1 }
            }
            proved = held == options.proveRuns && broke == options.proveRuns
            let runs = options.proveRuns
            let what = subjectParts.map { (held: "\(signature) of \($0.message) on \($0.device)", broke: "\(signature) on \($0.device)") } ?? (held: signature, broke: signature)
            line = "\(proved ? "proved" : "not proved"): without \(named) \(what.held) held \(held) of \(runs), with it alone \(what.broke) broke \(broke) of \(runs)"
            if proved { return Outcome(line: line, proved: true, command: nil) }
        } else {
            line = "not proved: the cause names no planned fault"
        }
        // What did make the difference: the smallest set of played faults that breaks it alone.
        var current = Set(asked)
        guard !current.isEmpty else { return Outcome(line: line + "; no fault was played, so the app decides it", proved: false, command: nil) }
        var budget = Self.searchBudget - 1
        guard try await breaks(ExecFaultSelection(only: current), "only-all") else {
            return Outcome(line: line + "; all \(current.count) played faults alone did not break it again: the app's timing decides it", proved: false, command: nil)
        }
        var parts = 2
        search: while current.count >= 2, budget > 0 {
            let sorted = current.sorted()
            let size = (sorted.count + parts - 1) / parts
            let chunks = stride(from: 0, to: sorted.count, by: size).map { Set(sorted[$0 ..< min($0 + size, sorted.count)]) }
            for chunk in chunks where budget > 0 {
                budget -= 1
                if try await breaks(ExecFaultSelection(only: chunk), "only-\(chunk.sorted().map(String.init).joined(separator: "+"))") {
                    current = chunk
                    parts = 2
                    continue search
                }
            }
            for chunk in chunks where budget > 0 && chunks.count > 2 {
                let rest = current.subtracting(chunk)
                budget -= 1
                if try await breaks(ExecFaultSelection(only: rest), "only-\(rest.sorted().map(String.init).joined(separator: "+"))") {
                    current = rest
                    parts = max(parts - 1, 2)
                    continue search
                }
            }
            guard parts < current.count else { break }
            parts = min(current.count, parts * 2)
        }
        let selection = ExecFaultSelection(only: current)
        let named = current.sorted().map { number in "fault \(number)" + (words[number].map { " (\($0))" } ?? "") }
        let together = current.count == 1 ? named[0] : named.joined(separator: " with ") + " together"
        let command = options.command(seed: seed, faults: plan, window: window, selection: selection)
        return Outcome(
            line: line + "; the fewest played faults that broke it again alone, one run each: \(together) (of \(asked.count) played)", proved: false,
            command: command)
    }
}
