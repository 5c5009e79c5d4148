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
        footer { margin-top: 40px; color: #888; font-size: 12px; }
        """
}
