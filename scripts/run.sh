#!/usr/bin/env bash
# Runs Lowband's main job with its defaults: installs what is missing, builds, runs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build -c release --product lowband
exec .build/release/lowband "${@:-roundtrip}"
