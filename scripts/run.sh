#!/usr/bin/env bash
# The README's main job: installs what is missing, builds a release binary and runs a guided
# routine on the default database (created with the morning template on first run).
# Extra arguments go to `steppie child` (for example --child NAME, --output wav).
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
swift build -c release --product steppie --static-swift-stdlib
bin=.build/release/steppie

# First run only: `today` only looks (it never creates a database), and `init` on a database
# with a guardian PIN is a guardian command.
"$bin" today >/dev/null 2>&1 || "$bin" init >/dev/null || true
exec "$bin" child "$@"
