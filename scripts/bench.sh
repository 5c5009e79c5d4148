#!/usr/bin/env bash
# Runs Lowband's benchmark suites (package-benchmark targets under Benchmarks/) and writes one
# CSV report in the schema of docs/BENCHMARKS.md, with the ratios between benchmarks of the run
# and the targets; prints the same as tables.
#
#   scripts/bench.sh [--suite all|codec|compression|startup|push-to-visible] [--out FILE]
#
# package-benchmark has no CSV export: its influx export is converted by `lowband bench import`.
set -euo pipefail
cd "$(dirname "$0")/.."

suite=all
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --suite) suite="${2:?--suite needs a value}"; shift 2 ;;
        --out) out="${2:?--out needs a value}"; shift 2 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) echo "bench: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

case "$suite" in
    all) targets=(CodecBenchmarks CompressionBenchmarks StartupBenchmarks PushToVisibleBenchmarks) ;;
    codec) targets=(CodecBenchmarks) ;;
    compression) targets=(CompressionBenchmarks) ;;
    startup) targets=(StartupBenchmarks) ;;
    push-to-visible) targets=(PushToVisibleBenchmarks) ;;
    *) echo "bench: unknown suite '$suite' (all, codec, compression, startup, push-to-visible)" >&2; exit 2 ;;
esac
[ -n "$out" ] || out="reports/$([ "$suite" = all ] && echo bench || echo "$suite").csv"

scripts/setup.sh
raw=".build/bench-raw/$suite"
rm -rf "$raw"
mkdir -p "$raw"
target_args=()
for target in "${targets[@]}"; do target_args+=(--target "$target"); done
# Release build of the benchmark targets, then every benchmark; raw results as an influx export.
swift package --allow-writing-to-package-directory benchmark "${target_args[@]}" \
    --format influx --path "$raw" --no-progress
swift build --product lowband
"$(swift build --show-bin-path)/lowband" bench import "$raw"/*.influx.csv --out "$out"
