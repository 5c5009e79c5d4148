/// Places short labels next to positions on a horizontal axis without letting two cover each
/// other: each label goes into the first row where it fits, and more rows are added as needed.
///
/// Widths are ``TextWidth`` estimates (which err wide). A label runs to the right of its
/// position, or ends at it when it would run past `right`.
struct LabelRows {
    struct Placement {
        /// Where the text is anchored, and whether it starts or ends there.
        var x: Double
        var anchor: String
        /// 0 is the first row.
        var row: Int
    }

    private(set) var placements: [Placement] = []
    private(set) var rowCount = 0

    /// `labels` (position, text) laid out between `left` and `right`, in the given order.
    init(_ labels: [(x: Double, text: String)], fontSize: Double, left: Double, right: Double, gap: Double = 6) {
        // Occupied [start, end] stretches per row.
        var rows: [[(start: Double, end: Double)]] = []
        for label in labels {
            let width = TextWidth.estimate(label.text, fontSize: fontSize)
            let runsRight = label.x + 3 + width <= right || label.x - 3 - width < left
            let start = runsRight ? label.x + 3 : label.x - 3 - width
            let end = start + width
            let row = rows.firstIndex { taken in taken.allSatisfy { end + gap <= $0.start || start >= $0.end + gap } } ?? rows.count
            if row == rows.count { rows.append([]) }
            rows[row].append((start, end))
            placements.append(Placement(x: runsRight ? label.x + 3 : label.x - 3, anchor: runsRight ? "start" : "end", row: row))
        }
        rowCount = rows.count
    }
}
