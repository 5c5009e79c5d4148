#!/usr/bin/env bash
# Installs what Lowband needs on a fresh Debian machine, skipping what is already there.
# System: liblz4-dev, libsqlite3-dev and zlib1g-dev (linked; zlib by `lowband codecs compare` and the compression benchmark),
#   libzstd-dev (linked by `lowband codecs compare` and the compression benchmark's zstd rows), protobuf-compiler (protoc reads `codecs compare --proto`), lz4 and zstd (interop peers in tests), pkg-config,
#   chromium (renders `lowband run`'s HTML report in the report tests; large, ~100 MB download).
#   socat (the relay benchmark compares the proxy with it), mosquitto (the MQTT broker the own-app example explores),
#   redis-server (the second own-app stack: pub/sub that Examples/RedisChat explores),
#   curl (a SOCKS5 and HTTP-proxy client nobody here wrote, against the proxy's front doors),
#   libslirp-dev and libglib2.0-dev (libslirp, linked by `lowband shell`; its pkg-config file requires glib's),
#   iperf3 (goodput through `lowband shell`, docs/SHELL.md),
#   valgrind (callgrind counts start-up instructions: `lowband startup --measure instructions`, and the
#   start-up suite's instruction rows on machines without CPU performance counters).
# Python: msgpack, lz4, toxiproxy-python, prometheus-client and scipy (reference peers, clients,
#   the Prometheus text parser and the Mann-Whitney U test `lowband compare` is checked against),
#   paho-mqtt (the MQTT client of the own-app example), requests and PySocks (a Python HTTP client
#   going through the proxy's SOCKS5 and HTTP-proxy front doors), redis (redis-py, the client of the Redis chat example),
#   aioquic (an HTTP/3 client and server through `lowband shell`).
# Linked by `lowband shell`: libslirp-dev and libglib2.0-dev (Debian's slirp.pc requires glib's).
#
#   scripts/setup.sh           everything above (the test suite and the benchmarks need it all)
#   scripts/setup.sh --build   only what building `lowband` needs (liblz4-dev, libsqlite3-dev,
#                              zlib1g-dev, libzstd-dev, pkg-config, libslirp-dev, libglib2.0-dev):
#                              scripts/run.sh's first result waits for nothing else (issue 39:
#                              chromium alone is ~100 MB)
set -euo pipefail

build_only=false
case "${1:-}" in
    --build) build_only=true ;;
    "") ;;
    *) echo "setup: unknown argument '$1' (scripts/setup.sh [--build])" >&2; exit 2 ;;
esac

apt_packages=(liblz4-dev libsqlite3-dev zlib1g-dev libzstd-dev protobuf-compiler lz4 zstd pkg-config chromium socat mosquitto redis-server curl valgrind libslirp-dev libglib2.0-dev iperf3)
# pip package = Python module it provides
python_packages=(msgpack=msgpack cbor2=cbor2 protobuf=google.protobuf lz4=lz4 toxiproxy-python=toxiproxy prometheus-client=prometheus_client scipy=scipy paho-mqtt=paho.mqtt requests=requests PySocks=socks redis=redis aioquic=aioquic)

if $build_only; then
    apt_packages=(liblz4-dev libsqlite3-dev zlib1g-dev libzstd-dev pkg-config libslirp-dev libglib2.0-dev)
    python_packages=()
fi

missing=()
for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}" >&2
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

missing_py=()
for entry in ${python_packages[@]+"${python_packages[@]}"}; do
    python3 -c "import ${entry#*=}" 2>/dev/null || missing_py+=("${entry%%=*}")
done
if [ ${#missing_py[@]} -gt 0 ]; then
    echo "setup: pip installing ${missing_py[*]}" >&2
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore "${missing_py[@]}"
fi

# The linear-scaling tests count CPU instructions through perf_event_open, which a
# perf_event_paranoid above 2 forbids to unprivileged processes. Lower it where allowed.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ "$paranoid" -gt 2 ]; then
    sysctl -q -w kernel.perf_event_paranoid=2 2>/dev/null || echo "setup: cannot lower kernel.perf_event_paranoid ($paranoid); the linear-scaling tests will be skipped" >&2
fi
