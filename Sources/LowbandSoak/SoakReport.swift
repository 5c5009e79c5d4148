import Foundation
package import LowbandReports

/// The soak's one-screen summary and its rows in the benchmark CSV schema.
package enum SoakReport {
    package static let suite = "soak"

    package static func benchmark(_ plan: SoakPlan) -> String {
        "\(plan.profile)-\(plan.clients)-clients-\(plan.messages)-messages"
    }

    /// `soak.lost`, `soak.duplicated`, … and the kills survived, the wall time.
    package static func rows(audit: SoakAudit, tally: SoakDriver.Tally, plan: SoakPlan, environment: RunEnvironment) -> [BenchmarkRow] {
        let figures: [(String, String, Double)] = [
            ("soak.stored", "count", Double(audit.stored)),
            ("soak.acknowledged", "count", Double(audit.acknowledged)),
            ("soak.lost", "count", Double(audit.lost)),
            ("soak.duplicated", "count", Double(audit.duplicated)),
            ("soak.out_of_order", "count", Double(audit.outOfOrder)),
            ("soak.diverged", "count", Double(audit.diverged)),
            ("soak.unsent", "count", Double(audit.unsent)),
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
        let lines: [(String, Int, String)] = [
            ("lost", audit.lost, "acknowledged to a client, missing on the server"),
            ("duplicated", audit.duplicated, "stored once, on the server more than once"),
            ("out of order", audit.outOfOrder, "a client's messages not in the order it stored them"),
            ("diverged", audit.diverged, "a client shows a row the server holds differently"),
            ("unsent", audit.unsent, "still in an outbox at the end"),
        ]
        for (name, count, meaning) in lines {
            text += name.padding(toLength: 14, withPad: " ", startingAt: 0) + String(count).leftPadded(7) + "  " + meaning + "\n"
        }
        if !audit.problems.isEmpty {
            text += "\nfirst problems:\n" + audit.problems.map { "  " + $0 }.joined(separator: "\n") + "\n"
        }
        if !tally.clientErrors.isEmpty {
            text += "\n\(tally.clientErrors.count) client runs exited with an error on their own (restarted); the first: \(tally.clientErrors[0])\n"
        }
        text += "\nlogs, databases and results.csv: \(out)/\n"
        return text
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
