/// Reading a rendered report the way the tests need: pieces between markers, and every numeric
/// SVG attribute checked to be a plain finite number.
enum MarkupChecks {
    /// The text of the element opening with `opening` up to its closing `</tag>` (not nested).
    static func element(_ opening: String, closing: String, in html: String) -> Substring? {
        guard let start = html.range(of: opening) else { return nil }
        guard let end = html.range(of: closing, range: start.upperBound..<html.endIndex) else { return nil }
        return html[start.lowerBound..<end.upperBound]
    }

    static func count(_ needle: String, in text: some StringProtocol) -> Int {
        var count = 0
        var rest = Substring(text)
        while let range = rest.range(of: needle) {
            count += 1
            rest = rest[range.upperBound...]
        }
        return count
    }

    static let numericAttributes = ["x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "width", "height", "d", "viewBox"]

    /// Every numeric attribute value inside `<svg>` elements that is not made of plain decimal
    /// numbers (and path commands for `d`): NaN, infinity, exponents or empty values.
    static func malformedNumbers(in html: String) -> [String] {
        var problems: [String] = []
        var rest = Substring(html)
        while let open = rest.range(of: "<svg"), let close = rest.range(of: "</svg>", range: open.upperBound..<rest.endIndex) {
            let svg = rest[open.lowerBound..<close.upperBound]
            for name in numericAttributes {
                var scan = svg
                while let attribute = scan.range(of: " \(name)=\"") {
                    let valueStart = attribute.upperBound
                    guard let valueEnd = scan[valueStart...].firstIndex(of: "\"") else { break }
                    let value = scan[valueStart..<valueEnd]
                    if !isPlainNumbers(value, allowingPathCommands: name == "d") { problems.append("\(name)=\"\(value)\"") }
                    scan = scan[valueEnd...]
                }
            }
            rest = rest[close.upperBound...]
        }
        return problems
    }

    private static func isPlainNumbers(_ value: Substring, allowingPathCommands: Bool) -> Bool {
        let tokens = value.split(whereSeparator: { $0 == " " || $0 == "," })
        guard !tokens.isEmpty else { return false }
        for token in tokens {
            var number = token
            if allowingPathCommands, let first = number.first, "MLHVZ".contains(first) {
                number = number.dropFirst()
                if number.isEmpty { continue }
            }
            guard let parsed = Double(number), parsed.isFinite, number.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "." }) else { return false }
        }
        return true
    }
}
