#!/usr/bin/env bash
# Sequential sends through a real `lowband client` against `lowband server`, in memory and with
# --data (SQLite, synchronous = FULL), as docs/SERVER.md reports them. Usage:
#   scripts/server-throughput.sh [COUNT] [BIN_DIR]
# COUNT messages (default 1000) are stored in the client's outbox, then sent one round trip at
# a time; the figure is COUNT / wall time of the send run (client and server on one machine).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
bin=${2:-$(swift build --show-bin-path)}
work=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n "$server_pid" ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

run() {
    local label=$1; shift
    "$bin/lowband" server --listen 127.0.0.1:0 --seed 3 --users 4 --chats-per-user 2 --messages-per-chat 3 --show-tokens 1 "$@" >"$work/server.out" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do grep -q '^user 1 ' "$work/server.out" 2>/dev/null && break; sleep 0.1; done
    local address token
    address=$(sed -n 's/^listening on //p' "$work/server.out")
    token=$(sed -n 's/^user 1 .*token \([^ ]*\) .*/\1/p' "$work/server.out")
    rm -f "$work/client.sqlite"*
    local start end
    start=$(date +%s.%N)
    "$bin/lowband" client --server "$address" --token "$token" --database "$work/client.sqlite" --seed 1 --timeout 600s \
        send --chat "$chat" --count "$count" >"$work/client.out"
    end=$(date +%s.%N)
    grep -q "done sent=$count pending=0 failed=0" "$work/client.out"
    kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=
    printf '%s: %d messages in %.2f s = %.0f messages/s\n' "$label" "$count" "$(echo "$end - $start" | bc)" "$(echo "$count / ($end - $start)" | bc -l)"
}

# A chat user 1 is in: one where they sent a seeded message (the seed and shape are fixed above).
"$bin/lowband" server --listen 127.0.0.1:0 --seed 3 --users 4 --chats-per-user 2 --messages-per-chat 3 --data "$work/probe" >"$work/probe.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q '^stop with' "$work/probe.out" 2>/dev/null && break; sleep 0.1; done
kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=
chat=$("$bin/lowband" server inspect "$work/probe" | awk -F, '$3 == 1 { print $1; exit }')

run "in memory"
run "--data (SQLite, synchronous = FULL)" --data "$work/data"
