#!/usr/bin/env bash
# The child's kiosk page in a real browser (issue 13): headless Chromium driven by Selenium
# against a real `steppie serve`, with sound to a private PulseAudio null sink.
#
#   scripts/browser-tests.sh                 # every browser test
#   scripts/browser-tests.sh -k keyboard     # extra arguments go to pytest
#
# Installs what is missing: Debian's chromium and chromium-driver (and a Korean font for the
# screenshots), then a virtual environment in .build/browser-venv with the pinned packages of
# Tests/browser/requirements.txt (selenium, pytest) and axe-core 4.12 (requirements-nodeps.txt); pip runs only when the venv is
# missing or the requirements changed. Screenshots are kept in .build/browser-artifacts.
# The exit status is the tests' status.
set -eu
cd "$(dirname "$0")/.."

# STEPPIE_BIN picks the binary (scripts/test.sh gives the release one); else the debug build.
if [ -z "${STEPPIE_BIN:-}" ] && [ ! -x .build/debug/steppie ]; then
    swift build --product steppie
fi

. scripts/browser-env.sh

mkdir -p .build/browser-artifacts
export PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true  # chromedriver is Debian's: Selenium Manager fetches nothing
exec scripts/with-pulse.sh "$VENV/bin/python" -m pytest Tests/browser -q -rA -p no:cacheprovider "$@"
