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
        var attempt = 0
        let device = CauseProof.parts(of: subject)?.device
        /// Whether the run of `selection` broke the case (`exact`) or the promise on its device.
        func breaks(_ selection: FaultSelection, _ label: String, exact: Bool) async throws -> Bool {
            attempt += 1
            let result = try await ExecSession.run(
                options, seed: seed, faults: plan, window: window, folder: "\(folder)/prove/\(attempt)-\(label)", selection: selection)
            guard let subject, let device else { return result.broken.contains { $0.name == signature } }
            if exact { return result.brokenSubjects.contains("\(signature) \(subject)") }
            return result.brokenSubjects.contains { $0.hasPrefix("\(signature) ") && $0.hasSuffix("@\(device)") }
        }
        let proof = CauseProof(runs: options.proveRuns, searchBudget: Self.searchBudget, base: options.selection, breaks: breaks)
        let found = try await proof.prove(signature: signature, subject: subject, fault: fault, asked: asked, words: words)
        let command = found.selection.map { options.command(seed: seed, faults: plan, window: window, selection: $0) }
        return Outcome(line: found.line, proved: found.proved, command: command)
    }
}
