/// Builders for the few SVG elements the charts use. Every number goes through
/// ``NumberFormatting/coordinate(_:)`` and every text through ``HTMLEscaping/escape(_:)``, so no
/// chart can emit NaN, an exponent or unescaped markup.
enum SVG {
    typealias Attributes = KeyValuePairs<String, String>

    static func rect(x: Double, y: Double, width: Double, height: Double, attributes: Attributes = [:], title: String? = nil) -> String {
        element("rect", geometry: [("x", x), ("y", y), ("width", Swift.max(width, 0)), ("height", Swift.max(height, 0))], attributes: attributes, title: title)
    }

    static func line(x1: Double, y1: Double, x2: Double, y2: Double, attributes: Attributes = [:], title: String? = nil) -> String {
        element("line", geometry: [("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)], attributes: attributes, title: title)
    }

    static func circle(cx: Double, cy: Double, r: Double, attributes: Attributes = [:], title: String? = nil) -> String {
        element("circle", geometry: [("cx", cx), ("cy", cy), ("r", Swift.max(r, 0))], attributes: attributes, title: title)
    }

    static func path(_ data: PathData, attributes: Attributes = [:], title: String? = nil) -> String {
        var markup = "<path d=\"\(data.text)\""
        appendAttributes(attributes, to: &markup)
        return close(markup, tag: "path", title: title)
    }

    /// Text at a point; `anchor` is `start`, `middle` or `end`.
    static func text(_ content: String, x: Double, y: Double, anchor: String = "start", attributes: Attributes = [:]) -> String {
        var markup = "<text x=\"\(NumberFormatting.coordinate(x))\" y=\"\(NumberFormatting.coordinate(y))\""
        if anchor != "start" { markup += " text-anchor=\"\(anchor)\"" }
        appendAttributes(attributes, to: &markup)
        return markup + ">\(HTMLEscaping.escape(content))</text>"
    }

    /// A group of elements, with a class for styling and tests.
    static func group(_ children: [String], attributes: Attributes = [:], title: String? = nil) -> String {
        var markup = "<g"
        appendAttributes(attributes, to: &markup)
        markup += ">"
        if let title { markup += "<title>\(HTMLEscaping.escape(title))</title>" }
        return markup + children.joined() + "</g>"
    }

    /// A link around `children`, to a fragment of this document (`#id`): the way a chart's mark
    /// leads to the entry that explains it. `id` makes the mark itself a link target.
    static func link(href: String, id: String, children: [String], attributes: Attributes = [:], title: String? = nil) -> String {
        var markup = "<a href=\"\(HTMLEscaping.escape(href))\" id=\"\(HTMLEscaping.escape(id))\""
        appendAttributes(attributes, to: &markup)
        markup += ">"
        if let title { markup += "<title>\(HTMLEscaping.escape(title))</title>" }
        return markup + children.joined() + "</a>"
    }

    /// The chart's root element: scalable to its container, with a title and description that
    /// screen readers announce (and browsers show as a tooltip).
    static func document(id: String, width: Double, height: Double, title: String, description: String, body: [String]) -> String {
        let w = NumberFormatting.coordinate(width)
        let h = NumberFormatting.coordinate(height)
        return "<svg id=\"\(id)-svg\" class=\"chart-svg\" viewBox=\"0 0 \(w) \(h)\" width=\"\(w)\" height=\"\(h)\" role=\"img\""
            + " aria-labelledby=\"\(id)-title \(id)-desc\" preserveAspectRatio=\"xMidYMid meet\">"
            + "<title id=\"\(id)-title\">\(HTMLEscaping.escape(title))</title>"
            + "<desc id=\"\(id)-desc\">\(HTMLEscaping.escape(description))</desc>"
            + body.joined(separator: "\n") + "</svg>"
    }

    private static func element(_ tag: String, geometry: [(String, Double)], attributes: Attributes, title: String?) -> String {
        var markup = "<\(tag)"
        for (name, value) in geometry { markup += " \(name)=\"\(NumberFormatting.coordinate(value))\"" }
        appendAttributes(attributes, to: &markup)
        return close(markup, tag: tag, title: title)
    }

    private static func appendAttributes(_ attributes: Attributes, to markup: inout String) {
        for (name, value) in attributes { markup += " \(name)=\"\(HTMLEscaping.escape(value))\"" }
    }

    private static func close(_ markup: String, tag: String, title: String?) -> String {
        guard let title else { return markup + "/>" }
        return markup + "><title>\(HTMLEscaping.escape(title))</title></\(tag)>"
    }
}

/// The `d` attribute of an SVG path, built from absolute commands with finite coordinates.
struct PathData: Sendable, Hashable {
    private(set) var text = ""
    private(set) var isEmpty = true

    mutating func move(_ x: Double, _ y: Double) {
        append("M\(NumberFormatting.coordinate(x)) \(NumberFormatting.coordinate(y))")
    }

    mutating func line(_ x: Double, _ y: Double) {
        append("L\(NumberFormatting.coordinate(x)) \(NumberFormatting.coordinate(y))")
    }

    mutating func horizontal(_ x: Double) {
        append("H\(NumberFormatting.coordinate(x))")
    }

    mutating func vertical(_ y: Double) {
        append("V\(NumberFormatting.coordinate(y))")
    }

    mutating func close() {
        append("Z")
    }

    private mutating func append(_ command: String) {
        if !text.isEmpty { text += " " }
        text += command
        isEmpty = false
    }
}
