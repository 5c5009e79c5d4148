/// The rectangle of a chart where data is drawn, inside the margins that hold axes and legend.
struct PlotArea: Sendable, Hashable {
    var left: Double
    var top: Double
    var width: Double
    var height: Double

    var right: Double { left + width }
    var bottom: Double { top + height }
}

/// Axis lines, ticks, grid lines and labels with units.
enum ChartAxes {
    /// The horizontal axis under `area`: a grid line and a label at every tick, and the axis
    /// title (which names the unit) centred below.
    static func bottom(area: PlotArea, ticks: [Double], position: (Double) -> Double, label: (Double) -> String, title: String) -> String {
        var parts: [String] = []
        for tick in ticks {
            let x = position(tick)
            guard x >= area.left - 0.5, x <= area.right + 0.5 else { continue }
            parts.append(SVG.line(x1: x, y1: area.top, x2: x, y2: area.bottom, attributes: ["stroke": ChartPalette.grid]))
            parts.append(SVG.line(x1: x, y1: area.bottom, x2: x, y2: area.bottom + 5, attributes: ["stroke": ChartPalette.axis]))
            parts.append(SVG.text(label(tick), x: x, y: area.bottom + 18, anchor: "middle", attributes: ["class": "tick-label"]))
        }
        parts.append(SVG.line(x1: area.left, y1: area.bottom, x2: area.right, y2: area.bottom, attributes: ["stroke": ChartPalette.axis]))
        parts.append(SVG.text(title, x: area.left + area.width / 2, y: area.bottom + 38, anchor: "middle", attributes: ["class": "axis-title"]))
        return SVG.group(parts, attributes: ["class": "axis axis-x"])
    }

    /// The vertical axis left of `area`, with its title rotated along it.
    static func left(area: PlotArea, ticks: [Double], position: (Double) -> Double, label: (Double) -> String, title: String) -> String {
        var parts: [String] = []
        for tick in ticks {
            let y = position(tick)
            guard y >= area.top - 0.5, y <= area.bottom + 0.5 else { continue }
            parts.append(SVG.line(x1: area.left, y1: y, x2: area.right, y2: y, attributes: ["stroke": ChartPalette.grid]))
            parts.append(SVG.line(x1: area.left - 5, y1: y, x2: area.left, y2: y, attributes: ["stroke": ChartPalette.axis]))
            parts.append(SVG.text(label(tick), x: area.left - 8, y: y + 4, anchor: "end", attributes: ["class": "tick-label"]))
        }
        parts.append(SVG.line(x1: area.left, y1: area.top, x2: area.left, y2: area.bottom, attributes: ["stroke": ChartPalette.axis]))
        let centre = area.top + area.height / 2
        let x = Swift.max(area.left - 84, 12)
        parts.append(SVG.text(title, x: x, y: centre, anchor: "middle", attributes: [
            "class": "axis-title", "transform": "rotate(-90 \(NumberFormatting.coordinate(x)) \(NumberFormatting.coordinate(centre)))",
        ]))
        return SVG.group(parts, attributes: ["class": "axis axis-y"])
    }
}

/// A row of legend entries above the plot area.
enum ChartLegend {
    enum Symbol {
        /// A short line in the series' colour (and dash pattern).
        case line(color: String, dash: String?)
        /// A filled square, for areas and bands.
        case swatch(color: String, opacity: String)
        /// A small shape, for point marks.
        case mark(String)
    }

    struct Entry {
        var symbol: Symbol
        var label: String
    }

    /// Entries laid out left to right from (`x`, `y`), wrapping at `maxWidth`; returns the markup
    /// and the height used. Label widths are estimated (7 px a character at the 12 px font).
    static func render(_ entries: [Entry], x: Double, y: Double, maxWidth: Double) -> (markup: String, height: Double) {
        var parts: [String] = []
        var cursorX = x
        var cursorY = y
        let rowHeight = 18.0
        for entry in entries {
            let width = 26 + Double(entry.label.count) * 6.6 + 18
            if cursorX > x, cursorX + width > x + maxWidth {
                cursorX = x
                cursorY += rowHeight
            }
            parts.append(symbol(entry.symbol, x: cursorX, y: cursorY))
            parts.append(SVG.text(entry.label, x: cursorX + 24, y: cursorY + 4, attributes: ["class": "legend-label"]))
            cursorX += width
        }
        return (SVG.group(parts, attributes: ["class": "legend"]), cursorY - y + rowHeight)
    }

    static func symbol(_ symbol: Symbol, x: Double, y: Double) -> String {
        switch symbol {
        case .line(let color, let dash):
            var attributes: [(String, String)] = [("stroke", color), ("stroke-width", "2.5")]
            if let dash { attributes.append(("stroke-dasharray", dash)) }
            return lineMarkup(x: x, y: y, attributes: attributes)
        case .swatch(let color, let opacity):
            return SVG.rect(x: x + 2, y: y - 6, width: 16, height: 12, attributes: ["fill": color, "fill-opacity": opacity, "stroke": color, "stroke-opacity": "0.5"])
        case .mark(let markup):
            return "<g transform=\"translate(\(NumberFormatting.coordinate(x + 10)) \(NumberFormatting.coordinate(y)))\">\(markup)</g>"
        }
    }

    private static func lineMarkup(x: Double, y: Double, attributes: [(String, String)]) -> String {
        var markup = "<line x1=\"\(NumberFormatting.coordinate(x))\" y1=\"\(NumberFormatting.coordinate(y))\" x2=\"\(NumberFormatting.coordinate(x + 20))\" y2=\"\(NumberFormatting.coordinate(y))\""
        for (name, value) in attributes { markup += " \(name)=\"\(HTMLEscaping.escape(value))\"" }
        return markup + "/>"
    }
}
