#!/usr/bin/env bash
# Builds Lowband's libFuzzer targets (the nested package Fuzz/, with -sanitize=fuzzer,address)
# and runs one or all of them on their committed seed corpora. docs/FUZZING.md has the details.
#
#   scripts/fuzz.sh TARGET|all [--time S] [--jobs N] [--parallel N] [--debug] [--build-only] [-- LIBFUZZER-FLAGS...]
#
# TARGET: msgpack-reader msgpack-json cbor-reader msgpack-codable frame-stream lz4-block lz4-frame
#         profile-yaml mahimahi-trace control-body benchmark-csv app-events proxy-door
# --time S      seconds of fuzzing per target (default 60); the seeds are always run first.
# --jobs N      parallel fuzzing processes per target (libFuzzer -fork=N; default 1).
# --parallel N  targets fuzzed at once (default 1): each libFuzzer process uses one core, so on
#               a machine with N cores N targets get their full --time each in 1/N of the wall time.
# --debug       a debug build with the same sanitizers: half the build time (102 s against
#               215 s here), a tenth of the executions per second; CI's smoke run uses it.
# --build-only  build, run nothing.
#
# Caps (a breach is a finding): one allocation over 32 MiB (-malloc_limit_mb), a resident size
# over 2 GiB with ASan's shadow and quarantine (-rss_limit_mb), one input taking over 10 s
# (-timeout). New inputs go to Fuzz/.work/TARGET (not committed); a finding is saved as
# Fuzz/artifacts/TARGET-crash-… (or -leak-, -oom-, -timeout-) and the script exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(msgpack-reader msgpack-json cbor-reader msgpack-codable frame-stream lz4-block lz4-frame
    profile-yaml mahimahi-trace control-body benchmark-csv app-events proxy-door)
seconds=60
jobs=1
parallel_targets=1
build_only=0
configuration=release
target="${1:-}"
[ -n "$target" ] || { sed -n '2,18p' "$0"; exit 2; }
shift
extra=()
while [ $# -gt 0 ]; do
    case "$1" in
        --time) seconds="${2:?--time needs seconds}"; shift 2 ;;
        --jobs) jobs="${2:?--jobs needs a count}"; shift 2 ;;
        --parallel) parallel_targets="${2:?--parallel needs a count}"; shift 2 ;;
        --build-only) build_only=1; shift ;;
        --debug) configuration=debug; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "fuzz: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

if [ "$target" = all ]; then
    targets=("${all_targets[@]}")
elif [[ " ${all_targets[*]} " == *" $target "* ]]; then
    targets=("$target")
else
    echo "fuzz: unknown target '$target'; targets: ${all_targets[*]}" >&2
    exit 2
fi

# Release with ASan: about ten times the executions per second of a debug build (--debug). The
# C parts (liblz4's shim, libyaml inside Yams, NIO's shims) get coverage and ASan too; the
# system liblz4 is not instrumented (its bounds are checked by ASan's interceptors only at the edges).
scratch=Fuzz/.build-fuzz
flags=(-c "$configuration" -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
build=(swift build --package-path Fuzz --scratch-path "$scratch" "${flags[@]}")
if [ ${#targets[@]} -eq 1 ]; then build+=(--product "${targets[0]}"); fi
start=$(date +%s)
mkdir -p Fuzz/.work
"${build[@]}" 2>&1 | tee Fuzz/.work/build.log
# ld.gold warns about an ASan symbol it cannot export; our own sources must have no warning.
if grep -E "^$PWD/(Sources|Fuzz/Sources)/.*: warning:" Fuzz/.work/build.log; then
    echo "fuzz: the fuzz build has warnings (above); Lowband builds with none" >&2
    exit 1
fi
echo "fuzz: sanitized build took $(( $(date +%s) - start )) s" >&2
[ "$build_only" -eq 0 ] || exit 0
bin="$scratch/$configuration"

mkdir -p Fuzz/artifacts
# libFuzzer reports a crash with ASan's stack; Swift's own backtracer would run first and trip
# ASan while it reads the crashed process's memory.
export SWIFT_BACKTRACE=enable=no
# One target: its log, and one line saying what it found; its exit status is the finding's.
fuzz_one() {
    local name=$1 work="Fuzz/.work/$1" log="Fuzz/.work/$1.log" parallel=() code began took runs
    mkdir -p "$work"
    [ "$jobs" -gt 1 ] && parallel=(-fork="$jobs" -ignore_crashes=0)
    began=$(date +%s)
    set +e
    "$bin/$name" "$work" "Fuzz/Corpus/$name" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=32 \
        -max_len=65536 -artifact_prefix="Fuzz/artifacts/$name-" -print_final_stats=1 \
        "${parallel[@]}" "${extra[@]}" >"$log" 2>&1
    code=$?
    set -e
    took=$(( $(date +%s) - began ))
    runs=$(awk '/^stat::number_of_executed_units:/ { sum += $2 } END { print sum + 0 }' "$log")
    if [ "$code" -ne 0 ]; then
        { echo "fuzz: $name: FINDING after $runs executions in ${took} s (exit $code); log: $log"
          grep -E 'fuzz finding|ERROR: |Fatal error|SUMMARY|Test unit written|artifact_prefix' "$log" | head -20 || true; } >&2
        return 1
    fi
    echo "fuzz: $name: $runs executions in ${took} s, no finding" >&2
}

status=0
running=0
for name in "${targets[@]}"; do
    [ -d "Fuzz/Corpus/$name" ] || { echo "fuzz: no seed corpus Fuzz/Corpus/$name" >&2; exit 1; }
    echo "fuzz: $name for ${seconds}s" >&2
    fuzz_one "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$parallel_targets" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit "$status"
