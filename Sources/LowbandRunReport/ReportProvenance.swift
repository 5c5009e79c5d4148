/// Which code measured a run, where and when: the report's origin line (`#origin`; the word
/// "provenance" would put "nan" in a report that promises never to show one).
///
/// Kept apart from ``RunRecord`` on purpose: `record.json` and the trace of a virtual-time run
/// are byte-identical for a seed on any machine and commit; only `report.html` and
/// `results.csv` carry these.
package struct ReportProvenance: Sendable, Hashable {
    /// The short git commit, or `unknown`.
    package var commit: String
    /// Where the commit came from, or why it is unknown, in words.
    package var commitNote: String
    /// The machine the run ran on.
    package var host: String
    /// The Swift compiler that built the binary, `major.minor`.
    package var swiftVersion: String
    /// When the run started, ISO-8601 in UTC.
    package var timestamp: String

    /// A provenance; `commitNote` defaults to empty.
    package init(commit: String, commitNote: String = "", host: String, swiftVersion: String, timestamp: String) {
        self.commit = commit
        self.commitNote = commitNote
        self.host = host
        self.swiftVersion = swiftVersion
        self.timestamp = timestamp
    }

    /// One line of HTML: commit, host, compiler and start, and why the commit is unknown.
    func html() -> String {
        var parts = "<p class=\"origin\" id=\"origin\">commit <code>\(HTMLEscaping.escape(commit))</code>"
        parts += " · host <code>\(HTMLEscaping.escape(host))</code> · Swift \(HTMLEscaping.escape(swiftVersion))"
        parts += " · started \(HTMLEscaping.escape(timestamp))"
        if commit == "unknown", !commitNote.isEmpty {
            parts += "<br><span class=\"note\">\(HTMLEscaping.escape(commitNote))</span>"
        }
        return parts + "</p>"
    }
}
