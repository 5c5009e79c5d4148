import Foundation
import LowbandFixtures

/// A chaos soak of real processes, run to its verdict: `lowband server --data`, `lowband proxy`
/// on a hostile profile and one `lowband client` per writer, killed with SIGKILL and restarted
/// on the plan's seeded schedule; then the server's data and every client's cache are audited.
package enum Soak {
    /// What a soak did and what the audit found.
    package struct Outcome {
        package var tally: SoakDriver.Tally
        package var audit: SoakAudit
    }

    /// Runs `plan` with the processes of `executable` (a `lowband` binary) in `directory`
    /// (logs, server data and client caches; it must hold empty `logs` and `clients` folders),
    /// audits what they stored, and writes `results.csv` there. `progress` gets a status line
    /// about once a second.
    package static func run(plan: SoakPlan, directory: String, executable: String, progress: @escaping (String) -> Void) async throws -> Outcome {
        let world = MessengerWorld(seed: plan.seed, shape: SoakCast.shape(clients: plan.clients))
        let cast = SoakCast(world: world, clients: plan.clients, messages: plan.messages, seed: plan.seed)
        let files = SoakDriver.Files(directory: directory)
        let driver = SoakDriver(plan: plan, cast: cast, files: files, executable: executable, progress: progress)
        let tally = try await driver.run()
        let server = try SoakServerData.messages(in: files.serverData)
        let databases = try cast.writers.map { (name: "client \($0.label)", database: try SoakClientDatabase.read(files.database($0))) }
        let audit = SoakAudit(server: server, clients: databases, at: tally.wall / .seconds(1))
        try SoakReport.writeCSV(audit: audit, tally: tally, plan: plan, to: "\(directory)/results.csv")
        return Outcome(tally: tally, audit: audit)
    }
}
