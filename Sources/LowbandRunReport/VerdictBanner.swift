/// The verdict on a run's promises at the top of the report.
///
/// When any profile broke a promise: a FAIL banner (`violations-banner`) naming each such
/// profile and what it broke, linked to its promises section. When promises were checked and all
/// held: a PASS line (`invariants-pass`). Nothing when no record was checked.
enum VerdictBanner {
    static func render(_ records: [RunRecord], slugs: [String]) -> String {
        let failing = zip(records, slugs).filter { $0.0.brokenPromises > 0 }
        let checked = records.filter { !$0.invariants.isEmpty }
        if !failing.isEmpty {
            let parts = failing.map { record, slug -> String in
                let broken = record.invariants.filter { $0.violations > 0 }.map { "\($0.name) ×\(NumberFormatting.number(Double($0.violations)))" }
                let what = broken.isEmpty ? "\(NumberFormatting.number(Double(record.brokenPromises))) broken" : broken.joined(separator: ", ")
                return "<a href=\"#\(ViolationAnchor.sectionID(slug: slug))\">\(HTMLEscaping.escape(record.profile))</a>: \(HTMLEscaping.escape(what))"
            }
            let profiles = records.count == 1 ? "" : " on \(failing.count) of \(records.count) profiles"
            return "<div id=\"violations-banner\" class=\"banner\" role=\"alert\"><strong>FAIL</strong> — the run broke a messenger's promises\(profiles): "
                + parts.joined(separator: "; ") + ".</div>"
        }
        guard !checked.isEmpty else { return "" }
        let unchecked = records.filter { $0.invariants.isEmpty }.map(\.profile)
        var text = "every promise checked held on " + checked.map { "\($0.profile) (\($0.invariants.tally))" }.joined(separator: ", ")
        if !unchecked.isEmpty { text += "; not checked on \(unchecked.joined(separator: ", "))" }
        return "<div id=\"invariants-pass\" class=\"banner pass\"><strong>PASS</strong> — \(HTMLEscaping.escape(text)).</div>"
    }
}
