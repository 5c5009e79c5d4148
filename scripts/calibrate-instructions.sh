#!/usr/bin/env bash
# Calibrates `lowband compare`'s instruction gate on this machine (docs/BENCHMARKS.md,
# "Instruction counts"): a real program's start — Python importing json, decimal and email — is
# counted by `lowband startup --measure instructions` while both cores are kept busy by `yes`,
# and compared with `lowband compare` at its defaults:
#   A/A:    base run i against base run i+1 (the same program)      — must pass every time;
#   +1 %:   base run i against a start doing ~1 % more work          — must fail every time;
#   +0.3 %: base run i against a start doing ~0.3 % more work        — must fail every time.
# "More work" is a longer sum(range(N)) before the ready line; the script prints the change
# each comparison saw.
#
#   scripts/calibrate-instructions.sh [--pairs 20] [--runs 2] [--work DIR] [--no-load]
#
# --runs is the instrumented runs per side of each comparison (their spread sets the limit).
# The Python binary itself is counted, not pyenv's shim (whose bash scripts cost a minute under
# callgrind per start); PYTHONHASHSEED=0 fixes the hash seed.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."

pairs=20
runs=2
work=/tmp/lowband-calibrate-instructions
load=yes
while [ $# -gt 0 ]; do
    case "$1" in
        --pairs) pairs="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --work) work="$(cd "$caller" && realpath -m "$2")"; shift 2 ;;
        --no-load) load=no; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) echo "calibrate-instructions: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

lowband="${LOWBAND:-$(swift build --show-bin-path)/lowband}"
[ -x "$lowband" ] || swift build --product lowband
python="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$work"

loaders=()
stop_load() { for pid in "${loaders[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_load EXIT
if [ "$load" = yes ]; then
    for _ in 1 2; do yes > /dev/null & loaders+=($!); done
fi

base_work=20000
# ~178 instructions per element of sum(range(N)) in CPython 3.11 on x86-64, against a start of
# ~154 M instructions: 8,700 more elements is ~1 %, 2,600 ~0.3 %.
declare -A extra=([base]=0 [plus1]=8700 [plus03]=2600)
measure() { # name index
    local n=$((base_work + ${extra[$1]}))
    "$lowband" startup --measure instructions --instrumented-runs "$runs" --warmup 0 --name python-start \
        --env PYTHONHASHSEED=0 --until '^ready$' --out "$work/$1-$2.csv" \
        -- "$python" -c "import json, decimal, email; sum(range($n)); print('ready')" > /dev/null 2> "$work/$1-$2.log"
}

start=$(date +%s)
for i in $(seq 0 "$pairs"); do
    measure base "$i"
    if [ "$i" -gt 0 ]; then
        measure plus1 "$i"
        measure plus03 "$i"
    fi
    echo "calibrate-instructions: pair $i of $pairs measured ($(( $(date +%s) - start )) s)" >&2
done

printf '%-8s %-12s %-12s %s\n' case comparisons failed "changes seen (min..max)"
for case in aa plus1 plus03; do
    failed=0
    changes=()
    for i in $(seq 1 "$pairs"); do
        if [ "$case" = aa ]; then current="$work/base-$i.csv"; baseline="$work/base-$((i - 1)).csv"
        else current="$work/$case-$i.csv"; baseline="$work/base-$i.csv"; fi
        if ! "$lowband" compare "$baseline" "$current" > "$work/compare-$case-$i.txt"; then failed=$((failed + 1)); fi
        changes+=("$(awk '$2 == "instructions" { print $6 }' "$work/compare-$case-$i.txt")")
    done
    sorted=$(printf '%s\n' "${changes[@]}" | sort -g | sed -n '1p;$p' | paste -sd' ')
    printf '%-8s %-12s %-12s %s\n' "$case" "$pairs" "$failed" "$sorted"
done
echo "calibrate-instructions: $((pairs + 1 + 2 * pairs)) invocations of $runs instrumented runs in $(( $(date +%s) - start )) s; comparisons in $work" >&2
