extension LivePage {
    /// The page's style: a compact tool look (a dark top bar with the link's badge, white cards
    /// on grey, styled fields and buttons, tabular figures); colours from the Okabe–Ito palette,
    /// downlink blue and uplink vermilion as in the reports.
    static let style = #"""
        :root { color-scheme: light; --ink: #1f2328; --muted: #5b636e; --line: #e3e6ea; --panel: #fff; --page: #f2f4f7;
          --down: #0072B2; --up: #D55E00; --dark: #3b4048; --accent: #0b5cab; --danger: #b3261e; --ok: #1e7a34; }
        * { box-sizing: border-box; }
        body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: var(--page); margin: 0; }
        .bar { display: flex; flex-wrap: wrap; gap: 14px; align-items: center; padding: 10px 20px; background: #22272e; color: #e6e9ed; }
        .bar .field { color: #aab2bd; }
        .brand { font-weight: 700; font-size: 16px; letter-spacing: .2px; margin-right: 6px; }
        .brand span { font-weight: 400; color: #aab2bd; }
        .badge { padding: 4px 14px; border-radius: 999px; font-weight: 700; font-size: 14px; letter-spacing: .2px; }
        .badge::before { content: ""; display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 8px; vertical-align: 1px; background: currentColor; }
        .badge.up { background: #d9f2df; color: var(--ok); }
        .badge.down { background: var(--danger); color: #fff; }
        .badge.partition { background: #f6d365; color: #5c4300; }
        .profile { font-weight: 600; font-size: 14px; }
        .record { margin-left: auto; display: flex; gap: 8px; align-items: center; }
        .dot::before { content: ""; display: inline-block; width: 8px; height: 8px; border-radius: 50%; margin-right: 6px; background: #8b949e; }
        .dot.on::before { background: #f85149; }
        main { padding: 14px 20px 24px; max-width: 1240px; }
        .top { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 2fr); gap: 14px; }
        .card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 12px 16px; margin-bottom: 14px; }
        h2 { font-size: 14px; margin: 0 0 8px; }
        h2 small, th small { font-weight: 400; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); font-variant-numeric: tabular-nums; white-space: nowrap; }
        th { font-weight: 600; color: var(--muted); font-size: 12px; }
        tbody th { color: var(--ink); font-size: 13px; }
        .figures .group { text-align: center; border-bottom: 2px solid var(--line); color: var(--ink); }
        .figures .now { background: #f6f8fa; }
        .figures td.now { font-weight: 600; }
        #row-down th { color: var(--down); } #row-up th { color: var(--up); }
        .meter { display: inline-block; width: 70px; height: 8px; margin-left: 8px; background: #e8ebef; border-radius: 4px; overflow: hidden; vertical-align: 0; }
        .meter > span { display: block; height: 100%; background: var(--muted); }
        #row-down .meter > span { background: var(--down); } #row-up .meter > span { background: var(--up); }
        .aside { margin: 8px 0 0; color: var(--muted); display: flex; gap: 18px; flex-wrap: wrap; }
        .list td.number, .list th.number { text-align: right; }
        .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 10px; }
        .field { display: inline-flex; gap: 6px; align-items: center; color: var(--muted); }
        select, input, .button { font: inherit; color: var(--ink); background: #fff; border: 1px solid #c4cad3; border-radius: 6px; padding: 5px 9px; min-height: 30px; }
        select { appearance: none; -webkit-appearance: none; padding-right: 26px; cursor: pointer;
          background-image: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='10' height='6'%3E%3Cpath d='M0 0l5 6 5-6z' fill='%235b636e'/%3E%3C/svg%3E");
          background-repeat: no-repeat; background-position: right 9px center; }
        .bar select { background-color: #2d333b; color: #e6e9ed; border-color: #444c56; }
        input[type=number] { width: 6.5em; }
        .button { cursor: pointer; font-weight: 600; background: #f6f8fa; }
        .button:hover { background: #eef1f4; }
        .button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
        .button.danger { background: var(--danger); border-color: var(--danger); color: #fff; }
        .bar .button { background: #2d333b; color: #e6e9ed; border-color: #444c56; }
        .button.small { min-height: 24px; padding: 2px 8px; font-size: 12px; }
        select:focus-visible, input:focus-visible, .button:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
        .legend { display: flex; gap: 6px; align-items: center; color: var(--muted); margin-bottom: 4px; }
        .legend .key { width: 14px; height: 3px; display: inline-block; margin-left: 10px; }
        .legend .key.down { background: var(--down); } .legend .key.up { background: var(--up); }
        .legend .key.outage { height: 10px; background: var(--dark); opacity: .25; }
        .lane { display: grid; grid-template-columns: 240px 1fr; align-items: center; gap: 8px; margin-bottom: 2px; }
        .lane .label { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; color: var(--muted); }
        .lane svg { width: 100%; height: 14px; background: #f6f8fa; border-radius: 3px; }
        .lane.dark svg { background: var(--dark); }
        .empty { color: var(--muted); font-style: italic; }
        #status { color: var(--muted); min-height: 1.4em; margin: 0; }
        #status.error { color: var(--danger); }
        svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
        @media (max-width: 900px) { .top { grid-template-columns: 1fr; } }
        """#
}
