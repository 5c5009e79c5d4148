#!/usr/bin/env bash
# Runs Lowband's main job, `lowband run` with its defaults (push-to-visible on EDGE, seed 1, about a
# minute): installs what is missing, builds in release mode, runs. Arguments replace the default.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product lowband
# The commands Lowband prints (reproduce, shrunk, same network again) start with `lowband`: the
# binary just built goes on PATH so they run as printed.
binary="$PWD/.build/release/lowband"
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
