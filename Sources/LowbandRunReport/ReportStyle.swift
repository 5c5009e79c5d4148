/// The report's inline style sheet: system fonts only, nothing fetched.
enum ReportStyle {
    static let css = """
        :root { color-scheme: light; }
        body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
               color: #222; background: #fff; margin: 0 auto; padding: 24px 32px 48px; max-width: 1040px; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 20px; margin: 36px 0 8px; padding-top: 12px; border-top: 1px solid #ddd; }
        h3 { font-size: 16px; margin: 20px 0 6px; }
        .subtitle { color: #555; margin: 0 0 16px; }
        .banner { padding: 10px 14px; margin: 12px 0 18px; border-left: 6px solid #C62828; background: #FDECEA; }
        .banner strong { color: #B71C1C; letter-spacing: 0.05em; }
        .badge { display: inline-block; font-size: 12px; font-weight: 700; padding: 1px 7px; margin-left: 8px;
                 border-radius: 4px; color: #fff; background: #C62828; vertical-align: middle; letter-spacing: 0.05em; }
        pre.command { background: #F4F5F7; border: 1px solid #E1E3E8; border-radius: 6px; padding: 10px 12px;
                      overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 6px 0; }
        pre.words { white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
        code { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace; }
        table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; font-size: 14px; }
        caption { text-align: left; font-weight: 600; padding-bottom: 4px; color: #444; }
        th, td { padding: 4px 10px; border-bottom: 1px solid #E5E5E5; text-align: left; white-space: nowrap; }
        thead th { border-bottom: 2px solid #BBB; font-weight: 600; }
        tbody th { font-weight: 500; }
        .num { text-align: right; }
        td.partial { color: #B71C1C; font-weight: 700; }
        figure { margin: 12px 0 24px; }
        figure.chart svg { display: block; width: 100%; height: auto; max-width: 960px; }
        figcaption { color: #555; font-size: 13px; margin-top: 4px; max-width: 960px; }
        p.no-data { color: #777; font-style: italic; background: #FAFAFA; border: 1px dashed #CCC; padding: 10px 14px; margin: 0; }
        svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #333; }
        svg .tick-label { font-size: 11px; fill: #555; }
        svg .axis-title { font-size: 12.5px; fill: #333; }
        svg .legend-label { font-size: 12px; }
        svg .lane-label { font-size: 11px; fill: #444; }
        svg .floor-label { font-size: 11px; font-weight: 600; }
        .banner.pass { border-left-color: #2E7D32; background: #EAF5EA; }
        .banner.pass strong { color: #1B5E20; }
        .banner a { color: inherit; font-weight: 600; }
        h4 { font-size: 14px; margin: 14px 0 6px; }
        table.invariants td.words { white-space: normal; min-width: 260px; }
        td.result.fail, p.invariants-summary.fail { color: #B71C1C; font-weight: 700; }
        td.result.pass, p.invariants-summary.pass { color: #1B5E20; }
        td.result.unchecked { color: #777; font-style: italic; }
        ol.violations { padding-left: 36px; margin: 6px 0 16px; }
        ol.violations.scroll { max-height: 34em; overflow-y: auto; border: 1px solid #E5E5E5; border-radius: 6px; padding-top: 4px; }
        li.violation { margin: 0 6px 6px 0; padding: 2px 8px; border-left: 3px solid #B0006E; }
        li.violation:target { background: #FFF3C4; }
        li.violation p { margin: 1px 0; }
        li.violation summary { cursor: pointer; }
        .violation-place { color: #555; }
        .violation-detail { overflow-wrap: anywhere; }
        .note { color: #666; font-size: 13px; }
        p.note { margin: 4px 0; }
        p.origin { color: #555; font-size: 13px; margin: 4px 0 0; }
        pre.trace { font: 12px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace;
                    background: #F4F5F7; border: 1px solid #E1E3E8; border-radius: 6px; padding: 8px 10px;
                    overflow-x: auto; white-space: pre; margin: 4px 0; }
        p.glossary { margin: 4px 0 0; font-size: 12.5px; color: #555; }
        p.glossary .glossary-title { font-weight: 600; color: #333; }
        p.glossary dfn { font-style: normal; font-weight: 600; color: #333; }
        svg .bar-label { font-size: 11px; pointer-events: none; fill: #222; }
        svg .bar-label.on-dark { fill: #FFF; }
        svg .row-label { font-size: 11px; fill: #444; }
        svg .total-label { font-size: 11px; fill: #333; paint-order: stroke; stroke: #FFF; stroke-width: 3px; }
        svg .mark-violation:target path { stroke: #000; stroke-width: 2; }
        dl.glossary { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 14px; max-width: 960px; }
        dl.glossary dt { font-weight: 600; }
        dl.glossary dd { margin: 0; color: #444; }
        footer { margin-top: 40px; color: #888; font-size: 12px; }
        """
}
