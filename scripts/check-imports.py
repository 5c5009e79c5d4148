#!/usr/bin/env python3
"""Every `import` of a target matches its dependencies in Package.swift, both ways; so does README.md's layout table.

For each target of the package at the given path (default: the root), the modules its Swift
files import that are targets of this package or products of its package dependencies must be
declared as direct dependencies of that target, and every declared dependency must be imported
by at least one of its files. A module imported only because another dependency re-exports it
hides which target really depends on which (issue 23); so does a dependency nobody imports.
System modules (Foundation, Testing, Glibc, …) are not counted.

    scripts/check-imports.py [PACKAGE_PATH]

Exit status 1 lists every mismatch as `Target: imports X without depending on it` or
`Target: depends on X and imports it nowhere`.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

package = sys.argv[1] if len(sys.argv) > 1 else "."
# In a scratch directory of its own: reading the manifest needs none of the package's build, and
# SwiftPM makes `dump-package` wait for any build holding the package's .build (scripts/test.sh
# builds Benchmarks/ there in release beside its own checks: minutes).
with tempfile.TemporaryDirectory(prefix="check-imports-") as scratch:
    manifest = json.loads(subprocess.run(
        ["swift", "package", "--package-path", package, "--scratch-path", scratch, "dump-package"],
        check=True, capture_output=True, text=True).stdout)

local = {t["name"] for t in manifest["targets"]}
# The products each package dependency offers: their module names are the product names here
# (NIOCore, GRDB, ArgumentParser, …); read from the checked-out dependency manifests is slower
# than necessary, so the modules a product can bring are the names used in `.product(name:)`.
declared_products = set()
for target in manifest["targets"]:
    for dependency in target["dependencies"]:
        if "product" in dependency:
            declared_products.add(dependency["product"][0])
# Products whose module name differs from the product name.
module_of_product = {"GRDBSQLite": "GRDBSQLite", "swift-nio": None}
external = declared_products

import_line = re.compile(r"^\s*(?:@_exported\s+)?(?:@testable\s+)?(?:public\s+|package\s+|internal\s+|private\s+|fileprivate\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+|protocol\s+|typealias\s+|var\s+|let\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)

problems = []
for target in manifest["targets"]:
    if target["type"] in ("system", "binary", "plugin", "macro"):
        continue
    name = target["name"]
    path = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", name)
    path = os.path.join(package, path)
    excluded = {os.path.normpath(os.path.join(path, e)) for e in target.get("exclude", [])}
    imported = set()
    for directory, _, files in os.walk(path):
        if any(os.path.normpath(directory).startswith(e) for e in excluded):
            continue
        for file in files:
            if file.endswith(".swift"):
                with open(os.path.join(directory, file), encoding="utf-8") as handle:
                    imported.update(import_line.findall(handle.read()))
    dependencies = set()
    for dependency in target["dependencies"]:
        if "byName" in dependency:
            dependencies.add(dependency["byName"][0])
        elif "target" in dependency:
            dependencies.add(dependency["target"][0])
        elif "product" in dependency:
            dependencies.add(dependency["product"][0])
    # Lowband's own modules count in the nested packages too (Benchmarks/, Examples/, Fuzz/),
    # which depend on the root package's products by path.
    counted = {module for module in imported if module in local or module in external or module.startswith("Lowband")}
    for module in sorted(counted - dependencies - {name}):
        problems.append(f"{name}: imports {module} without depending on it")
    for module in sorted(dependencies - imported):
        # A C system library is imported through its Swift wrapper's files only.
        problems.append(f"{name}: depends on {module} and imports it nowhere")

# README.md's layout table names each target's direct dependencies on this package's targets
# exactly (only for the root package, whose README has the table).
readme = os.path.join(package, "README.md")
regular = {t["name"]: t for t in manifest["targets"] if t["type"] in ("regular", "executable", "system")}
if os.path.isfile(readme) and os.path.abspath(package) == os.path.abspath("."):
    with open(readme, encoding="utf-8") as handle:
        text = handle.read()
    layout = text.split("## Layout", 1)[1].split("\n## ", 1)[0] if "## Layout" in text else ""
    listed = set()
    for row in layout.splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) < 3:
            continue
        names = [name for name in re.findall(r"`([A-Za-z0-9_]+)`", cells[0]) if name in regular]
        if not names:
            continue
        listed.update(names)
        if cells[1].startswith("all"):
            continue
        named = set(re.findall(r"\b(Lowband[A-Za-z0-9]+|CLZ4|CLowbandZlib)\b", cells[1])) & set(regular)
        actual = set()
        for name in names:
            for dependency in regular[name]["dependencies"]:
                key = "byName" if "byName" in dependency else "target" if "target" in dependency else None
                if key and dependency[key][0] in regular:
                    actual.add(dependency[key][0])
        actual -= set(names)
        named -= set(names)
        for missing in sorted(actual - named):
            problems.append(f"README.md layout: {', '.join(names)} depends on {missing}, which its row does not name")
        for extra in sorted(named - actual):
            problems.append(f"README.md layout: {', '.join(names)}'s row names {extra}, which it does not depend on")
    for name in sorted(set(regular) - listed):
        problems.append(f"README.md layout: no row for the target {name}")

for problem in problems:
    print(problem)
if problems:
    print(f"check-imports: {len(problems)} mismatch(es) between imports and Package.swift in {package}", file=sys.stderr)
    sys.exit(1)
print(f"check-imports: every import of {len(manifest['targets'])} targets matches Package.swift ({package})")
