/// The colour key and glossary the stage charts share: one colour per ``LatencyStage``, and a
/// line saying what each stage on the chart means.
enum StageLegend {
    /// One entry per stage, in the order a message goes through them; `value` adds a figure to
    /// the label (the stacked bar shows each stage's mean there).
    static func entries(value: ((LatencyStage) -> String?)? = nil) -> [ChartLegend.Entry] {
        LatencyStage.allCases.map { stage in
            let figure = value?(stage)
            return ChartLegend.Entry(
                symbol: .swatch(color: ChartPalette.stage(stage).fill, opacity: "1"),
                label: figure.map { "\(stage.label) · \($0)" } ?? stage.label
            )
        }
    }

    /// A `<p class="glossary">` naming what each of `stages` holds; empty for no stages.
    static func glossary(_ stages: [LatencyStage]) -> String {
        guard !stages.isEmpty else { return "" }
        let items = stages.map { "<dfn>\(HTMLEscaping.escape($0.label))</dfn>: \(HTMLEscaping.escape($0.meaning))" }
        return "<p class=\"glossary\"><span class=\"glossary-title\">Glossary —</span> " + items.joined(separator: " · ") + ".</p>"
    }
}
