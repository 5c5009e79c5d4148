/// The timeline's radio lane: the device's radio power state over the run, as bands — the top
/// state (data moves) darkest, promotions in amber, lower states lighter, the bottom palest —
/// each band titled with its state, start and length.
enum RadioLane {
    static let promoting = "#F9A825"
    /// Fills from the top state down; a ladder longer than this reuses the last.
    static let shades = ["#1B5E20", "#66BB6A", "#C8E6C9", "#EEEEEE"]

    /// The spans of `events`' radio states: each from its event to the next radio event (the
    /// last to `runEnd`).
    static func spans(_ events: [TimelineEvent], runEnd: Double) -> [(span: TimeSpan, state: String)] {
        let radio = TimelineSpans.ordered(events).filter { $0.kind == .radio }
        return radio.enumerated().compactMap { index, event in
            let end = index + 1 < radio.count ? radio[index + 1].seconds : Swift.max(runEnd, event.seconds)
            return end > event.seconds ? (TimeSpan(start: event.seconds, end: end), event.detail) : nil
        }
    }

    static func render(_ events: [TimelineEvent], time: LinearScale, top: Double, height: Double, runEnd: Double) -> String {
        let spans = spans(events, runEnd: runEnd)
        // States in the order they first appear, promotions apart: the first is the top.
        var order: [String] = []
        for span in spans where !span.state.hasPrefix("promoting") && !order.contains(span.state) { order.append(span.state) }
        let bands = spans.map { span -> String in
            let fill: String
            if span.state.hasPrefix("promoting") {
                fill = promoting
            } else {
                let rank = order.firstIndex(of: span.state) ?? 0
                fill = shades[Swift.min(rank, shades.count - 1)]
            }
            let title = "\(span.state) from \(NumberFormatting.number(span.span.start)) s for \(NumberFormatting.duration(seconds: span.span.end - span.span.start))"
            return SVG.rect(
                x: time(span.span.start), y: top + 2, width: Swift.max(time(span.span.end) - time(span.span.start), 0.5), height: height - 4,
                attributes: ["class": "radio-state", "fill": fill], title: title)
        }
        return SVG.group(bands, attributes: ["class": "radio-lane"])
    }
}
