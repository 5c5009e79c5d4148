#!/usr/bin/env python3
"""Counts the public symbols of each library product that have no doc comment.

    scripts/doc-coverage.py GRAPHS [--list] [--check] [MODULE ...]

GRAPHS is the directory of symbol graphs that `swift package dump-symbol-graph` writes (scripts/docs.sh
passes it; `scripts/docs.sh --coverage [--list]` is the usual way in). For every module with a DocC
catalog (Sources/<Module>/<Module>.docc), or only the modules named, it prints one line: the public
and open symbols without documentation, and how many it counted. --list adds each such symbol with
its source location. --check exits 1 when a module of HELD_AT_ZERO has any, so that coverage, once
reached, cannot slip back; scripts/docs.sh runs it on every build of the reference.

What is counted: every public or open symbol of the module's graph and of its extension graphs
(<Module>@<Other>.symbols.json: public extensions of other modules' types), except
- synthesized members (the graphs are dumped with --skip-synthesized-members) and deinitializers;
- implementations of a protocol requirement that inherit the requirement's documentation: the
  symbol graph then carries the requirement's comment from another module or file (`==`,
  `hash(into:)`, `description`, `init(from:)`, `encode(to:)`, a delegate method of
  `FrameLinkDelegate`, ...). DocC shows the inherited text, and it is what a caller needs;
- an enum case whose enum's own doc comment names it in code voice (`cache`): a short enum of
  self-describing cases is documented once, at the enum, rather than case by case.
Everything else, enum cases included, needs its own `///` comment.
"""
import json
import os
import re
import sys

# Modules whose public surface is fully documented. A module joins when it reaches zero; from then
# on an undocumented public symbol fails scripts/docs.sh (and with it scripts/test.sh, i.e. CI).
HELD_AT_ZERO = [
    "LowbandAppEvents",
    "LowbandBasics",
    "LowbandCBOR",
    "LowbandProcess",
    "LowbandClient",
    "LowbandDeterminism",
    "LowbandFindings",
    "LowbandFixtures",
    "LowbandLZ4",
    "LowbandMessagePack",
    "LowbandProxy",
    "LowbandProfiles",
    "LowbandProxyCore",
    "LowbandReports",
    "LowbandServer",
    "LowbandShaper",
    "LowbandSimulation",
    "LowbandTesting",
    "LowbandTransport",
    "LowbandTransportSockets",
    "LowbandWire",
]

SKIPPED_KINDS = {"swift.deinit", "swift.extension"}


def comment_text(symbol):
    doc = symbol.get("docComment")
    if not doc:
        return ""
    return "\n".join(line.get("text", "") for line in doc.get("lines", [])).strip()


def own_comment(symbol, module):
    """True when the comment was written on this symbol, not inherited from a requirement."""
    doc = symbol.get("docComment") or {}
    if doc.get("module") and doc["module"] != module:
        return False
    uri = doc.get("uri")
    location = (symbol.get("location") or {}).get("uri")
    return uri is None or location is None or uri == location


def load(graphs, module):
    files = [f for f in os.listdir(graphs)
             if f == module + ".symbols.json" or f.startswith(module + "@")]
    symbols, relationships = [], []
    for name in sorted(files):
        with open(os.path.join(graphs, name)) as f:
            graph = json.load(f)
        symbols += graph.get("symbols", [])
        relationships += graph.get("relationships", [])
    return symbols, relationships


def undocumented(graphs, module):
    """Returns (counted, missing): the public symbols counted and those without documentation."""
    symbols, relationships = load(graphs, module)
    by_id = {s["identifier"]["precise"]: s for s in symbols}
    parent = {r["source"]: r["target"] for r in relationships if r["kind"] == "memberOf"}
    counted, missing = 0, []
    seen = set()
    for s in symbols:
        precise = s["identifier"]["precise"]
        if precise in seen:
            continue
        seen.add(precise)
        if s.get("accessLevel") not in ("public", "open"):
            continue
        kind = s["kind"]["identifier"]
        if kind in SKIPPED_KINDS:
            continue
        counted += 1
        if comment_text(s):
            continue  # its own comment, or the one of the requirement it implements
        if kind == "swift.enum.case":
            enum = by_id.get(parent.get(precise, ""))
            name = s["pathComponents"][-1].split("(")[0]
            if enum and re.search(r"`%s(\(|`)" % re.escape(name), comment_text(enum)):
                continue
        missing.append(s)
    return counted, missing


def location(symbol):
    loc = symbol.get("location") or {}
    path = loc.get("uri", "?").replace("file://", "")
    cwd = os.getcwd() + "/"
    if path.startswith(cwd):
        path = path[len(cwd):]
    line = (loc.get("position") or {}).get("line", -1) + 1
    return path, line


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    flags = {a for a in argv if a.startswith("--")}
    if not args or flags - {"--list", "--check"}:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    graphs, modules = args[0], args[1:]
    if not modules:
        modules = sorted(d[:-len(".docc")] for m in os.listdir("Sources")
                         for d in os.listdir(os.path.join("Sources", m)) if d == m + ".docc")
    slipped = []
    total = 0
    for module in modules:
        if not os.path.exists(os.path.join(graphs, module + ".symbols.json")):
            print(f"doc-coverage: no symbol graph for {module} in {graphs}", file=sys.stderr)
            return 2
        counted, missing = undocumented(graphs, module)
        total += len(missing)
        held = " (held at zero)" if module in HELD_AT_ZERO else ""
        print(f"{module:<22} {len(missing):>4} undocumented of {counted:>4} public{held}")
        if "--list" in flags:
            rows = sorted((location(s), "/".join(s["pathComponents"]), s["kind"]["displayName"])
                          for s in missing)
            for (path, line), name, kind in rows:
                print(f"    {path}:{line}: {kind.lower()} {name}")
        if module in HELD_AT_ZERO and missing:
            slipped.append(module)
    print(f"{'total':<22} {total:>4} undocumented")
    if "--check" in flags and slipped:
        print("doc-coverage: undocumented public symbols in " + ", ".join(slipped) +
              ", held at zero: document them (`///` summary, then what a caller needs) or make "
              "them `package`; `scripts/docs.sh --coverage --list` names them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
