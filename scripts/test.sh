#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, builds (warnings fail the build), tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift build --build-tests 2>&1 | tee "$log"; then
    echo "test: the build failed" >&2
    exit 1
fi
if grep -E "^/.*: warning:" "$log" | grep -v "/.build/" ; then
    echo "test: the build has warnings (above); Lowband builds with none" >&2
    exit 1
fi
# Tests that measure physical figures on the wall clock (rates, delays through the real proxy)
# run in a second pass, alone and one at a time, so the rest of the suite does not load the
# machine under them. Everything else runs in parallel first.
timed='FidelityTests|ToxiproxyPythonTests'
swift test --skip-build --skip "$timed"
swift test --skip-build --no-parallel --filter "$timed"
