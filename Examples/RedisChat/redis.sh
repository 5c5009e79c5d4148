#!/usr/bin/env bash
# Starts a Redis server on 127.0.0.1:PORT (default 16379) until stopped, keeping nothing on disk:
# the upstream the Redis chat example explores behind Lowband's proxies.
set -euo pipefail
port="${1:-16379}"
redis_bin="$(command -v redis-server || echo /usr/bin/redis-server)"
exec "$redis_bin" --port "$port" --bind 127.0.0.1 --save '' --appendonly no --protected-mode yes --daemonize no --loglevel warning
