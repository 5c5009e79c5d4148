/// The shell of Lowband's self-contained HTML pages (the run report's style, no scripts), for
/// other pages such as `lowband explore`'s summary.
package enum HTMLPage {
    /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
    package static func escape(_ text: some StringProtocol) -> String {
        HTMLEscaping.escape(text)
    }

    /// A complete page: `body` is HTML.
    package static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(ReportStyle.css)
        </style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }
}
