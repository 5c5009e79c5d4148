import Foundation
import LowbandRunReport

/// What `lowband shell --record DIR` ran and what crossed its link, kept in record.json
/// (`shell`) beside the session the proxy's record keeps: the command, its exit status, the
/// profile and seed it started on, and the frames each way, delivered and dropped by cause.
package struct ShellRunRecord: Codable, Sendable, Hashable {
    /// One direction of the link: frames and IP bytes offered and delivered, drops by cause.
    package struct Lane: Codable, Sendable, Hashable {
        package var offeredFrames: Int
        package var offeredBytes: Int
        package var deliveredFrames: Int
        package var deliveredBytes: Int
        package var dropped: [String: Int]

        package init(offeredFrames: Int, offeredBytes: Int, deliveredFrames: Int, deliveredBytes: Int, dropped: [String: Int]) {
            self.offeredFrames = offeredFrames
            self.offeredBytes = offeredBytes
            self.deliveredFrames = deliveredFrames
            self.deliveredBytes = deliveredBytes
            self.dropped = dropped
        }
    }

    /// The command and its arguments, as run inside.
    package var command: [String]
    /// Its exit status (128 + N when signal N ended it).
    package var exitStatus: Int32
    /// The profile and seed the link started with (switches are the document's `switches`).
    package var profile: String
    package var seed: UInt64
    /// From the link's start to the command's end.
    package var seconds: Double
    package var upstream: Lane
    package var downstream: Lane

    package init(command: [String], exitStatus: Int32, profile: String, seed: UInt64, seconds: Double, upstream: Lane, downstream: Lane) {
        self.command = command
        self.exitStatus = exitStatus
        self.profile = profile
        self.seed = seed
        self.seconds = seconds
        self.upstream = upstream
        self.downstream = downstream
    }

    /// The report's table: a row each way.
    var html: String {
        func row(_ name: String, _ lane: Lane) -> String {
            let causes = lane.dropped.keys.sorted().map { "\($0) \(lane.dropped[$0]!)" }.joined(separator: ", ")
            return "<tr><td>\(name)</td><td>\(lane.offeredFrames)</td><td>\(lane.deliveredFrames)</td><td>\(lane.deliveredBytes)</td>"
                + "<td>\(lane.dropped.values.reduce(0, +))</td><td>\(HTMLPage.escape(causes.isEmpty ? "none" : causes))</td></tr>\n"
        }
        return "<h2 id=\"shell\">The command's packets</h2>\n<p><code>\(HTMLPage.escape(command.joined(separator: " ")))</code> exited \(exitStatus) after "
            + String(format: "%.1f", seconds) + " s on \(HTMLPage.escape(profile)), seed \(seed).</p>\n"
            + "<table><thead><tr><th>direction</th><th>frames offered</th><th>delivered</th><th>IP bytes delivered</th><th>dropped</th><th>causes</th></tr></thead><tbody>\n"
            + row("uplink", upstream) + row("downlink", downstream) + "</tbody></table>\n"
    }
}
