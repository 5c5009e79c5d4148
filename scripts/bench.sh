#!/usr/bin/env bash
# Runs Lowband's benchmark suites (package-benchmark targets of the nested package Benchmarks/)
# and writes one CSV report in the schema of docs/BENCHMARKS.md, with the ratios between
# benchmarks of the run and the targets the kits declare; prints the same as tables.
#
#   scripts/bench.sh [--suite all|codec|compression|startup|push-to-visible|explore|relay|virtual-time]
#                    [--out FILE] [--build-path DIR] [--lowband FILE] [--derive FILE]
#
# --build-path DIR builds in DIR instead of .build (SwiftPM's --scratch-path), and the Benchmarks
# package in DIR/benchmarks instead of Benchmarks/.build, e.g. outside the checkout on a CI
# runner whose workspace is read-only or shared. The run ends with a compact summary of the
# report: codec × fixture and compressor × input (`lowband-bench-derive --summary` prints it again).
# --lowband FILE: the package-benchmark suites convert their results with this `lowband` (a debug
# build will do) instead of building one in the build path; scripts/test.sh passes the one it
# built, so the start-up suite runs no SwiftPM command on the root's .build while other packages
# build there.
# --derive FILE: the `lowband-bench-derive` to apply the kits' ratios and targets with, instead of
# a debug build of it in the Benchmarks build path; scripts/test.sh passes the one its build of
# Benchmarks/ in the root's .build made, where the root's modules are already built for debugging.
#
# `explore` is not a package-benchmark suite: it times `lowband explore` (release) over 1,000
# seeds of a 5-client, 10-minute EDGE crowd with swarm faults and writes its results.csv rows
# with the target row (issue 10: at most 600 s per 1,000 seeds).
# `relay` is not one either: it runs Benchmarks/relay/proxy_vs_socat.py (the proxy on the perfect
# profile against socat and a direct connection) and adds the ratio to socat and its target;
# `virtual-time` times one `lowband run` of a 100-client EDGE crowd hour in virtual time, then
# `lowband explore` over 1,000 seeds of a 5-client, 10-minute EDGE crowd with swarm faults,
# `--jobs 2` (VT_EXPLORE=0 leaves it out, VT_EXPLORE_SEEDS=A..B sets the seeds): wall and CPU
# time of each, the hour's speedup over real time and the sweep's seeds per second.
#
# package-benchmark has no CSV export: its influx and histogramSamples exports are converted by
# `lowband bench import` (FILE and its samples, FILE.samples.csv), then Benchmarks/'
# `lowband-bench-derive` adds the ratios and targets every kit declares.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."

suite=all
out=""
build_path=.build
bench_build_path=Benchmarks/.build
given_lowband=""
given_derive=""
while [ $# -gt 0 ]; do
    case "$1" in
        --suite) suite="${2:?--suite needs a value}"; shift 2 ;;
        # Paths given on the command line are the caller's, not the checkout's.
        --out) out="$(cd "$caller" && realpath -m "${2:?--out needs a value}")"; shift 2 ;;
        --build-path)
            build_path="$(cd "$caller" && realpath -m "${2:?--build-path needs a directory}")"
            bench_build_path="$build_path/benchmarks"
            shift 2 ;;
        --lowband) given_lowband="$(cd "$caller" && realpath -m "${2:?--lowband needs a file}")"; shift 2 ;;
        --derive) given_derive="$(cd "$caller" && realpath -m "${2:?--derive needs a file}")"; shift 2 ;;
        -h|--help) sed -n '2,33p' "$0"; exit 0 ;;
        *) echo "bench: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

# Checked before anything is built or run, so a wrong path costs no benchmark run.
if [ -n "$given_lowband" ] && [ ! -x "$given_lowband" ]; then
    echo "bench: --lowband $given_lowband is no executable file" >&2
    exit 2
fi
if [ -n "$given_derive" ] && [ ! -x "$given_derive" ]; then
    echo "bench: --derive $given_derive is no executable file" >&2
    exit 2
fi

case "$suite" in
    all) targets=(CodecBenchmarks CompressionBenchmarks StartupBenchmarks PushToVisibleBenchmarks) ;;
    codec) targets=(CodecBenchmarks) ;;
    compression) targets=(CompressionBenchmarks) ;;
    startup) targets=(StartupBenchmarks) ;;
    push-to-visible) targets=(PushToVisibleBenchmarks) ;;
    explore) targets=() ;;
    # `--suite relay` (issue 13): `lowband proxy` (release) on the perfect profile against socat
    # and a direct connection on loopback, five interleaved rounds (Benchmarks/relay/
    # proxy_vs_socat.py): upload throughput, echo RTT and the RTT each relay adds; then the ratio
    # to socat and its target (>= 1.5x) from Benchmarks/Figures/RelayFigures.
    relay) targets=() ;;
    # `--suite virtual-time` (issues 13, 39): times `lowband run` (release) on a 100-client, 1-hour
    # EDGE crowd in virtual time and `lowband explore` over 1,000 seeds (5 clients, 10 minutes,
    # swarm faults, --jobs 2); rows: wall and CPU time, the speedup over real time (virtual s per
    # wall s) and seeds per second, then the targets (>= 1000x, i.e. the hour in <= 3.6 s; 1,000
    # seeds in <= 30 s) from Benchmarks/Figures/VirtualTimeFigures.
    virtual-time) targets=() ;;
    *) echo "bench: unknown suite '$suite' (all, codec, compression, startup, push-to-visible, explore, relay, virtual-time)" >&2; exit 2 ;;
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

# Adds the ratios, targets and summary tables the suites declare (Benchmarks/Figures, which needs
# LowbandReports only) to the measured rows in $1 and writes the report to $out. A debug build:
# it measures nothing, and shares the package-benchmark tool's debug dependencies (10 s on a
# fresh clone, against 39 s for release).
derive() {
    local package=(--package-path Benchmarks --scratch-path "$bench_build_path") tool="$given_derive"
    if [ -z "$tool" ]; then
        swift build "${package[@]}" --product lowband-bench-derive
        tool="$(swift build "${package[@]}" --show-bin-path)/lowband-bench-derive"
    fi
    echo
    "$tool" "$1" --out "$out"
}

if [ "$suite" = relay ] || [ "$suite" = virtual-time ]; then
    swift build --scratch-path "$build_path" -c release --product lowband
    lowband="$(swift build --scratch-path "$build_path" -c release --show-bin-path)/lowband"
fi
if [ "$suite" = relay ]; then
    python3 Benchmarks/relay/proxy_vs_socat.py "$lowband" --csv "$raw/measured.csv"
    derive "$raw/measured.csv"
    exit 0
fi
if [ "$suite" = virtual-time ]; then
    # Each program timed by bash (wall, user and system CPU: CPU moves less than wall with the
    # other work on a shared machine); the rows are the benchmark schema's, one sample each.
    TIMEFORMAT='%R %U %S'
    timed() { local file="$1"; shift; { time "$@" > /dev/null 2>&1; } 2> "$file"; }
    timed "$raw/crowd.time" "$lowband" run --scenario crowd --clients 100 --duration 1h --profile edge --virtual-time --seed 1 --out "$raw/run"
    # explore (issue 39): 1,000 seeds of a 5-client, 10-minute EDGE crowd with swarm faults, two at
    # a time; VT_EXPLORE_SEEDS sets the seeds (1..1000), VT_EXPLORE=0 leaves the sweep out.
    seeds="${VT_EXPLORE_SEEDS:-1..1000}"
    if [ "${VT_EXPLORE:-1}" != 0 ]; then
        timed "$raw/explore.time" "$lowband" explore --scenario crowd --clients 5 --duration 10m --profile edge --seeds "$seeds" \
            --faults swarm --jobs 2 --allow-violations --out "$raw/explore"
    fi
    commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    stamp=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    count=$(awk -F'[.][.]' '{ print $2 - $1 + 1 }' <<< "$seeds")
    awk -v commit="$commit" -v host="$(hostname)" -v stamp="$stamp" -v count="$count" -v crowd="$raw/crowd.time" -v explore="$raw/explore.time" '
        function row(benchmark, metric, unit, value, format) {
            printf "virtual-time,%s,%s,%s," format "," format "," format "," format "," format ",1,%s\n", benchmark, metric, unit, value, value, value, value, value, tail
        }
        BEGIN {
            tail = sprintf("%s,,%s,%s,scripts/bench.sh --suite virtual-time", commit, host, stamp)
            print "suite,benchmark,metric,unit,p50,p90,p99,min,max,samples,commit,swift_version,host,timestamp,command"
            getline line < crowd; split(line, t, " ")
            row("crowd-100-1h-edge", "wall_total", "s", t[1], "%.3f")
            row("crowd-100-1h-edge", "cpu_total", "s", t[2] + t[3], "%.3f")
            row("crowd-100-1h-edge", "speedup_vs_real_time", "x", 3600 / t[1], "%.1f")
            if ((getline line < explore) > 0) {
                split(line, e, " ")
                name = "explore-" count "-crowd-5-10m-edge"
                row(name, "wall_total", "s", e[1], "%.3f")
                row(name, "cpu_total", "s", e[2] + e[3], "%.3f")
                row(name, "seeds_per_second", "count/s", count / e[1], "%.2f")
            }
        }' > "$raw/measured.csv"
    derive "$raw/measured.csv"
    exit 0
fi

target_args=()
for target in "${targets[@]}"; do target_args+=(--target "$target"); done
benchmarks=(--package-path Benchmarks --scratch-path "$bench_build_path")
if [ -n "$given_lowband" ]; then
    lowband=$given_lowband
else
    swift build --scratch-path "$build_path" --product lowband
    lowband="$(swift build --scratch-path "$build_path" --show-bin-path)/lowband"
fi
# Without CPU performance counters package-benchmark writes no `instructions` rows: the start-up
# suite's are then counted under callgrind instead, each benchmark as a short program
# (scripts/startup-instructions.sh; one instrumented run each, the counts do not move), so the
# gate compares instructions on every machine. STARTUP_INSTRUCTION_RUNS sets the runs. The probe
# is built before anything is measured; it is counted while package-benchmark's exports run (they
# measure nothing, and a count does not move with the load), 20 s of the suite's run that no
# longer wait for the exports' 16 s.
probe=""
if [[ " ${targets[*]} " == *" StartupBenchmarks "* ]] && command -v valgrind > /dev/null; then
    swift build "${benchmarks[@]}" -c release --product lowband-startup-probe
    probe="$(swift build "${benchmarks[@]}" -c release --show-bin-path)/lowband-startup-probe"
fi
# Release build of the benchmark targets, then every benchmark, stored as a package-benchmark
# baseline; one measurement exported twice: the influx export (percentiles) and histogramSamples
# (every iteration's value, which `lowband compare` tests statistically).
run_name="lowband_$suite"
swift package "${benchmarks[@]}" --allow-writing-to-package-directory benchmark baseline update "$run_name" \
    "${target_args[@]}" --no-progress
counting=""
# The stored baseline names the metrics measured: with counters, `instructions` is among them.
if [ -n "$probe" ] && ! grep -q '"instructions"' "Benchmarks/.benchmarkBaselines/StartupBenchmarks/$run_name/results.json"; then
    scripts/startup-instructions.sh count "$lowband" "$probe" "$raw/instructions" "${STARTUP_INSTRUCTION_RUNS:-1}" &
    counting=$!
    # A failed export ends the suite: the counting ends with it.
    trap 'kill "$counting" 2> /dev/null || true' EXIT
fi
for format in influx histogramSamples; do
    swift package "${benchmarks[@]}" --allow-writing-to-package-directory benchmark baseline read "$run_name" \
        "${target_args[@]}" --format "$format" --path "$raw" --no-progress > "$raw/export-$format.log"
done
"$lowband" bench import "$raw" --out "$raw/measured.csv"
if [ -n "$counting" ]; then
    wait "$counting"
    scripts/startup-instructions.sh join "$raw/instructions" "$raw/measured.csv"
fi
# The suites' ratios, targets and summary tables; the samples travel with the rows
# (measured.samples.csv → FILE.samples.csv).
derive "$raw/measured.csv"
