#!/usr/bin/env bash
# Counts the start-up suite's instructions under callgrind, for machines whose CPU exposes no
# performance counters (package-benchmark then writes no `instructions` rows): each benchmark of
# Benchmarks/Startup as one short program (Benchmarks/StartupProbe), counted by
# `lowband startup --measure instructions`, the same path as any program's start.
#
#   scripts/startup-instructions.sh LOWBAND PROBE WORK_DIR REPORT [RUNS]
#   scripts/startup-instructions.sh count LOWBAND PROBE WORK_DIR [RUNS]
#   scripts/startup-instructions.sh join WORK_DIR REPORT
#
# `count` only counts, into WORK_DIR/counts; `join` adds what `count` left there to REPORT; the
# first form does both. scripts/bench.sh counts beside package-benchmark's exports (which measure
# nothing: the counts do not move with the load either) and joins after its import.
#
# Appends to REPORT (a report of `lowband bench import`, with REPORT.samples.csv beside it) one
# `instructions` row per benchmark, in count per graph (or per cold start), every run's count in
# the samples: (count(BENCHMARK × N) − count(none)) / N, where both runs build every input and
# warm every benchmark once, and BENCHMARK then runs N more times: N = 100 for a hand wiring
# (a few thousand instructions), fewer for the heavier ones, so that the few hundred
# instructions by which a 70-million-instruction run may move are under 0.01 % of the
# difference. RUNS instrumented runs each (default 1: the counts barely move; docs/BENCHMARKS.md,
# "Instruction counts of a start"). valgrind 3.19 cannot read the DWARF of a Swift 6.3 release
# binary ("Possibly corrupted debuginfo file"), so a copy without it is counted.
set -euo pipefail
mode=both
case "${1:-}" in count|join) mode="$1"; shift ;; esac
# BENCHMARK:N
benchmarks=(client-graph/hand:100 client-graph/swinject:10 synthetic-30/hand:100 synthetic-30/swinject:10 synthetic-100/hand:100
    synthetic-100/swinject:10 synthetic-1000/hand:10 synthetic-1000/swinject:1 cold-start/engine:3 cold-start/raw-sqlite:3)
# The rows are Lowband's own: its checkout's commit, not the probe's folder's.
commit="$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
count_all() {
    # Counts of an earlier build would otherwise be joined as this one's.
    rm -rf "$work/counts" && mkdir -p "$work/counts"
    # The probe and its files at one path on every machine (one suite at a time per machine).
    fixed=/tmp/lowband-startup-probe
    rm -rf "$fixed" && mkdir -p "$fixed"
    strip -g -o "$fixed/probe" "$probe"
    "$fixed/probe" prepare "$fixed/cold-start.sqlite"
    # Once unmeasured, so that every counted run finds the files the one before left.
    (cd "$fixed" && "$fixed/probe" none --cache "$fixed/cold-start.sqlite" --work "$fixed/run" > /dev/null)
    count() { # benchmark repeats
        local file="$work/counts/${1//\//_}.csv"
        # Swift's hashing is seeded per process; the wiring and SQLite's rows would move with it. The
        # environment and the paths are the same bytes on every machine: their sizes move where the
        # stack and the heap start, and a wiring's count moved by up to 10 % with them.
        # From the probe's folder: the working directory's path is in the process too.
        (cd "$fixed" && "$lowband" startup --measure instructions --instrumented-runs "$runs" --warmup 0 --name "$1" --commit "$commit" \
            --clear-env --env SWIFT_DETERMINISTIC_HASHING=1 --env PATH=/usr/bin:/bin --until '^ready$' --out "$file" \
            -- "$fixed/probe" "$1" --repeat "$2" --cache "$fixed/cold-start.sqlite" --work "$fixed/run" >&2)
    }
    count none 0
    for entry in "${benchmarks[@]}"; do count "${entry%:*}" "${entry#*:}"; done
}
join_all() {
    local samples="${report%.csv}.samples.csv"
    if [ ! -f "$work/counts/none.samples.csv" ]; then
        echo "startup-instructions: $work/counts holds no counts (\`count\` first)" >&2
        exit 2
    fi
    [ -f "$samples" ] || echo "suite,benchmark,metric,value" > "$samples"
    for entry in "${benchmarks[@]}"; do
        benchmark="${entry%:*}"
        file="$work/counts/${benchmark//\//_}"
        # Run i of the benchmark less run i of none, over N; the row's other columns are the benchmark's.
        awk -F, -v rows="$report" -v samples="$samples" -v repeats="${entry#*:}" '
            function rank(p, count,   r) { r = int(p * count); if (r < p * count) r++; return r < 1 ? 1 : r }
            FNR == 1 { part++; next }
            part == 1 && $3 == "instructions" { none[++n] = $4 }
            part == 2 && $3 == "instructions" { m++; value[m] = ($4 - none[m]) / repeats }
            part == 3 { row = $0 }
            END {
                if (m == 0 || m != n) { print "startup-instructions: no counts to subtract" > "/dev/stderr"; exit 1 }
                for (i = 1; i <= m; i++) {
                    for (j = i; j > 1 && sorted[j - 1] > value[i]; j--) sorted[j] = sorted[j - 1]
                    sorted[j] = value[i]
                }
                fields = split(row, field, ",")
                skip = 0
                for (i = 1; i <= 10; i++) skip += length(field[i]) + 1
                tail = substr(row, skip + 1)
                # Nearest rank, as every report: the ceil(p * runs)-th smallest.
                printf "%s,%s,instructions,count,%.2f,%.2f,%.2f,%.2f,%.2f,%d,%s\n", field[1], field[2], sorted[rank(0.5, m)], sorted[rank(0.9, m)], sorted[rank(0.99, m)], sorted[1], sorted[m], m, tail >> rows
                for (i = 1; i <= m; i++) printf "%s,%s,instructions,%.2f\n", field[1], field[2], value[i] >> samples
            }' "$work/counts/none.samples.csv" "$file.samples.csv" "$file.csv"
    done
}
case "$mode" in
    count) lowband="$(realpath "$1")"; probe="$2"; work="$(realpath -m "$3")"; runs="${4:-1}"; count_all ;;
    join) work="$(realpath -m "$1")"; report="$(realpath "$2")"; join_all ;;
    both)
        lowband="$(realpath "$1")"; probe="$2"; work="$(realpath -m "$3")"; report="$(realpath "$4")"; runs="${5:-1}"
        count_all
        join_all ;;
esac
