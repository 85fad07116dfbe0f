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
# the command's exit status is returned.
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
    if [ -n "$READER_PID" ]; then kill -TERM "$READER_PID" 2>/dev/null; wait "$READER_PID" 2>/dev/null; fi
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
pulseaudio -n --daemonize=no --exit-idle-time=-1 --disallow-exit --use-pid-file=no \
    --log-target="file:$PA_BASE/pa.log" \
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
exit "$status"
