#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test against a
# private PulseAudio server with a null sink (started here and stopped afterwards), then checks
# the catalogs with the real binary. The browser tests run the release binary, as installed.
#
# The stress suite (hundreds of killed processes, minutes-long concurrency, fuzzing) and the
# service's soak (a day of presses against a real `steppie serve`) run after the others, so their
# load does not starve the audio tests' 20 ms streams.
set -eu
cd "$(dirname "$0")/.."
# Processes started from here on are the tests' own: none may outlive the run (scripts/leftovers.sh).
export STEPPIE_TEST_STARTED=$(date +%s)
scripts/deps.sh
# Every target declares exactly the targets it imports (a second's work, before the build).
python3 scripts/check-deps.py
# The lazily opened libraries' stubs match the installed headers and sonames (a second's work).
python3 scripts/make-lazy-stubs.py --check
swift build --build-tests
# The binary `make install` and `make run` ship: a release build linked by lld with the layout of
# linker/steppie.order. ReleaseBinaryTests check it; the browser tests drive it.
swift build -c release --static-swift-stdlib --product steppie
export STEPPIE_RELEASE_BIN="$PWD/.build/release/steppie"
export STEPPIE_REQUIRE_PULSE=1
# A phase whose private PulseAudio server died under it (scripts/with-pulse.sh exits 75 then, after
# printing the end of the server's log) runs once more against a fresh server; failing tests on a
# live server are never run again.
pulse_phase() {
    local status=0
    "$@" || status=$?
    if [ "$status" -eq 75 ]; then
        echo "test.sh: the PulseAudio server died under that phase (its log is above); running the phase once more" >&2
        status=0
        "$@" || status=$?
    fi
    return "$status"
}
# A private PostgreSQL (scripts/with-postgres.sh: a temporary cluster on a Unix socket) for the
# centre hub's tests (SteppiePostgresTests, SteppieCentreTests, and the sync process suites run
# against both hubs), stopped and removed afterwards; the stress phase has its own. The tests that
# restart the server ("ServerRestart" in their names) have a cluster of their own, alone: a restart
# breaks every other test's sessions. The sync process suite measures how soon three services
# converge (within 2 s): it runs there too, not beside hundreds of other tests' processes.
pulse_phase scripts/with-postgres.sh scripts/with-pulse.sh swift test --skip-build --skip 'SteppieStressTests|ServiceSoakTests|SyncRandomProcessTests|ServerRestart|SyncProcessTests'
pulse_phase scripts/with-postgres.sh scripts/with-pulse.sh swift test --skip-build --no-parallel --filter 'ServerRestart|SyncProcessTests'
# The Debian package from the same release binary (scripts/deb-tests.sh: lintian, dpkg -i, steppie
# by name from the installed files, dpkg -r and --purge; root's work, so through sudo when not
# root: docs/packaging.md) is tried beside the stress phase: nothing there measures time against a
# deadline tighter than a minute, nor runs an installed `steppie`, and the package's 45 s would
# otherwise come after everything else.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
deb_log=$(mktemp)
$SUDO env STEPPIE_BIN="$STEPPIE_RELEASE_BIN" scripts/deb-tests.sh > "$deb_log" 2>&1 &
deb_pid=$!
stress_status=0
pulse_phase scripts/with-postgres.sh scripts/with-pulse.sh swift test --skip-build --filter 'SteppieStressTests|ServiceSoakTests|SyncRandomProcessTests' \
    || stress_status=$?
deb_status=0
wait "$deb_pid" || deb_status=$?
echo "== the Debian package (exit $deb_status)"; cat "$deb_log"; rm -f "$deb_log"
if [ "$stress_status" -ne 0 ] || [ "$deb_status" -ne 0 ]; then exit 1; fi
# The centre hub's staff pages need PostgreSQL (Tests/browser/test_centre_overview.py).
STEPPIE_BIN="$STEPPIE_RELEASE_BIN" scripts/with-postgres.sh scripts/browser-tests.sh
.build/debug/steppie l10n check
# Nothing the tests started may still run: tmux servers, services, PulseAudio, browsers.
scripts/leftovers.sh
