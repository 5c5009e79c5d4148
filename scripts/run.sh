#!/usr/bin/env bash
# Runs Lowband's main job, `lowband run` with its defaults (push-to-visible on EDGE, seed 1, about a
# minute): installs what is missing, builds in release mode, runs. Arguments replace the default.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product lowband
exec .build/release/lowband "${@:-run}"
