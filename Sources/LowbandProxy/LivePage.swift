/// The live page the control API serves at `/ui?token=…` (`lowband proxy` prints the address):
/// one self-contained HTML file, no external assets. A top bar names the proxy, the link's state
/// (up, an outage or handover and until when, or a partition) and the profile and seed, with the
/// record's switch only while a record runs. Below it, side by side: the profile's figures each
/// way (rate, delay, loss, queue) next to what the link does now (throughput over the last
/// second, the link's queue out of the profile's, what the proxy holds, the radio), and the
/// controls (switch profile or seed, "outage now" and "handover now" for N s). Then the
/// throughput each way over the last minute against the profile's rates, the open connections
/// each with a lane of its bytes, and the toxics with a form to add one. The controls make the
/// same calls a script makes. It follows the proxy's event stream
/// (`GET /proxies/{proxy}/events`) and lists connections every second; every request carries
/// the page's token in `X-Lowband-Token`, without which the API refuses browsers.
///
/// Markup, style and script are in `LivePage+Markup.swift`, `LivePage+Style.swift` and
/// `LivePage+Script.swift`; what the server fills in before any script runs is ``FirstView``.
/// `lowband shell --api` serves the same page for its one link (named `shell`): with
/// ``FirstView/frames`` the page shows the packets each way (delivered, dropped and why) in
/// place of connections, which packets do not have, and offers the toxics the shell plays.
package enum LivePage {
    /// The page with `view` rendered into it: a screenshot at load shows the link as it is.
    package static func html(_ view: FirstView) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Lowband — live</title>
        <style>
        \(style)
        </style>
        </head>
        <body>
        \(markup(view))
        <script>
        \(script)
        </script>
        </body>
        </html>
        """
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
