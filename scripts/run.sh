#!/usr/bin/env bash
# Runs Lowband's main job, `lowband run` with its defaults (push-to-visible on EDGE, seed 1, about a
# minute): installs what building needs, builds, runs. Arguments replace the default.
#
#   scripts/run.sh [--release] [LOWBAND ARGUMENTS…]
#
# The main job is bound by the emulated network, not the CPU, so a debug build gives the same
# figures (issue 39, measured: push_to_visible p50 203.5 ms debug against 203.1 ms release, client
# decode + store 0.44 against 0.28 ms) and reaches the first result in a third of the time: on
# this project's 2-core machines a fresh debug build of the `lowband` product takes ~5 min, a
# release build ~12. --release builds the optimized binary that CPU-bound work wants:
# `lowband run --virtual-time`, `explore` over many seeds, speed figures (scripts/bench.sh builds
# its own). Only the packages a build needs are installed here; scripts/test.sh installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=debug
if [ "${1:-}" = "--release" ]; then
    configuration=release
    shift
fi
scripts/setup.sh --build
swift build -c "$configuration" --product lowband
# The commands Lowband prints (reproduce, shrunk, same network again) start with `lowband`: the
# binary just built goes on PATH so they run as printed.
binary="$PWD/.build/$configuration/lowband"
if [ "$(readlink -f "$(command -v lowband 2>/dev/null || true)" 2>/dev/null)" != "$binary" ]; then
    if [ -w /usr/local/bin ]; then
        ln -sf "$binary" /usr/local/bin/lowband
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo ln -sf "$binary" /usr/local/bin/lowband
    else
        echo "run: cannot put lowband on PATH (/usr/local/bin is not writable); printed commands run as $binary" >&2
    fi
fi
exec "$binary" "${@:-run}"
