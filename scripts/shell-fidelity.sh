#!/usr/bin/env bash
# Downloads of 30 KB, 100 KB and 1 MB over the given profiles, once through `lowband shell`
# (kernel TCP, real drops) and once through `lowband proxy` (the byte model's stalls), one run
# per seed, from a Python http.server on the loopback; prints one line per download:
#   profile size seed shell_s proxy_s
# Usage: scripts/shell-fidelity.sh [LOWBAND] [SEED] [PROFILE…]   (default: .build/debug/lowband 1 gprs edge 3g)
set -euo pipefail
lowband=${1:-.build/debug/lowband}
seed=${2:-1}
shift $(( $# > 2 ? 2 : $# ))
profiles=("$@")
[ ${#profiles[@]} -gt 0 ] || profiles=(gprs edge 3g)
lowband=$(cd "$(dirname "$lowband")" && pwd)/$(basename "$lowband")

work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
for size in 30 100 1000; do head -c $((size * 1000)) /dev/urandom > "$work/f$size"; done
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$work" > "$work/server.log" 2>&1 &
for _ in $(seq 50); do grep -q "port" "$work/server.log" && break; sleep 0.1; done
port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$work/server.log" | head -1)

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for profile in "${profiles[@]}"; do
    for size in 30 100 1000; do
        shell_s=$("$lowband" shell --quiet --profile "$profile" --seed "$seed" -- \
            curl -sS -o /dev/null --max-time 900 -w '%{time_total}' "http://10.0.2.2:$port/f$size")
        listen=$(free_port)
        "$lowband" proxy --no-api --listen "127.0.0.1:$listen" --upstream "127.0.0.1:$port" --profile "$profile" --seed "$seed" > "$work/proxy.log" 2>&1 &
        proxy=$!
        for _ in $(seq 100); do grep -q "listening\|127.0.0.1:$listen" "$work/proxy.log" 2>/dev/null && break; sleep 0.1; done
        proxy_s=$(curl -sS -o /dev/null --max-time 900 -w '%{time_total}' "http://127.0.0.1:$listen/f$size")
        kill "$proxy"; wait "$proxy" 2>/dev/null || true
        echo "$profile ${size}KB seed $seed shell ${shell_s}s proxy ${proxy_s}s"
    done
done
