import Foundation
package import LowbandReports
import LowbandRunReport

/// The soak's one-screen summary and its rows in the benchmark CSV schema.
package enum SoakReport {
    package static let suite = "soak"
    /// How many problems the summary prints.
    static let problemLines = 20

    package static func benchmark(_ plan: SoakPlan) -> String {
        "\(plan.profile)-\(plan.clients)-clients-\(plan.messages)-messages"
    }

    /// `invariant.<name>` (broken cases) and `invariant.<name>.cases` for each promise, as
    /// `lowband run` writes them, then the soak's own figures: stored, acknowledged, the kills
    /// survived, the wall time.
    package static func rows(audit: SoakAudit, tally: SoakDriver.Tally, plan: SoakPlan, environment: RunEnvironment) -> [BenchmarkRow] {
        var figures: [(String, String, Double)] = []
        for check in audit.book.checks {
            figures.append(("invariant.\(check.name)", "count", Double(check.violations)))
            figures.append(("invariant.\(check.name).cases", "cases", Double(check.checked)))
        }
        figures += [
            ("soak.stored", "count", Double(audit.stored)),
            ("soak.acknowledged", "count", Double(audit.acknowledged)),
            ("soak.client_kills", "count", Double(tally.clientKills)),
            ("soak.server_kills", "count", Double(tally.serverKills)),
            ("soak.proxy_restarts", "count", Double(tally.proxyRestarts)),
            ("soak.client_errors", "count", Double(tally.clientErrors.count)),
            ("soak.wall", "s", tally.wall / .seconds(1)),
        ]
        return figures.map { BenchmarkRow(suite: suite, benchmark: benchmark(plan), metric: $0.0, unit: $0.1, value: $0.2, environment: environment) }
    }

    package static func writeCSV(audit: SoakAudit, tally: SoakDriver.Tally, plan: SoakPlan, to path: String) throws {
        try BenchmarkCSV.write(rows: rows(audit: audit, tally: tally, plan: plan, environment: .current()), to: path)
    }

    package static func summary(audit: SoakAudit, tally: SoakDriver.Tally, plan: SoakPlan, out: String) -> String {
        let seconds = Int((tally.wall / .seconds(1)).rounded())
        var text = "\n\(audit.passed ? "PASS" : "FAIL"): \(audit.stored) messages stored by \(plan.clients) clients, \(audit.acknowledged) acknowledged, in \(seconds / 60) m \(seconds % 60) s\n"
        text += "survived: \(tally.clientKills) client kills, \(tally.serverKills) server kills, \(tally.proxyRestarts) proxy restarts (all kill -9)\n\n"
        text += "invariants: \(audit.book.checks.tally)\n"
        for check in audit.book.checks {
            text += "  " + check.name.padding(toLength: 20, withPad: " ", startingAt: 0) + check.verdict + "\n"
        }
        if !audit.book.violations.isEmpty {
            let shown = audit.book.violations.prefix(Self.problemLines)
            text += "\nfirst problems:\n" + shown.map { "  \($0.invariant): \($0.detail)" }.joined(separator: "\n") + "\n"
            if audit.book.violations.count > shown.count {
                text += "  … \(audit.book.violations.count - shown.count) more (every count is in results.csv)\n"
            }
        }
        if !tally.clientErrors.isEmpty {
            text += "\n\(tally.clientErrors.count) client runs exited with an error on their own (restarted); the first: \(tally.clientErrors[0])\n"
        }
        text += "\nlogs, databases and results.csv: \(out)/\n"
        return text
    }
}
