/// What one outage is, for every count of outages a run writes: the `outages` metric, the
/// timeline's caption and its shaded bands.
///
/// An outage is a stretch of time during which the network carried nothing, from the first
/// cause starting to the last one ending: causes that overlap (a handover inside a tunnel's
/// blackout) are one outage, and one still going when the run ended counts too.
package enum Outages {
    /// The definition in words, for the report's glossary.
    package static let definition = "a stretch of time during which the network carried nothing, "
        + "from the first cause starting to the last one ending: overlapping causes (a handover inside a blackout) are one outage, "
        + "and one still going at the end of the run counts"

    /// The outages in `timeline` (events of a run whose clock ran to `runEnd` seconds).
    package static func count(in timeline: [TimelineEvent], runEnd: Double) -> Int {
        TimelineSpans.outages(timeline, runEnd: runEnd).count
    }
}
