#!/usr/bin/env bash
# Runs a command against a private PulseAudio server with a null sink, then stops that server.
#
#   scripts/with-pulse.sh swift test --filter SteppieFeedbackTests
#   scripts/with-pulse.sh Benchmarks/.build/release/steppie-bench-feedback   (built by scripts/bench.sh)
#
# The server lives in a temporary directory (its own HOME, XDG_RUNTIME_DIR and PULSE_* paths),
# has a null sink `steppie_test` at 22050 Hz mono and an anonymous unix socket. The command gets
# PULSE_SERVER and PULSE_SINK; a low-latency reader stays on the sink monitor so the null sink
# never falls back to its 2 s blocks. Both processes are stopped by PID on every exit path, and
# the command's exit status is returned, with one exception: when the server itself ended during
# the run (PulseAudio 16 aborted in clean-clone runs: see the server's flags below) and the command
# failed, the end of the server's log is printed and the status is 75 (EX_TEMPFAIL), so a caller
# can tell a dead server from failing tests (scripts/test.sh runs such a phase once more).
# STEPPIE_PULSE_LOG=FILE keeps the server's whole log; STEPPIE_PULSE_LOG_LEVEL sets its level.
set -u

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 64
fi
for tool in pulseaudio pactl parec; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "with-pulse: $tool is missing (apt-get install pulseaudio pulseaudio-utils)" >&2
        exit 69
    fi
done

PA_BASE=$(mktemp -d "${TMPDIR:-/tmp}/steppie-pulse.XXXXXX")
PA_PID=""
READER_PID=""

cleanup() {
    if [ -n "$READER_PID" ]; then
        # parec catches TERM; one sent while it is still connecting can go unanswered (a command
        # that ended at once left it, and this script's wait, hanging): KILL after 2 s.
        kill -TERM "$READER_PID" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$READER_PID" 2>/dev/null || break; sleep 0.02; done
        kill -KILL "$READER_PID" 2>/dev/null
        wait "$READER_PID" 2>/dev/null
    fi
    if [ -n "$PA_PID" ] && ! kill -0 "$PA_PID" 2>/dev/null; then
        # The server died under the command: say so, with the end of its log (the reason is there).
        echo "with-pulse: the PulseAudio server (pid $PA_PID) ended during the run; the end of its log:" >&2
        tail -n 40 "$PA_BASE/pa.log" >&2 2>/dev/null
        if [ -n "${STEPPIE_PULSE_LOG:-}" ]; then cp "$PA_BASE/pa.log" "$STEPPIE_PULSE_LOG" 2>/dev/null; fi
    fi
    if [ -n "$PA_PID" ]; then
        kill -TERM "$PA_PID" 2>/dev/null
        for _ in $(seq 1 100); do kill -0 "$PA_PID" 2>/dev/null || break; sleep 0.02; done
        kill -KILL "$PA_PID" 2>/dev/null
        wait "$PA_PID" 2>/dev/null
    fi
    rm -rf "$PA_BASE"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$PA_BASE/xdg" "$PA_BASE/run" "$PA_BASE/state"
export STEPPIE_ORIGINAL_HOME="${HOME:-}"
export HOME="$PA_BASE" XDG_RUNTIME_DIR="$PA_BASE/xdg" PULSE_RUNTIME_PATH="$PA_BASE/run" \
    PULSE_STATE_PATH="$PA_BASE/state" PULSE_SERVER="unix:$PA_BASE/native" PULSE_SINK=steppie_test
# swift keeps its caches under HOME; point them back at the real ones so builds stay warm.
if [ -n "$STEPPIE_ORIGINAL_HOME" ]; then
    export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$STEPPIE_ORIGINAL_HOME/.cache}"
fi

# Foreground server as our own child, so we know its PID (no daemonizing, no pid-file guessing).
# No shared memory (`--disable-shm`, so no memfd either): every client's audio is copied over the
# socket. With it, PulseAudio 16.1 aborted twice in one clean-clone browser run (both shards'
# servers): "Cannot send block reference with non-registered memfd ID", then 240 s later the
# assertion 'n_imported > 0' in memblock_replace_import (pulseaudio issue 824's path).
pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --use-pid-file=no --disable-shm=yes \
    --log-target="file:$PA_BASE/pa.log" --log-level="${STEPPIE_PULSE_LOG_LEVEL:-notice}" --log-time=1 \
    --load="module-native-protocol-unix socket=$PA_BASE/native auth-anonymous=1" \
    --load="module-null-sink sink_name=steppie_test rate=22050 channels=1" \
    --load="module-always-sink" >/dev/null 2>&1 &
PA_PID=$!

ready=no
for _ in $(seq 1 250); do
    if pactl info >/dev/null 2>&1; then ready=yes; break; fi
    if ! kill -0 "$PA_PID" 2>/dev/null; then break; fi
    sleep 0.02
done
if [ "$ready" != yes ]; then
    echo "with-pulse: the PulseAudio server did not answer; its log:" >&2
    cat "$PA_BASE/pa.log" >&2 2>/dev/null
    exit 69
fi

parec --latency-msec=10 -d steppie_test.monitor >/dev/null 2>&1 &
READER_PID=$!

"$@"
status=$?
if [ "$status" -ne 0 ] && ! kill -0 "$PA_PID" 2>/dev/null; then
    echo "with-pulse: the command failed (exit $status) after the PulseAudio server ended under it" >&2
    exit 75
fi
exit "$status"
