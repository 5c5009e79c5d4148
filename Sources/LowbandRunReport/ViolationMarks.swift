import LowbandFindings

/// Broken promises as marks on the timeline: a downward triangle whose tip points at the moment,
/// on the lane of the client it happened to. Each mark is a link to its entry in the promises
/// section and the target of that entry's link (see ``ViolationAnchor``).
enum ViolationMarks {
    /// Marks closer than this on one lane are moved apart so each stays clickable.
    static let spacing = 10.0
    /// How far a mark may move from its moment: three marks' width. Beyond that a crowd of
    /// marks at one moment overlaps rather than pretending to be spread over time (a crowd run
    /// found 92 broken promises at its last second).
    static let maximumShift = 3 * spacing

    /// `lane` gives the centre of the lane a violation belongs on; marks keep inside `area`.
    static func render(_ violations: [InvariantViolation], slug: String, time: LinearScale, area: PlotArea, lane: (InvariantViolation) -> Double) -> String {
        let centres = violations.map(lane)
        let xs = dodged(violations.map { Swift.min(Swift.max(time($0.seconds), area.left), area.right) }, lanes: centres, within: area.left...area.right)
        var marks: [String] = []
        for (offset, violation) in violations.enumerated() {
            let number = offset + 1
            let who = violation.client.map { ", client \($0)" } ?? ""
            let tooltip = "\(NumberFormatting.number(violation.seconds)) s — broken promise \(violation.invariant)\(who): \(violation.detail)"
            marks.append(SVG.link(
                href: "#" + ViolationAnchor.entryID(slug: slug, number: number), id: ViolationAnchor.markID(slug: slug, number: number),
                children: [mark(x: xs[offset], y: centres[offset])], attributes: ["class": "mark-violation"], title: tooltip
            ))
        }
        return SVG.group(marks, attributes: ["class": "violation-marks"])
    }

    /// A triangle pointing down at (`x`, `y`).
    static func mark(x: Double, y: Double) -> String {
        var triangle = PathData()
        triangle.move(x - 5, y - 9)
        triangle.line(x + 5, y - 9)
        triangle.line(x, y + 1)
        triangle.close()
        return SVG.path(triangle, attributes: ["fill": ChartPalette.violation, "stroke": "#FFFFFF", "stroke-width": "0.8"])
    }

    /// `xs` moved apart by up to ``spacing`` among marks of one lane, keeping their order in
    /// time, never more than ``maximumShift`` from where they belong and always within `bounds`
    /// (a cluster at the right edge is pushed left). Marks too many for that overlap.
    static func dodged(_ xs: [Double], lanes: [Double], within bounds: ClosedRange<Double>) -> [Double] {
        var result = xs
        var seenLanes: [Double] = []
        for lane in lanes where !seenLanes.contains(lane) { seenLanes.append(lane) }
        for lane in seenLanes {
            let members = xs.indices.filter { lanes[$0] == lane }.sorted { (xs[$0], $0) < (xs[$1], $1) }
            for (position, index) in members.enumerated() where position > 0 {
                result[index] = Swift.min(Swift.max(result[index], result[members[position - 1]] + spacing), xs[index] + maximumShift)
            }
            for position in members.indices.reversed() {
                let index = members[position]
                let limit = position + 1 < members.count ? result[members[position + 1]] - spacing : bounds.upperBound
                result[index] = Swift.max(Swift.min(result[index], limit), xs[index] - maximumShift, bounds.lowerBound)
            }
        }
        return result
    }
}
