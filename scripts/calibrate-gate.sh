#!/usr/bin/env bash
# Calibrates `lowband compare`'s statistical gate on this machine (docs/BENCHMARKS.md, "Calibration"):
#   1. runs the start-up suite N times (release build; one measurement exported as influx and as
#      histogramSamples per run) and imports each run with `lowband bench import`;
#   2. A/A: compares every run with the next (N-1 comparisons of the same code; --pairs all: every
#      pair) and counts the comparisons that fail and the wall-clock rows called REGRESSION: false
#      alarms, for each minimum effect of --effects (default 5 10 20 30 50 percent);
#   3. planted slowdowns: scales every wall-clock sample of the later run of each pair by 1+P
#      (P = 5, 10, 25, 50, 100%) and compares: the comparisons failed and rows caught at each P;
#   4. a real planted slowdown: a throwaway package-benchmark package (not Lowband's) whose
#      benchmark does EXTRA_WORK_PERCENT more work, run K times with 0% and with each of
#      --extra-work (default 5), interleaved.
#
#   scripts/calibrate-gate.sh [--runs N] [--planted-runs K] [--work DIR] [--build-path DIR] [--reuse]
#                             [--pairs consecutive|all] [--effects '5 10 20 30 50']
#                             [--planted '5 10 25 50 100'] [--extra-work '5 10']
#
# --runs 0 skips the start-up suite and measures only the throwaway package.
#
# --reuse skips the runs whose report already exists in DIR (to add runs or re-analyse).
# Prints one line per minimum effect with the totals (each comparison's output stays in DIR); the gate's options are the CI gate's
# (scripts/test.sh) plus the statistical defaults (--alpha 1% --min-effect 5%).
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."
root="$PWD"

runs=31
planted_runs=6
work=/tmp/lowband-calibration
build_path=.build
reuse=0
pair_mode=consecutive
effects="5 10 20 30 50"
planted_percents="5 10 25 50 100"
extra_work="5"
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="${2:?--runs needs a number}"; shift 2 ;;
        --planted-runs) planted_runs="${2:?--planted-runs needs a number}"; shift 2 ;;
        --work) work="$(cd "$caller" && realpath -m "${2:?--work needs a directory}")"; shift 2 ;;
        --build-path) build_path="$(cd "$caller" && realpath -m "${2:?--build-path needs a directory}")"; shift 2 ;;
        --reuse) reuse=1; shift ;;
        --pairs) pair_mode="${2:?--pairs needs consecutive or all}"; shift 2 ;;
        --effects) effects="${2:?--effects needs a list, e.g. '5 10 20'}"; shift 2 ;;
        --extra-work) extra_work="${2:?--extra-work needs a list of percents, e.g. '5 10'}"; shift 2 ;;
        --planted) planted_percents="${2:?--planted needs a list of percents, e.g. '5 10 25'}"; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) echo "calibrate-gate: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
mkdir -p "$work/runs" "$work/planted"
swift build --scratch-path "$build_path" --product lowband
lowband="$(swift build --scratch-path "$build_path" --show-bin-path)/lowband"
gate=(--threshold 10% --ratio-threshold 50% --allow-missing)

# 1. The runs.
for n in $(seq 1 "$runs"); do
    report="$work/runs/$n.csv"
    if [ "$reuse" = 1 ] && [ -f "$report" ]; then continue; fi
    echo "calibrate-gate: start-up suite, run $n of $runs" >&2
    scripts/bench.sh --suite startup --build-path "$build_path" --out "$report" > "$work/runs/$n.log" 2>&1
done

# Counts REGRESSION rows of wall-clock metrics in compare's output on stdin.
count_timing_regressions() { grep -E '  (wall_clock|cpu_[a-z]+) .*REGRESSION' | wc -l || true; }

# The A/A comparisons: every run against the next, or (--pairs all) every pair of runs. The
# planted slowdowns always compare each run with the next (scaled): N-1 comparisons.
pairs=(); next_pairs=()
for i in $(seq 1 "$runs"); do
    for j in $(seq $((i + 1)) "$runs"); do
        if [ "$pair_mode" = all ] || [ "$j" = $((i + 1)) ]; then pairs+=("$i:$j"); fi
        if [ "$j" = $((i + 1)) ]; then next_pairs+=("$i:$j"); fi
    done
done

# 3. Planted slowdowns: every wall-clock sample and statistic of the later run times 1+P.
scale() { # scale SRC.csv DST.csv FACTOR
    python3 - "$1" "$2" "$3" <<'PY'
import csv, sys
src, dst, factor = sys.argv[1], sys.argv[2], float(sys.argv[3])
for suffix in (".csv", ".samples.csv"):
    a, b = src[:-4] + suffix, dst[:-4] + suffix
    with open(a, newline="") as f:
        reader = csv.DictReader(f); rows = list(reader); fields = reader.fieldnames
    for row in rows:
        if row["metric"] in ("wall_clock", "cpu_total", "cpu_user", "cpu_system"):
            for column in ("p50", "p90", "p99", "min", "max", "value"):
                if column in row: row[column] = repr(float(row[column]) * factor)
    with open(b, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n"); w.writeheader(); w.writerows(rows)
PY
}
for percent in $planted_percents; do
    for n in $(seq 1 "$runs"); do
        scale "$work/runs/$n.csv" "$work/planted/$n-plus-$percent.csv" "$(python3 -c "print(1 + $percent / 100)")"
    done
done

# 2 and 3: for each minimum effect, the A/A false alarms and the planted slowdowns caught.
echo "pairs: ${#pairs[@]} A/A ($pair_mode), ${#next_pairs[@]} planted (each run and the next); gate: ${gate[*]} --alpha 1%"
echo "failed = comparisons with at least one wall-clock REGRESSION row; rows = such rows of the rows tested;"
echo "any = A/A comparisons that exit non-zero for any row (ratios at 50% included)"
printf '%-10s  %-12s  %-28s' "min effect" "A/A: any" "A/A: failed, rows"
for percent in $planted_percents; do printf '  %-24s' "+$percent%: failed, rows"; done
echo
for effect in $effects; do
    aa_fail=0; aa_rows=0; tested_total=0; aa_any=0
    for pair in "${pairs[@]}"; do
        i="${pair%%:*}"; j="${pair##*:}"; status=0
        out=$("$lowband" compare "$work/runs/$i.csv" "$work/runs/$j.csv" "${gate[@]}" --min-effect "$effect%") || status=$?
        rows=$(printf '%s\n' "$out" | count_timing_regressions)
        tested=$(printf '%s\n' "$out" | grep -c ' p=' || true)
        printf '%s\n' "$out" > "$work/aa-$i-$j-$effect.txt"
        aa_rows=$((aa_rows + rows)); tested_total=$((tested_total + tested)); [ "$rows" = 0 ] || aa_fail=$((aa_fail + 1))
        [ "$status" = 0 ] || aa_any=$((aa_any + 1))
    done
    printf '%-10s  %-12s  %-28s' "$effect%" "$aa_any of ${#pairs[@]}" "$aa_fail of ${#pairs[@]}, $aa_rows of $tested_total"
    for percent in $planted_percents; do
        caught=0; failed=0; tested_total=0
        for pair in "${next_pairs[@]}"; do
            i="${pair%%:*}"; j="${pair##*:}"; status=0
            out=$("$lowband" compare "$work/runs/$i.csv" "$work/planted/$j-plus-$percent.csv" "${gate[@]}" --min-effect "$effect%") || status=$?
            rows=$(printf '%s\n' "$out" | count_timing_regressions)
            tested=$(printf '%s\n' "$out" | grep -c ' p=' || true)
            caught=$((caught + rows)); tested_total=$((tested_total + tested)); [ "$rows" = 0 ] || failed=$((failed + 1))
        done
        printf '  %-24s' "$failed of ${#next_pairs[@]}, $caught of $tested_total"
    done
    echo
done

# Per benchmark over the A/A comparisons: the largest lower end of the 99% interval of a
# slowdown (the --min-effect that row needed to stay quiet) and the samples per run.
first_effect="${effects%% *}"
python3 - "$work" "$first_effect" <<'PY'
import glob, re, sys
work, effect = sys.argv[1], sys.argv[2]
row = re.compile(r'^(\S+)\s+wall_clock\s+us\s+\S+\s+\S+\s+([-+]?[\d.]+)%\s+\[([-+]?[\d.]+)%,\s+([-+]?[\d.]+)%\]\s+p=(\S+)')
worst = {}
for path in glob.glob(f"{work}/aa-*-{effect}.txt"):
    for line in open(path):
        m = row.match(line)
        if m:
            name, lower, p = m[1], float(m[3]), float(m[5])
            w = worst.setdefault(name, [-1e9, 0, 0])
            w[0] = max(w[0], lower if p < 0.01 else -1e9); w[1] += 1; w[2] += p < 0.01 and lower > 0
counts = {}
for path in glob.glob(f"{work}/runs/*.samples.csv"):
    for line in open(path):
        parts = line.rstrip("\n").split(",")
        if len(parts) == 4 and parts[2] == "wall_clock":
            counts.setdefault(parts[0] + "/" + parts[1], []).append(1)
runs = max(1, len(glob.glob(f"{work}/runs/*.samples.csv")))
print("benchmark                        samples/run  significant slowdowns  largest lower end")
for name, (lower, n, slower) in sorted(worst.items()):
    print(f"{name:32s} {len(counts.get(name, [])) / runs:11.0f}  {slower:>10d} of {n:<8d}  {('%+.1f%%' % lower) if lower > -1e8 else '-':>17s}")
PY

# 4. A real planted slowdown in a package that is not Lowband's.
pkg="$work/checksum-package"
mkdir -p "$pkg/Benchmarks/Checksum"
cp "$root/scripts/calibration/Package.swift.txt" "$pkg/Package.swift"
cp "$root/scripts/calibration/Checksum.swift.txt" "$pkg/Benchmarks/Checksum/Checksum.swift"
# Interleaved (+0%, +5%, +0%, +5%, …) so that the two sides of each comparison ran minutes apart
# under the same load, as a pull request and its base measured in one CI job.
for n in $(seq 1 "$planted_runs"); do
    for extra in 0 $extra_work; do
        report="$work/planted/checksum-$extra-$n.csv"
        if [ "$reuse" = 1 ] && [ -f "$report" ]; then continue; fi
        raw="$work/planted/raw-$extra-$n"; rm -rf "$raw"; mkdir -p "$raw"
        (cd "$pkg" && EXTRA_WORK_PERCENT=$extra swift package --scratch-path "$pkg/.build" --allow-writing-to-package-directory \
            benchmark baseline update "run$extra$n" --no-progress > "$raw/run.log" 2>&1
         for format in influx histogramSamples; do
             swift package --scratch-path "$pkg/.build" --allow-writing-to-package-directory benchmark baseline read "run$extra$n" \
                 --format "$format" --path "$raw" --no-progress >> "$raw/run.log" 2>&1
         done)
        "$lowband" bench import "$raw" --out "$report" > /dev/null
    done
done
# +0% against +0% (the next run) and +0% against +P% (the run right after it, interleaved).
for effect in $effects; do
    line="checksum package, min effect $effect%:"
    for kind in same $extra_work; do
        failed=0; total=0; shifts=""
        for n in $(seq 1 "$planted_runs"); do
            if [ "$kind" = same ]; then
                [ "$n" -lt "$planted_runs" ] || continue
                other="$work/planted/checksum-0-$((n + 1)).csv"
            else
                other="$work/planted/checksum-$kind-$n.csv"
            fi
            status=0
            out=$("$lowband" compare "$work/planted/checksum-0-$n.csv" "$other" "${gate[@]}" --min-effect "$effect%") || status=$?
            total=$((total + 1)); [ "$status" = 0 ] || failed=$((failed + 1))
            shifts="$shifts $(printf '%s\n' "$out" | grep ' wall_clock ' | grep -oE '[-+][0-9.]+% \[' | tr -d ' [')"
        done
        label="+0% vs +0%"; [ "$kind" = same ] || label="+0% vs +$kind%"
        line="$line $label: $failed of $total failed (shifts:$shifts);"
    done
    echo "$line"
done
