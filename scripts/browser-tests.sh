#!/usr/bin/env bash
# The child's kiosk page in a real browser (issue 13): headless Chromium driven by Selenium
# against a real `steppie serve`, with sound to a private PulseAudio null sink.
#
#   scripts/browser-tests.sh                 # every browser test
#   scripts/browser-tests.sh -k keyboard     # extra arguments go to pytest (one run, no shards)
#   STEPPIE_BROWSER_SHARDS=1 scripts/browser-tests.sh   # every test in one run, one after another
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
pytest_args=(-q -rA -p no:cacheprovider --durations=10)
if [ "$#" -gt 0 ] || [ "${STEPPIE_BROWSER_SHARDS:-2}" = 1 ]; then
    exec scripts/with-pulse.sh "$VENV/bin/python" -m pytest Tests/browser "${pytest_args[@]}" "$@"
fi
# The whole run: two shards side by side, each with its own PulseAudio server (so one shard's
# sound never reaches the other's recordings) and its own Chromium and services. Most of the
# tests' time is waiting (idle ends, long polls, timeouts), so two halves take about half the
# time on two cores. The files are split by their measured durations (`--durations` below),
# about 5 minutes each; a new file goes to the shorter half.
shard_a=(Tests/browser/test_guardian.py Tests/browser/test_guardian_lan.py Tests/browser/test_hardening.py
         Tests/browser/test_guardian_print.py Tests/browser/test_kiosk_not_saved.py Tests/browser/test_stream_limits.py
         Tests/browser/test_centre_overview.py)
shard_b=(Tests/browser/test_kiosk.py Tests/browser/test_picker.py Tests/browser/test_guardian_sync.py
         Tests/browser/test_guardian_recording.py Tests/browser/test_http_abuse.py)
listed=$(printf '%s\n' "${shard_a[@]}" "${shard_b[@]}" | sort)
present=$(ls Tests/browser/test_*.py | sort)
if [ "$listed" != "$present" ]; then
    echo "browser-tests: the shards do not list every test file (scripts/browser-tests.sh):" >&2
    diff <(echo "$listed") <(echo "$present") >&2
    exit 2
fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
scripts/with-pulse.sh "$VENV/bin/python" -m pytest "${shard_a[@]}" "${pytest_args[@]}" > "$logs/a" 2>&1 &
pid_a=$!
scripts/with-pulse.sh "$VENV/bin/python" -m pytest "${shard_b[@]}" "${pytest_args[@]}" > "$logs/b" 2>&1 &
pid_b=$!
status_a=0; status_b=0
wait "$pid_a" || status_a=$?
wait "$pid_b" || status_b=$?
echo "== browser tests, first half (exit $status_a)"; cat "$logs/a"
echo "== browser tests, second half (exit $status_b)"; cat "$logs/b"
# A half whose PulseAudio server died under it (with-pulse.sh's 75, the server's log above) runs
# once more, alone, as scripts/test.sh does for its phases.
again() {  # again NAME STATUS FILES...: the half's status, after its second run when it was 75
    local name=$1 status=$2
    shift 2
    if [ "$status" -eq 75 ]; then
        echo "browser-tests: the $name half's PulseAudio server died; running that half once more" >&2
        status=0; scripts/with-pulse.sh "$VENV/bin/python" -m pytest "$@" "${pytest_args[@]}" || status=$?
    fi
    return "$status"
}
again first "$status_a" "${shard_a[@]}" && status_a=0 || status_a=$?
again second "$status_b" "${shard_b[@]}" && status_b=0 || status_b=$?
[ "$status_a" -eq 0 ] && [ "$status_b" -eq 0 ]
