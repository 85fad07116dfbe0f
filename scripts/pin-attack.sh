#!/usr/bin/env bash
# Two processes guess wrong PINs at the same time for WINDOW seconds (default 60) against one
# database, with the real clock, and the script prints how many attempts were actually checked
# (the rest were refused by the stored backoff without checking the PIN). Target: at most 8 in 60 s.
#
#   scripts/pin-attack.sh              # the real 60 s measurement
#   WINDOW=5 scripts/pin-attack.sh     # a short run (used by GuardianProcessTests)
#
# The guesses go through standard input (--pin-stdin), never through arguments.
set -euo pipefail
BIN=${STEPPIE_BIN:-$(dirname "$0")/../.build/debug/steppie}
WINDOW=${WINDOW:-60}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
DB=$DIR/attack.db
"$BIN" init --child Mina --db "$DB" --locale en >/dev/null
printf '8361\n' | "$BIN" guardian set-pin --pin-stdin --db "$DB" --locale en >/dev/null

end=$(( $(date +%s) + WINDOW ))
attacker() {
    local checked=0 refused=0 pin out
    while [ "$(date +%s)" -lt "$end" ]; do
        pin=$(printf '%04d' $(( RANDOM % 10000 )))
        [ "$pin" = 8361 ] && continue
        out=$(printf '%s\n' "$pin" | "$BIN" guardian unlock --pin-stdin --db "$DB" --locale en 2>&1 || true)
        case "$out" in
            *"not right"*) checked=$((checked + 1)) ;;
            *) refused=$((refused + 1)) ;;
        esac
    done
    echo "$checked $refused" > "$DIR/count-$1"
}
attacker A & attacker B & wait
read -r a ra < "$DIR/count-A"
read -r b rb < "$DIR/count-B"
stored=$(sqlite3 "$DB" 'SELECT failed_pin_attempts FROM device_settings')
echo "checked attempts in ${WINDOW} s: $((a + b)) (process A $a, process B $b; refused unchecked $((ra + rb)); failed_pin_attempts in the database: $stored)"
