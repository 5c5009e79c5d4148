#!/usr/bin/env bash
# Builds the DocC reference of every library product, with warnings as errors: a symbol link that
# does not resolve, a parameter left undocumented or a catalog topic that names nothing fails.
#
#   scripts/docs.sh [--scratch-path DIR] [--out DIR]
#
# No swift-docc-plugin: a package that depends on Lowband would resolve it too. As swift-nio does
# in CI, the symbol graphs come from SwiftPM (`swift package dump-symbol-graph`, on the existing
# build) and the toolchain's `docc` converts each catalog, Sources/<Module>/<Module>.docc, into
# <out>/<Module>.doccarchive (default .build-docs/). Each module is built on its own, so a
# doc comment names another module's symbols in code voice (`TrafficShaper`), not as a link.
#
#   scripts/docs.sh --coverage [--list] [--scratch-path DIR]
#
# prints, per module, the public symbols without a doc comment (--list: their names and source
# locations) and builds no archive. Every build of the reference checks the same count: a module
# that reached zero (HELD_AT_ZERO in scripts/doc-coverage.py) fails on an undocumented symbol.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build
out=.build-docs
coverage=0
list=()
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch-path) scratch=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --coverage) coverage=1; shift ;;
        --list) list=(--list); shift ;;
        *) echo "usage: scripts/docs.sh [--scratch-path DIR] [--out DIR] | --coverage [--list]" >&2
           exit 2 ;;
    esac
done
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "docs: no docc next to the Swift toolchain" >&2; exit 1; }

swift package --scratch-path "$scratch" dump-symbol-graph --skip-synthesized-members >/dev/null
graphs=$(find "$scratch" -maxdepth 3 -type d -name symbolgraph | head -1)
if [ "$coverage" = 1 ]; then
    exec python3 scripts/doc-coverage.py "$graphs" "${list[@]}"
fi
rm -rf "$out"
mkdir -p "$out"
failed=0
for catalog in Sources/*/*.docc; do
    module=$(basename "$catalog" .docc)
    dir="$out/symbols/$module"
    mkdir -p "$dir"
    cp "$graphs/$module.symbols.json" "$dir/"
    cp "$graphs/$module"@*.symbols.json "$dir/" 2>/dev/null || true
    if ! "$docc" convert "$catalog" --additional-symbol-graph-dir "$dir" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.lowband.$module" \
        --output-path "$out/$module.doccarchive" --warnings-as-errors >"$out/$module.log" 2>&1; then
        cat "$out/$module.log" >&2
        echo "docs: $module has documentation warnings (above)" >&2
        failed=1
    fi
done
python3 scripts/doc-coverage.py "$graphs" --check >"$out/coverage.txt" || { cat "$out/coverage.txt" >&2; failed=1; }
[ "$failed" = 0 ] || exit 1
echo "docs: $(ls -d "$out"/*.doccarchive | wc -l) archives in $out"
