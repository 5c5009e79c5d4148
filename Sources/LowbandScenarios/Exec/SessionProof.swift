import Foundation

/// `lowband explain DIR --prove`: proves the cause of a session folder's first broken case by
/// running its seed again, as `explore --exec --prove` does for a failing seed, and adds the
/// verdict to the folder (verdict.txt, record.json, report.html).
package enum SessionProof {
    /// A session that cannot be proved, and why, in one line.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String
    }

    /// What the session in `folder` needs proved: the broken promise and the fault its cause
    /// names, read from record.json.
    ///
    /// - Throws: ``Refusal`` when nothing broke or the folder is no session.
    package static func claim(folder: String) throws -> (signature: String, subject: String?, fault: String?, asked: [Int], words: [Int: String], command: String) {
        let document: SessionDocument
        do {
            document = try SessionDocument.read(folder: folder)
        } catch {
            throw Refusal(description: "\(error)")
        }
        guard document.command.hasPrefix("lowband explore "), document.command.contains(" --exec ") else {
            throw Refusal(description: "\(folder) was recorded by a proxy driven by hand (\(document.command.prefix(40))…): no command runs its app again, so its cause cannot be proved; play its network again with `lowband proxy --replay \(folder)` and drive the app yourself")
        }
        guard let signature = document.signature else {
            throw Refusal(description: "\(folder): every promise held in this session; there is no cause to prove")
        }
        let faults = document.faults ?? []
        return (signature, document.causeSubject, document.causeFault, faults.filter(\.asked).map(\.number),
                Dictionary(faults.map { ($0.number, $0.words) }, uniquingKeysWith: { first, _ in first }), document.command)
    }

    /// Proves the cause `claim` read, with `options` parsed from the session's own command
    /// (one seed); writes the verdict into the folder and returns it.
    package static func prove(folder: String, options: ExecOptions) async throws -> String {
        let claim = try claim(folder: folder)
        guard let seed = options.seeds.seeds.first, options.seeds.seeds.count == 1 else {
            throw Refusal(description: "\(folder): its command names \(options.seeds.seeds.count) seeds; a session is one seed's")
        }
        let outcome = try await ExecProof(options: options, seed: seed, plan: options.faults.resolved(seed: seed, within: options.faultKinds), window: options.window, folder: folder)
            .prove(signature: claim.signature, subject: claim.subject, fault: claim.fault, asked: claim.asked, words: claim.words)
        let proof = outcome.line + (outcome.command.map { "  (alone: \($0))" } ?? "")
        try SessionDocument.amend(folder: folder, proof: proof)
        return proof
    }
}
