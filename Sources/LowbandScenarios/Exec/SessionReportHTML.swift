import Foundation
import LowbandAppEvents
import LowbandRunReport

/// report.html of a session folder: the verdict, the promises with their broken cases, and
/// every message's legs as a stacked bar of link down, loss stalls, queueing, transit and app time.
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
            let colors = ["#c0392b", "#e67e22", "#8e44ad", "#2980b9", "#7f8c8d"]
            let longest = max(1, record.breakdown.map(\.totalMilliseconds).max() ?? 1)
            body += "<p>" + zip(record.breakdown[0].parts, colors).map { "<span style=\"color:\($1)\">■</span> \($0.name)" }.joined(separator: " &nbsp; ") + "</p>\n"
            body += "<table><thead><tr><th>message</th><th>leg</th><th>ms</th><th></th></tr></thead><tbody>\n"
            for row in record.breakdown.prefix(2_000) {
                var bar = "<svg width=\"400\" height=\"12\" role=\"img\">"
                var x = 0.0
                for (part, color) in zip(row.parts, colors) where part.milliseconds > 0 {
                    let width = part.milliseconds / longest * 400
                    bar += String(format: "<rect x=\"%.1f\" y=\"0\" width=\"%.1f\" height=\"12\" fill=\"%@\"><title>%@ %.1f ms</title></rect>", x, width, color, part.name, part.milliseconds)
                    x += width
                }
                bar += "</svg>"
                body += "<tr><td>\(HTMLPage.escape(row.message))</td><td>\(HTMLPage.escape(row.leg))</td><td>\(String(format: "%.1f", row.totalMilliseconds))</td><td>\(bar)</td></tr>\n"
            }
            body += "</tbody></table>\n"
        }
        body += "<h2>Verdict</h2>\n<pre>\(HTMLPage.escape(verdict))</pre>\n"
        if !record.played.isEmpty { body += "<h2>Faults played</h2>\n<pre>\(HTMLPage.escape(record.played.joined(separator: "\n")))</pre>\n" }
        return HTMLPage.document(title: title, body: body)
    }
}
