import Foundation
import LowbandRunReport

/// report.html of a session folder, from its record.json (``SessionDocument``): the verdict,
/// the network's timeline (a lane per destination and connection, bytes each way, outages,
/// handovers, toxics, switches, resets, DNS, the app's events), the promises with their broken
/// cases, the slowest legs as the run report's waterfall and every leg's parts in a table, and
/// the command that gives the same network again with commit and host.
enum SessionReportHTML {
    static func render(_ document: SessionDocument) -> String {
        let title = document.title
        var body = "<h1>\(HTMLPage.escape(title))</h1>\n"
        let broken = document.promises.filter { $0.violations > 0 }
        body += "<p class=\"verdict\">\(broken.isEmpty ? "Every promise held or was not checked" : "\(broken.count) promise\(broken.count == 1 ? "" : "s") broken"): \(HTMLPage.escape(document.tally)); bounds: \(HTMLPage.escape(document.bounds)).</p>\n"
        if let proof = document.proof {
            let proved = proof.hasPrefix("proved")
            let words = proof.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
            body += "<p class=\"proof \(proved ? "proved" : "not-proved")\" id=\"proof\"><strong>\(proved ? "Cause proved" : "Cause not proved")</strong>: \(HTMLPage.escape(words))</p>\n"
        }
        body += "<p class=\"provenance\">Same network again: <code>\(HTMLPage.escape(document.command))</code>"
        if !document.switches.isEmpty {
            // A replay plays the switches itself; another command leaves them to the reader.
            let replays = document.command.contains(" --replay ")
            body += (replays ? " (it plays these switches at their times too: " : "; then, as during the session: ")
                + document.switches.map { HTMLPage.escape($0) }.joined(separator: "; ") + (replays ? ")" : "")
        }
        if let recordedWith = document.recordedWith {
            body += ". Recorded with <code>\(HTMLPage.escape(recordedWith))</code>"
        }
        body += ". Recorded \(HTMLPage.escape(document.timestamp)) on \(HTMLPage.escape(document.host)) at commit \(HTMLPage.escape(document.commit)), \(String(format: "%.1f", document.seconds)) s.</p>\n"
        if let shell = document.shell { body += shell.html }
        body += "<h2 id=\"timeline\">What the network did</h2>\n"
        body += SessionTimelineChart.figure(document.timeline, title: "The session's connections on one time axis")
        body += "<h2 id=\"promises\">Promises</h2>\n<table><thead><tr><th>promise</th><th>verdict</th><th>what it means</th></tr></thead><tbody>\n"
        for check in document.promises {
            body += "<tr><td><code>\(HTMLPage.escape(check.name))</code></td><td>\(HTMLPage.escape(check.verdict))</td><td>\(HTMLPage.escape(check.promise))</td></tr>\n"
        }
        body += "</tbody></table>\n"
        if !document.violations.isEmpty {
            body += "<h3>Broken cases</h3>\n<ol>\n"
            for violation in document.violations { body += "<li>\(HTMLPage.escape(violation))</li>\n" }
            body += "</ol>\n"
        }
        body += "<h2 id=\"legs\">Where the time went</h2>\n"
        if document.legs.isEmpty {
            body += "<p>No message was acknowledged or delivered.</p>\n"
        } else {
            let legs = document.legs.map { row in
                SessionWaterfall.Leg(
                    label: "\(row.message) → \(row.leg)", parts: row.parts.map { ($0.name, $0.milliseconds) },
                    tooltip: "message \(row.message) of chat \(row.chat), sent at \(String(format: "%.3f", row.sentSeconds)) s, to \(row.leg): \(String(format: "%.1f", row.totalMilliseconds)) ms")
            }
            body += SessionWaterfall.figure(legs, title: "Slowest legs, part by part")
            let names = document.legs[0].parts.map(\.name)
            body += "<table><thead><tr><th>message</th><th>leg</th><th>total ms</th>" + names.map { "<th>\(HTMLPage.escape($0)) ms</th>" }.joined() + "</tr></thead><tbody>\n"
            for row in document.legs.prefix(2_000) {
                body += "<tr><td>\(HTMLPage.escape(row.message))</td><td>\(HTMLPage.escape(row.leg))</td><td>\(String(format: "%.1f", row.totalMilliseconds))</td>"
                    + row.parts.map { "<td>\(String(format: "%.1f", $0.milliseconds))</td>" }.joined() + "</tr>\n"
            }
            body += "</tbody></table>\n"
        }
        body += "<h2>Verdict</h2>\n<pre class=\"words\">\(HTMLPage.escape(document.verdict))</pre>\n"
        if !document.played.isEmpty {
            let lines = document.played + (document.recorderCheck.map { [$0] } ?? [])
            body += "<h2>Faults played</h2>\n<p>From the proxies' own events, link by link.</p>\n<pre class=\"words\">\(HTMLPage.escape(lines.joined(separator: "\n")))</pre>\n"
        }
        return HTMLPage.document(title: title, body: body)
    }
}
