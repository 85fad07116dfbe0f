#!/usr/bin/env bash
# The long concurrency run: child mode pressing, a guardian editing routines and backups being
# written, all at once on one database, for SECONDS (default 180), against a private PulseAudio
# server. Prints the figures line ("concurrency: …") and exits non-zero when anything was lost.
#
#   scripts/stress.sh          # 180 s
#   scripts/stress.sh 600      # ten minutes
#
# The test suite runs the same test for 20 s (STEPPIE_STRESS_SECONDS overrides it there too).
set -eu
cd "$(dirname "$0")/.."
seconds="${1:-180}"
swift build --build-tests
STEPPIE_STRESS_SECONDS="$seconds" STEPPIE_REQUIRE_PULSE=1 \
    scripts/with-pulse.sh swift test --skip-build --filter ConcurrencyStressTests
