import Foundation
import LowbandAppEvents
import LowbandRunReport

/// report.html of a session folder: the verdict, the promises with their broken cases, and
/// the slowest legs as the run report's waterfall (link down, loss stalls, queueing, transit, app),
/// and every leg's parts in a table.
enum SessionReportHTML {
    static func render(_ record: SessionRecord, title: String, verdict: String) -> String {
        var body = "<h1>\(HTMLPage.escape(title))</h1>\n"
        let broken = record.book.checks.filter { $0.violations > 0 }
        body += "<p class=\"verdict\">\(broken.isEmpty ? "Every promise held or was not checked" : "\(broken.count) promise\(broken.count == 1 ? "" : "s") broken"): \(HTMLPage.escape(record.book.checks.tally)); bounds: \(HTMLPage.escape(record.bounds.description)).</p>\n"
        body += "<h2 id=\"promises\">Promises</h2>\n<table><thead><tr><th>promise</th><th>verdict</th><th>what it means</th></tr></thead><tbody>\n"
        for check in record.book.checks {
            body += "<tr><td><code>\(HTMLPage.escape(check.name))</code></td><td>\(HTMLPage.escape(check.verdict))</td><td>\(HTMLPage.escape(check.promise))</td></tr>\n"
        }
        body += "</tbody></table>\n"
        if !record.book.violations.isEmpty {
            body += "<h3>Broken cases</h3>\n<ol>\n"
            for violation in record.book.violations { body += "<li>\(HTMLPage.escape(violation.summary))</li>\n" }
            body += "</ol>\n"
        }
        body += "<h2 id=\"legs\">Where the time went</h2>\n"
        if record.breakdown.isEmpty {
            body += "<p>No message was acknowledged or delivered.</p>\n"
        } else {
            let legs = record.breakdown.map { row in
                SessionWaterfall.Leg(
                    label: "\(row.message) → \(row.leg)", parts: row.parts,
                    tooltip: "message \(row.message) of chat \(row.chat), sent at \(String(format: "%.3f", row.sentSeconds)) s, to \(row.leg): \(String(format: "%.1f", row.totalMilliseconds)) ms")
            }
            body += SessionWaterfall.figure(legs, title: "Slowest legs, part by part")
            let names = record.breakdown[0].parts.map(\.name)
            body += "<table><thead><tr><th>message</th><th>leg</th><th>total ms</th>" + names.map { "<th>\(HTMLPage.escape($0)) ms</th>" }.joined() + "</tr></thead><tbody>\n"
            for row in record.breakdown.prefix(2_000) {
                body += "<tr><td>\(HTMLPage.escape(row.message))</td><td>\(HTMLPage.escape(row.leg))</td><td>\(String(format: "%.1f", row.totalMilliseconds))</td>"
                    + row.parts.map { "<td>\(String(format: "%.1f", $0.milliseconds))</td>" }.joined() + "</tr>\n"
            }
            body += "</tbody></table>\n"
        }
        body += "<h2>Verdict</h2>\n<pre>\(HTMLPage.escape(verdict))</pre>\n"
        if !record.played.isEmpty { body += "<h2>Faults played</h2>\n<pre>\(HTMLPage.escape(record.played.joined(separator: "\n")))</pre>\n" }
        return HTMLPage.document(title: title, body: body)
    }
}
