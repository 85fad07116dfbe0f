#!/usr/bin/env bash
# The Debian package, tried on this machine as a family would use it (docs/packaging.md):
# scripts/make-deb.sh builds it (from STEPPIE_BIN when set: the test command passes its release
# binary), lintian finds no error and no warning that docs/packaging.md does not explain, dpkg -i
# installs it, and from an empty folder with a clean environment `steppie` runs by name from the
# installed files alone: help, init, a child-mode routine, and `steppie serve` with its pages.
# dpkg -r then keeps the user's database, and dpkg --purge leaves none of the package's files.
#
# Needs root (it installs a package) and no steppie already installed (it refuses to replace one).
# Leaves the machine as it was: the package is purged at the end, whatever happened.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
START=$(date +%s)

if [ "$(id -u)" -ne 0 ]; then echo "deb-tests: needs root (it runs dpkg -i)" >&2; exit 1; fi
state=$(dpkg-query -W -f='${db:Status-Status}' steppie 2>/dev/null || true)
if [ -n "$state" ] && [ "$state" != "not-installed" ]; then
    echo "deb-tests: a steppie package is on this machine ($state): not replacing it" >&2; exit 1
fi
for path in /usr/bin/steppie /usr/share/steppie; do
    if [ -e "$path" ]; then echo "deb-tests: $path exists (make install PREFIX=/usr?): not overwriting it" >&2; exit 1; fi
done

T=$(mktemp -d /tmp/steppie-deb-tests.XXXXXX)
SERVE_PID=""
cleanup() {
    if [ -n "$SERVE_PID" ] && kill -0 "$SERVE_PID" 2>/dev/null; then
        kill -TERM "$SERVE_PID" 2>/dev/null
        for _ in $(seq 50); do kill -0 "$SERVE_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVE_PID" 2>/dev/null || true
    fi
    if [ -n "$(dpkg-query -W -f='${db:Status-Status}' steppie 2>/dev/null | grep -v '^not-installed$')" ]; then
        DEBIAN_FRONTEND=noninteractive dpkg --purge steppie >/dev/null 2>&1 || echo "deb-tests: could not purge steppie" >&2
    fi
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

passed=0
failed=0
check() { # check NAME COMMAND...: runs the command, counts and reports it.
    local name=$1; shift
    if "$@" > "$T/check.out" 2>&1; then
        passed=$((passed + 1)); echo "ok   $name"
    else
        failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$T/check.out" | tail -20
    fi
}
# Waits until COMMAND succeeds, polling every 0.1 s, for at most SECONDS.
wait_for() {
    local seconds=$1; shift
    local deadline=$(( $(date +%s%N) + seconds * 1000000000 ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s%N)" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

# 1. Build and lint.
if ! deb=$(DEB_OUT_DIR="$T" scripts/make-deb.sh 2> "$T/make-deb.err" | tail -1) || [ ! -f "$deb" ]; then
    cat "$T/make-deb.err" >&2; echo "deb-tests: scripts/make-deb.sh failed" >&2; exit 1
fi
echo "deb-tests: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) in $(( $(date +%s) - START )) s"
lintian --allow-root --display-info "$deb" > "$T/lintian.txt" 2>&1
lintian_status=$?
sed 's/^/     lintian: /' "$T/lintian.txt"
no_lintian_errors() { [ "$lintian_status" -eq 0 ] && ! grep -q '^E: ' "$T/lintian.txt"; }
check "lintian reports no error" no_lintian_errors
warnings_explained() {
    local tag missing=0
    for tag in $(sed -n 's/^W: steppie: \([a-z0-9+.-]*\).*/\1/p' "$T/lintian.txt" | sort -u); do
        grep -q "\`$tag\`" docs/packaging.md || { echo "warning $tag is not explained in docs/packaging.md"; missing=1; }
    done
    return $missing
}
check "every lintian warning is explained in docs/packaging.md" warnings_explained

# Depends names the package of every library the binary opens on first use, and the voices.
depends=$(dpkg-deb -f "$deb" Depends)
echo "     Depends: $depends"
lazy_libraries_depended() {
    local soname file pkg missing=0
    for soname in $(sed -n 's/.*struct clazy_library LIBRARY = { "\([^"]*\)".*/\1/p' Sources/CLazyLoad/stubs_*.c); do
        file=$(ldconfig -p | awk -v s="$soname" '$1 == s { print $NF; exit }')
        pkg=$(dpkg-query -S "$(readlink -f "$file")" 2>/dev/null | head -1 | cut -d: -f1)
        if [ -z "$pkg" ] || ! grep -Eq "(^|, )$pkg( |,|$)" <<< "$depends"; then
            echo "$soname ($file, package '$pkg') is not in Depends"; missing=1
        fi
    done
    grep -Eq "(^|, )espeak-ng-data(,|$)" <<< "$depends" || { echo "espeak-ng-data is not in Depends"; missing=1; }
    return $missing
}
check "Depends has the libraries opened on first use and espeak-ng-data" lazy_libraries_depended

# 2. Install.
check "dpkg -i" env DEBIAN_FRONTEND=noninteractive dpkg -i "$deb"
dpkg-query -L steppie > "$T/files.txt" 2>/dev/null || true
expected_files() {
    local f
    for f in /usr/bin/steppie /usr/share/steppie/Localization/en/cli.json /usr/share/steppie/Localization/ko/cli.json \
             /usr/share/steppie/Sounds/chime.wav /usr/share/steppie/Pronunciation/ko.json /usr/share/steppie/Web/child.html \
             /usr/share/steppie/Web/icons/bed.svg /usr/lib/systemd/user/steppie.service /usr/lib/systemd/user/steppie-kiosk.service \
             /usr/share/man/man1/steppie.1.gz /usr/share/man/ko/man1/steppie.1.gz \
             /usr/share/doc/steppie/copyright /usr/share/doc/steppie/changelog.Debian.gz; do
        grep -qx "$f" "$T/files.txt" && [ -f "$f" ] || { echo "missing: $f"; return 1; }
    done
    grep -qx 'ExecStart=/usr/bin/steppie serve' /usr/lib/systemd/user/steppie.service
}
check "the package's files are where docs/packaging.md says" expected_files
HOME_DIR="$T/home"; RUN_DIR="$T/run"; WORK="$T/elsewhere"
mkdir -p "$HOME_DIR" "$WORK" && mkdir -m 700 "$RUN_DIR"
# `systemd-analyze --user` wants only a runtime folder, no running user manager.
check "the user unit passes systemd-analyze verify" env XDG_RUNTIME_DIR="$RUN_DIR" systemd-analyze verify --user /usr/lib/systemd/user/steppie.service
binary_links_right() {
    readelf --dyn-syms -W /usr/bin/steppie | grep ' create_audio_device_object$' >/dev/null || { echo "create_audio_device_object is not exported"; return 1; }
    ! readelf -d /usr/bin/steppie | grep -E 'RPATH|RUNPATH' >/dev/null || { echo "a run path is left"; return 1; }
    ! readelf -S -W /usr/bin/steppie | grep ' .symtab ' >/dev/null || { echo "not stripped"; return 1; }
}
check "the installed binary is stripped, has no run path, still exports create_audio_device_object" binary_links_right
man_pages_render() {
    local page
    for page in /usr/share/man/man1/steppie.1.gz /usr/share/man/ko/man1/steppie.1.gz; do
        # As lintian reads them: every groff warning on, UTF-8 input.
        LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2> "$T/man.err" >/dev/null
        [ ! -s "$T/man.err" ] || { echo "$page:"; cat "$T/man.err"; return 1; }
    done
    LC_ALL=C.UTF-8 MANWIDTH=80 man -l -P cat /usr/share/man/ko/man1/steppie.1.gz 2>&1 | grep '사용법' >/dev/null || { echo "the Korean page does not show 사용법"; return 1; }
    LC_ALL=C.UTF-8 MANWIDTH=80 man -l -P cat /usr/share/man/man1/steppie.1.gz 2>&1 | grep 'steppie routine add' >/dev/null || { echo "no 'steppie routine add' on the English page"; return 1; }
}
check "both man pages render without a warning" man_pages_render

# 3. steppie by name, from an empty folder, in a clean environment: only the installed files.
as_user() { (cd "$WORK" && env -i HOME="$HOME_DIR" PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$RUN_DIR" LANG=C.UTF-8 "$@"); }
DB="$HOME_DIR/.local/share/steppie/steppie.db"
check "steppie is found by name: /usr/bin/steppie" bash -c '[ "$(env -i PATH=/usr/bin:/bin sh -c "command -v steppie")" = /usr/bin/steppie ]'
help_runs() { as_user steppie --help --locale en | grep '^Usage: steppie' >/dev/null && as_user steppie --help | grep '사용법:' >/dev/null; }
check "steppie --help (English and the default Korean)" help_runs
check "steppie l10n check on the installed catalogs" as_user steppie l10n check --locale en
init_runs() { as_user steppie init --child Mina --locale en && [ -s "$DB" ]; }
check "steppie init --child Mina creates the user's database" init_runs
printf 'wait 0.1\ndone\nwait 0.1\nquit\n' > "$WORK/keys"
child_runs() {
    as_user steppie child --locale en --output null --events "$T/events.jsonl" --keys-from keys || return 1
    grep -q '"type":"completed"' "$T/events.jsonl" && grep -q '"cue":"announce"' "$T/events.jsonl"
}
check "child mode runs a step (--keys-from, --output null)" child_runs

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
(cd "$WORK" && exec env -i HOME="$HOME_DIR" PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$RUN_DIR" LANG=C.UTF-8 \
    steppie serve --locale en --output null --http "127.0.0.1:$PORT" > "$T/serve.log" 2>&1) &
SERVE_PID=$!
http_get() { # http_get PATH [TEXT]: a 200 for PATH (redirects followed) whose body has TEXT
    python3 - "http://127.0.0.1:$PORT$1" "${2:-}" <<'EOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    body = r.read().decode("utf-8", "replace")
    sys.exit(0 if r.status == 200 and sys.argv[2] in body else 1)
EOF
}
serve_ready() { kill -0 "$SERVE_PID" && http_get / && as_user steppie service status --locale en; }
if wait_for 30 serve_ready; then
    check "steppie serve answers (the pages and the control socket)" true
    check "the kiosk page (GET / → the only child's page)" http_get / 'id="progress-text"'
    style_and_icon() { http_get /static/kiosk.css && http_get /icons/bed.svg '<svg'; }
    check "the page's style and an icon from /usr/share/steppie/Web" style_and_icon
else
    check "steppie serve answers within 30 s" false
    sed 's/^/     serve: /' "$T/serve.log" | tail -20
fi
serve_stops() {
    kill -TERM "$SERVE_PID" || return 1
    serve_gone() { ! kill -0 "$SERVE_PID" 2>/dev/null; }
    wait_for 10 serve_gone || { echo "still running 10 s after SIGTERM"; return 1; }
    wait "$SERVE_PID"; local status=$?
    SERVE_PID=""
    [ "$status" -eq 0 ] || { echo "exit status $status"; cat "$T/serve.log"; return 1; }
}
check "steppie serve stops on SIGTERM with status 0" serve_stops

# 4. Remove keeps the user's data; purge removes every file of the package.
cp "$DB" "$T/db-before-remove"
check "dpkg -r steppie" env DEBIAN_FRONTEND=noninteractive dpkg -r steppie
removed_keeps_data() {
    [ ! -e /usr/bin/steppie ] || { echo "/usr/bin/steppie is still there"; return 1; }
    [ ! -e /usr/share/steppie ] || { echo "/usr/share/steppie is still there"; return 1; }
    cmp -s "$DB" "$T/db-before-remove" || { echo "the user's database changed or went"; return 1; }
}
check "after dpkg -r: the program is gone, the user's database is kept as it was" removed_keeps_data
check "dpkg -i again" env DEBIAN_FRONTEND=noninteractive dpkg -i "$deb"
reinstalled_reads_data() { as_user steppie today --locale en --json | grep Mina >/dev/null; }
check "the database from before is the user's again (steppie today by name)" reinstalled_reads_data
check "dpkg --purge steppie" env DEBIAN_FRONTEND=noninteractive dpkg --purge steppie
purge_leaves_nothing() {
    local path left=0
    [ -s "$T/files.txt" ] || { echo "no file list was captured"; return 1; }
    while IFS= read -r path; do
        [ "$path" = "/." ] && continue
        if [ -d "$path" ] && [ ! -L "$path" ]; then
            # A folder may stay only when another package owns it or it holds other files.
            if [ -z "$(ls -A "$path")" ] && ! dpkg-query -S "$path" >/dev/null 2>&1; then echo "empty folder left: $path"; left=1; fi
        elif [ -e "$path" ] || [ -L "$path" ]; then
            echo "left: $path"; left=1
        fi
    done < "$T/files.txt"
    [ -z "$(dpkg-query -W -f='${db:Status-Status}' steppie 2>/dev/null | grep -v '^not-installed$')" ] || { echo "dpkg still knows steppie"; left=1; }
    [ ! -e /var/lib/dpkg/info/steppie.list ] || { echo "dpkg's file list is left"; left=1; }
    [ -s "$DB" ] || { echo "the user's database went with the purge"; left=1; }
    return $left
}
check "after dpkg --purge: none of the package's $(grep -c . "$T/files.txt") paths is left (the user's data is)" purge_leaves_nothing

echo "deb-tests: $(( $(date +%s) - START )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
