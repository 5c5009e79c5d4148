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
swift test --skip-build
