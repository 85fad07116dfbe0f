#!/usr/bin/env bash
# The end of the README test command: fails when any process the tests started is still running
# (a `steppie` of any kind, a tmux server, a private PulseAudio server, chromedriver or Chromium
# started by the tests, the private PostgreSQL of scripts/with-postgres.sh). Processes that are ending get up to 10 s, polled, before they count.
# Processes older than this run (started before `STEPPIE_TEST_STARTED`, seconds since the epoch)
# are not its own and are left out.
set -u
started=${STEPPIE_TEST_STARTED:-0}
pattern='(^|/)(steppie|tmux|pulseaudio|chromedriver)( |$)|steppie-test-|steppie-(svc|cli|pulse|browser|postgres)|chromium.*--enable-automation'
find_left() {
    local now
    now=$(date +%s)
    ps -eo pid=,ppid=,etimes=,args= | while read -r pid ppid age args; do
        [ "$pid" = "$$" ] && continue
        [ "$ppid" = "$$" ] && continue
        # Started before this test run: not the tests' own.
        if [ "$started" -gt 0 ] && [ $(( now - age )) -lt "$started" ]; then continue; fi
        if printf '%s\n' "$args" | grep -Eq "$pattern"; then
            case "$args" in *leftovers.sh*|*grep*) continue ;; esac
            printf '%s %s\n' "$pid" "$args"
        fi
    done
}
for _ in $(seq 1 50); do
    left=$(find_left)
    [ -z "$left" ] && { echo "leftovers: no process left behind"; exit 0; }
    sleep 0.2
done
echo "leftovers: processes left behind by the tests:" >&2
printf '%s\n' "$left" >&2
exit 1
