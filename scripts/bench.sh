#!/usr/bin/env bash
# `make bench`: every benchmark in a release build, printed as tables with their baselines.
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
swift build -c release
.build/release/steppie-bench "$@"
