#!/usr/bin/env python3
"""Turns scripts/heartbeat-sweep.sh's sweep.csv into sweep.html: per profile, energy per idle
hour against the heartbeat interval (intervals that lost a push marked), and prints the table
and the pick: the lowest-energy interval among those that lost no push on any profile, with
each profile's energy there against the lowest it reached without losing a push."""
import csv
import sys
from collections import defaultdict


def load(path):
    rows = defaultdict(list)
    with open(path) as handle:
        for row in csv.DictReader(handle):
            rows[(row["profile"], int(row["heartbeat_s"]))].append(row)
    table = {}
    for key, runs in rows.items():
        energy = [float(r["energy_per_hour_j"]) for r in runs if r["energy_per_hour_j"]]
        late = sum(int(float(r["pushes_late"] or 0)) for r in runs)
        pushes = sum(int(float(r["pushes"] or 0)) for r in runs)
        notices = [float(r["dead_flow_notice_s"]) for r in runs if r["dead_flow_notice_s"] not in ("", "-", "nan")]
        table[key] = {
            "energy": sum(energy) / len(energy) if energy else None,
            "late": late,
            "pushes": pushes,
            "notice": sum(notices) / len(notices) if notices else None,
        }
    return table


def curve(profile, points, width=460, height=220):
    left, right, top, bottom = 60, width - 16, 16, height - 40
    xs = [p[0] for p in points]
    ys = [p[1]["energy"] or 0 for p in points]
    xmax = max(xs) or 1
    ymax = max(ys) or 1
    def x(v): return left + (right - left) * v / xmax
    def y(v): return bottom - (bottom - top) * v / ymax
    path = " ".join(("M" if i == 0 else "L") + f"{x(a):.1f},{y(b):.1f}" for i, (a, b) in enumerate(zip(xs, ys)))
    marks = []
    for (interval, row), energy in zip(points, ys):
        colour = "#C62828" if row["late"] else "#2E7D32"
        title = f"{interval} s: {energy:.0f} J per idle hour, {row['late']} of {row['pushes']} pushes late"
        marks.append(f'<circle cx="{x(interval):.1f}" cy="{y(energy):.1f}" r="4" fill="{colour}"><title>{title}</title></circle>')
    ticks = "".join(f'<text x="{x(v):.1f}" y="{bottom + 16}" font-size="10" text-anchor="middle">{v}</text>' for v in xs)
    yticks = "".join(f'<text x="{left - 6}" y="{y(v) + 3:.1f}" font-size="10" text-anchor="end">{v:.0f}</text>' for v in (0, ymax / 2, ymax))
    return (f'<figure><svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
            f'<title>Energy per idle hour against the heartbeat interval on {profile}</title>'
            f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#999"/>'
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#999"/>'
            f'<path d="{path}" fill="none" stroke="#1565C0" stroke-width="2"/>{"".join(marks)}{ticks}{yticks}'
            f'<text x="{(left + right) / 2}" y="{height - 6}" font-size="11" text-anchor="middle">heartbeat interval (s)</text>'
            f'<text x="12" y="{top + 4}" font-size="11">J/h</text></svg>'
            f'<figcaption>{profile}: energy per idle hour (green: no push late; red: pushes lost to a forgotten flow)</figcaption></figure>')


def main():
    source, target = sys.argv[1], sys.argv[2]
    default = int(sys.argv[3]) if len(sys.argv) > 3 else None
    table = load(source)
    profiles = sorted({p for p, _ in table})
    intervals = sorted({i for _, i in table})
    safe = [i for i in intervals if all(table.get((p, i), {}).get("late", 1) == 0 for p in profiles)]
    pick = min(safe, key=lambda i: sum(table[(p, i)]["energy"] or 0 for p in profiles)) if safe else None
    lines = ["profile     " + "".join(f"{i:>8}" for i in intervals)]
    for p in profiles:
        lines.append(f"{p:<12}" + "".join(f"{(table[(p, i)]['energy'] or 0):>7.0f}{'*' if table[(p, i)]['late'] else ' '}" for i in intervals))
    lines.append("J per idle hour; * = pushes arrived late (the NAT forgot the idle flow)")
    lines.append("")
    lines.append("profile     " + "".join(f"{i:>8}" for i in intervals))
    for p in profiles:
        lines.append(f"{p:<12}" + "".join(f"{table[(p, i)]['notice']:>8.1f}" if table[(p, i)]["notice"] is not None else f"{'-':>8}" for i in intervals))
    lines.append("s, the mean over the runs of the mean time from the network forgetting the flow (nat-expiry fault) to the engine giving it up")
    if pick is not None:
        lines.append(f"pick: {pick} s — the lowest energy among intervals that lost no push on any profile")
        for p in profiles:
            best = min((table[(p, i)]["energy"] for i in safe if table[(p, i)]["energy"]), default=None)
            here = table[(p, pick)]["energy"]
            if best and here:
                lines.append(f"  {p}: {here:.0f} J/h at {pick} s, lowest without a late push {best:.0f} J/h ({here / best:.2f}x)")
    if default is not None and all((p, default) in table for p in profiles):
        lines.append(f"the engine's default, {default} s: " + ("no push late on any profile" if default in safe else "PUSHES LATE on some profile"))
        for p in profiles:
            best = min((table[(p, i)]["energy"] for i in safe if table[(p, i)]["energy"]), default=None)
            here = table[(p, default)]["energy"]
            if best and here:
                lines.append(f"  {p}: {here:.0f} J/h, {here / best:.2f}x the lowest without a late push; a dead flow noticed after {table[(p, default)]['notice'] or 0:.0f} s")
    print("\n".join(lines))
    html = ["<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Heartbeat sweep</title>",
            "<style>body{font-family:sans-serif;margin:24px}figure{display:inline-block;margin:8px}pre{background:#f6f6f6;padding:8px}</style></head><body>",
            "<h1>Heartbeat sweep</h1><p>The pocket scenario for an hour of virtual time per profile, interval and seed (scripts/heartbeat-sweep.sh).</p>",
            "<pre>" + "\n".join(lines).replace("&", "&amp;").replace("<", "&lt;") + "</pre>"]
    for p in profiles:
        html.append(curve(p, [(i, table[(p, i)]) for i in intervals if (p, i) in table]))
    html.append("</body></html>")
    with open(target, "w") as handle:
        handle.write("".join(html))


if __name__ == "__main__":
    main()
