#!/usr/bin/env bash
# The heartbeat sweep (issue 27, part 5): what the client engine's heartbeat interval costs and
# buys on each cellular profile with a NAT timeout. For every profile and interval it runs the
# `pocket` scenario (a phone in a pocket: rare messages, heartbeats between) for an hour of
# virtual time per seed, and collects energy per idle hour, pushes that arrived late (only by
# the sync after a reconnect, because the NAT forgot the idle flow) and, from a second run with
# the `nat-expiry` fault (the network forgets the phone's flow at seeded moments), the time the
# engine took to notice a dead flow. Writes reports/heartbeat-sweep/sweep.csv and sweep.html (one
# curve per profile) and prints the lowest-energy interval that lost no push on any profile,
# and where the engine's default (270 s) stands against it.
#
#   scripts/heartbeat-sweep.sh [--lowband PATH] [--profiles gprs,edge,3g,lte-radio]
#                              [--intervals 20,30,60,...] [--seeds 1,2] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
lowband=""
profiles="gprs,edge,3g,lte-radio"
intervals="20,30,60,120,180,240,270,290,300,360,600"
seeds="1,2"
out="reports/heartbeat-sweep"
while [ $# -gt 0 ]; do
  case "$1" in
    --lowband) lowband="$2"; shift 2 ;;
    --profiles) profiles="$2"; shift 2 ;;
    --intervals) intervals="$2"; shift 2 ;;
    --seeds) seeds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    *) echo "heartbeat-sweep: unknown option '$1'" >&2; exit 2 ;;
  esac
done
if [ -z "$lowband" ]; then
  swift build -c release --product lowband >&2
  lowband="$(swift build -c release --show-bin-path)/lowband"
fi
mkdir -p "$out/runs"
csv="$out/sweep.csv"
echo "profile,heartbeat_s,seed,energy_per_hour_j,radio_on_s,promotions,pushes,pushes_late,dead_flow_notice_s,reconnects" > "$csv"
value() { awk -F, -v m="$1" '$3==m{print $5}' "$2" | head -1; }
for profile in ${profiles//,/ }; do
  for interval in ${intervals//,/ }; do
    for seed in ${seeds//,/ }; do
      run="$out/runs/$profile-$interval-$seed"
      "$lowband" run --scenario pocket --profile "$profile" --seed "$seed" --virtual-time \
        --heartbeat "${interval}s" --out "$run" > "$run.log" 2>&1 || { echo "heartbeat-sweep: $profile ${interval}s seed $seed failed, see $run.log" >&2; exit 1; }
      "$lowband" run --scenario pocket --profile "$profile" --seed "$seed" --virtual-time \
        --heartbeat "${interval}s" --faults nat-expiry --out "$run-fault" > "$run-fault.log" 2>&1 || { echo "heartbeat-sweep: $profile ${interval}s seed $seed with nat-expiry failed, see $run-fault.log" >&2; exit 1; }
      results="$run/results.csv"
      notice="$(awk -F, '$3=="dead_flow_notice"{print $5}' "$run-fault/results.csv" | head -1)"
      echo "$profile,$interval,$seed,$(value energy.per_hour "$results"),$(value radio.on_time "$results"),$(value radio.promotions "$results"),$(value pushes "$results"),$(value pushes_late "$results"),$notice,$(value reconnects "$results")" >> "$csv"
    done
    echo "heartbeat-sweep: $profile ${interval}s done" >&2
  done
done
python3 scripts/heartbeat-sweep-report.py "$csv" "$out/sweep.html" 270
