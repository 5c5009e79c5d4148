#!/usr/bin/env bash
# Starts a Mosquitto broker on 127.0.0.1:PORT (default 18830) until stopped, keeping nothing on
# disk: the upstream the MQTT chat example explores behind Lowband's proxies.
set -euo pipefail
port="${1:-18830}"
config="$(mktemp -t lowband-mosquitto.XXXXXX.conf)"
printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$port" > "$config"
mosquitto_bin="$(command -v mosquitto || echo /usr/sbin/mosquitto)"
"$mosquitto_bin" -c "$config" &
broker=$!
trap 'kill "$broker" 2>/dev/null; rm -f "$config"' EXIT INT TERM
# Mosquitto reads its configuration once, at start: the file goes once the broker listens (a
# fixed second was not always enough on a loaded machine: "Unable to open config file"), or
# when it ends.
for _ in $(seq 1 300); do
    kill -0 "$broker" 2>/dev/null || break
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
done
rm -f "$config"
wait "$broker"
