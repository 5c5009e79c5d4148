import LowbandFindings

/// One profile's promises: a table of every check (the promise in words, the cases checked, the
/// violations) and an entry per broken promise with its time, client, chat, message, detail and
/// trace lines, each linked to its mark on the timeline.
enum InvariantSection {
    static func render(record: RunRecord, slug: String) -> String {
        var html = "<section class=\"invariants\" id=\"\(ViolationAnchor.sectionID(slug: slug))\"><h3>Promises</h3>"
        if record.invariants.isEmpty, record.violations.isEmpty {
            html += "<p class=\"no-data\">Promises not checked: this record of \(HTMLEscaping.escape(record.profile)) has no invariant checks.</p>"
            return html + "</section>"
        }
        html += summary(record)
        if !record.invariants.isEmpty { html += table(record) }
        if !record.violations.isEmpty { html += list(record, slug: slug) }
        return html + "</section>"
    }

    private static func summary(_ record: RunRecord) -> String {
        let checks = record.invariants
        let broken = checks.filter { $0.violations > 0 }
        let unchecked = checks.filter { $0.checked == 0 && $0.violations == 0 }.count
        var text: String
        if broken.isEmpty, record.violations.isEmpty {
            text = "Every promise checked held: \(checks.count - unchecked) of \(checks.count) checked"
            text += unchecked == 0 ? "." : ", \(unchecked) with no case to check in this run."
        } else if broken.isEmpty {
            text = "\(record.violations.count) broken promise\(record.violations.count == 1 ? "" : "s") listed below."
        } else {
            text = "\(broken.count) of \(checks.count) promises broken: "
                + broken.map { "\($0.name) ×\(NumberFormatting.number(Double($0.violations)))" }.joined(separator: ", ") + "."
        }
        if unchecked > 0 {
            text += " No case: " + checks.filter { $0.checked == 0 && $0.violations == 0 }.map(\.name).joined(separator: ", ") + "."
        }
        if let drain = record.drain {
            text += " After the traffic the run \(drain.words)."
        }
        let status = broken.isEmpty && record.violations.isEmpty ? "pass" : "fail"
        return "<p class=\"invariants-summary \(status)\">\(HTMLEscaping.escape(text))</p>"
    }

    private static func table(_ record: RunRecord) -> String {
        var html = "<table class=\"invariants\"><caption>\(HTMLEscaping.escape("Promises checked on \(record.profile)"))</caption><thead><tr>"
        html += "<th scope=\"col\">check</th><th scope=\"col\">promise</th><th scope=\"col\" class=\"num\">cases checked</th>"
        html += "<th scope=\"col\" class=\"num\">violations</th><th scope=\"col\">result</th></tr></thead><tbody>"
        for check in record.invariants {
            let result: (text: String, css: String) = check.violations > 0 ? ("FAIL", "fail") : check.checked > 0 ? ("PASS", "pass") : ("not checked", "unchecked")
            html += "<tr class=\"\(result.css)\"><th scope=\"row\"><code>\(HTMLEscaping.escape(check.name))</code></th>"
            html += "<td class=\"words\">\(HTMLEscaping.escape(check.promise))</td>"
            html += "<td class=\"num\">\(NumberFormatting.number(Double(check.checked)))</td>"
            html += "<td class=\"num\">\(NumberFormatting.number(Double(check.violations)))</td>"
            html += "<td class=\"result \(result.css)\">\(result.text)</td></tr>"
        }
        return html + "</tbody></table>"
    }

    private static func list(_ record: RunRecord, slug: String) -> String {
        let kept = record.violations.count
        let total = record.brokenPromises
        var html = "<h4>Broken promises (\(NumberFormatting.number(Double(total))))</h4>"
        if total > kept {
            html += "<p class=\"note\">The first \(NumberFormatting.number(Double(kept))) by time are listed; the counts above are complete.</p>"
        }
        // A long list scrolls in its own box so the charts below stay within reach.
        html += "<ol class=\"violations\(kept > 12 ? " scroll" : "")\">"
        for (offset, violation) in record.violations.enumerated() {
            html += entry(violation, slug: slug, number: offset + 1)
        }
        return html + "</ol>"
    }

    private static func entry(_ violation: InvariantViolation, slug: String, number: Int) -> String {
        var html = "<li class=\"violation\" id=\"\(ViolationAnchor.entryID(slug: slug, number: number))\"><p class=\"violation-head\">"
        html += "<a class=\"violation-time\" href=\"#\(ViolationAnchor.markID(slug: slug, number: number))\">"
        html += "\(HTMLEscaping.escape(NumberFormatting.number(violation.seconds))) s on the timeline</a> "
        html += "<strong>\(HTMLEscaping.escape(violation.invariant))</strong>"
        let place = Self.place(violation)
        if !place.isEmpty { html += " <span class=\"violation-place\">\(HTMLEscaping.escape(place))</span>" }
        html += "</p>"
        let detail = "<span class=\"violation-detail\">\(HTMLEscaping.escape(violation.detail))</span>"
        if violation.traceLines.isEmpty {
            html += "<p>\(detail) <span class=\"note\">· no trace lines near this moment</span></p>"
        } else {
            // The detail is the summary, so an entry takes two lines until its trace is opened.
            let count = violation.traceLines.count
            html += "<details><summary>\(detail) <span class=\"note\">· \(count) trace line\(count == 1 ? "" : "s") around it</span></summary>"
            html += "<pre class=\"trace\">\(HTMLEscaping.escape(violation.traceLines.joined(separator: "\n")))</pre></details>"
        }
        return html + "</li>"
    }

    /// `client 4 · chat 67 · message 2051 · client id 9`, from the parts the violation has.
    static func place(_ violation: InvariantViolation) -> String {
        [
            violation.client.map { "client \($0)" },
            violation.chat.map { "chat \($0)" },
            violation.message.map { "message \($0)" },
            violation.clientID.map { "client id \($0)" },
        ].compactMap(\.self).joined(separator: " · ")
    }
}
