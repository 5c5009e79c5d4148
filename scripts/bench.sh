#!/usr/bin/env bash
# Runs Lowband's benchmark suites (package-benchmark targets under Benchmarks/) and writes one
# CSV report in the schema of docs/BENCHMARKS.md, with the ratios between benchmarks of the run
# and the targets; prints the same as tables.
#
#   scripts/bench.sh [--suite all|codec|compression|startup|push-to-visible|explore] [--out FILE]
#                    [--build-path DIR]
#
# --build-path DIR builds in DIR instead of .build (SwiftPM's --scratch-path), e.g. outside the
# checkout on a CI runner whose workspace is read-only or shared. The run ends with a compact
# summary of the report: codec × fixture and compressor × input (`lowband bench summary`).
#
# `explore` is not a package-benchmark suite: it times `lowband explore` (release) over 1,000
# seeds of a 5-client, 10-minute EDGE crowd with swarm faults and writes its results.csv rows
# with the target row (issue 10: at most 600 s per 1,000 seeds).
#
# package-benchmark has no CSV export: its influx export is converted by `lowband bench import`.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."

suite=all
out=""
build_path=.build
while [ $# -gt 0 ]; do
    case "$1" in
        --suite) suite="${2:?--suite needs a value}"; shift 2 ;;
        # Paths given on the command line are the caller's, not the checkout's.
        --out) out="$(cd "$caller" && realpath -m "${2:?--out needs a value}")"; shift 2 ;;
        --build-path) build_path="$(cd "$caller" && realpath -m "${2:?--build-path needs a directory}")"; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "bench: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

case "$suite" in
    all) targets=(CodecBenchmarks CompressionBenchmarks StartupBenchmarks PushToVisibleBenchmarks) ;;
    codec) targets=(CodecBenchmarks) ;;
    compression) targets=(CompressionBenchmarks) ;;
    startup) targets=(StartupBenchmarks) ;;
    push-to-visible) targets=(PushToVisibleBenchmarks) ;;
    explore) targets=() ;;
    # `--suite virtual-time` (issue 13): times `lowband run` (release) on a 100-client, 1-hour EDGE
    # crowd in virtual time; rows: wall time, speedup over real time (virtual s per wall s) and
    # the target's attainment (goal >= 1000x, i.e. the hour in <= 3.6 s).
    virtual-time)
        scripts/setup.sh
        swift build --scratch-path "$build_path" -c release --product lowband
        lowband="$(swift build --scratch-path "$build_path" -c release --show-bin-path)/lowband"
        [ -n "$out" ] || out=reports/virtual-time.csv
        run_out="$build_path/bench-raw/virtual-time"
        rm -rf "$run_out"
        start=$(date +%s.%N)
        "$lowband" run --scenario crowd --clients 100 --duration 1h --profile edge --virtual-time --seed 1 --out "$run_out" > /dev/null
        end=$(date +%s.%N)
        mkdir -p "$(dirname "$out")"
        commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
        swift_version=$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9.]*\).*/\1/p' | head -1)
        stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
        awk -v start="$start" -v end="$end" -v commit="$commit" -v swift="$swift_version" -v host="$(hostname)" -v stamp="$stamp" 'BEGIN {
            wall = end - start; ratio = 3600 / wall; attainment = ratio / 1000; if (attainment > 1000) attainment = 1000
            tail = sprintf("%s,%s,%s,%s,scripts/bench.sh --suite virtual-time", commit, swift, host, stamp)
            print "suite,benchmark,metric,unit,p50,p90,p99,min,max,samples,commit,swift_version,host,timestamp,command"
            printf "virtual-time,crowd-100-1h-edge,wall_total,s,%.3f,%.3f,%.3f,%.3f,%.3f,1,%s\n", wall, wall, wall, wall, wall, tail
            printf "virtual-time,crowd-100-1h-edge,speedup_vs_real_time,x,%.1f,%.1f,%.1f,%.1f,%.1f,1,%s\n", ratio, ratio, ratio, ratio, ratio, tail
            printf "targets,virtual-time-1000x/crowd-100-1h-edge,attainment,x,%.3f,%.3f,%.3f,%.3f,%.3f,1,%s\n", attainment, attainment, attainment, attainment, attainment, tail
        }' > "$out"
        cat "$out"
        echo "bench: virtual-time rows and target in $out"
        exit 0 ;;
    *) echo "bench: unknown suite '$suite' (all, codec, compression, startup, push-to-visible, explore)" >&2; exit 2 ;;
esac
[ -n "$out" ] || out="reports/$([ "$suite" = all ] && echo bench || echo "$suite").csv"

if [ "$suite" = explore ]; then
    scripts/setup.sh
    swift build --scratch-path "$build_path" -c release --product lowband
    "$(swift build --scratch-path "$build_path" -c release --show-bin-path)/lowband" explore --scenario crowd --profile edge --seeds 1..1000 \
        --clients 5 --duration 10m --faults swarm --allow-violations --out "$build_path/bench-raw/explore"
    mkdir -p "$(dirname "$out")"
    cp "$build_path/bench-raw/explore/results.csv" "$out"
    echo "bench: explore rows and target in $out"
    exit 0
fi

scripts/setup.sh
raw="$build_path/bench-raw/$suite"
rm -rf "$raw"
mkdir -p "$raw"
target_args=()
for target in "${targets[@]}"; do target_args+=(--target "$target"); done
# Release build of the benchmark targets, then every benchmark; raw results as an influx export.
swift package --scratch-path "$build_path" --allow-writing-to-package-directory benchmark "${target_args[@]}" \
    --format influx --path "$raw" --no-progress
swift build --scratch-path "$build_path" --product lowband
lowband="$(swift build --scratch-path "$build_path" --show-bin-path)/lowband"
"$lowband" bench import "$raw"/*.influx.csv --out "$out"
echo
"$lowband" bench summary "$out"
