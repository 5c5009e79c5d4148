/// How wide a line of chart text will be, estimated without a font: the report cannot measure
/// text (it carries no script), so labels are placed only where the estimate says they fit.
///
/// The estimate errs wide: 0.64 em a character is the width of a digit in DejaVu Sans, the
/// widest of the fallback fonts `system-ui` resolves to, and wider than most letters.
enum TextWidth {
    static let emPerCharacter = 0.64

    static func estimate(_ text: String, fontSize: Double) -> Double {
        Double(text.count) * fontSize * emPerCharacter
    }

    /// The first of `candidates` (longest first) that fits in `width` with `padding` each side,
    /// or nil when none does.
    static func fitting(_ candidates: [String], in width: Double, fontSize: Double, padding: Double = 3) -> String? {
        candidates.first { estimate($0, fontSize: fontSize) + 2 * padding <= width }
    }
}
