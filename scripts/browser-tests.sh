#!/usr/bin/env bash
# The child's kiosk page in a real browser (issue 13): headless Chromium driven by Selenium
# against a real `steppie serve`, with sound to a private PulseAudio null sink.
#
#   scripts/browser-tests.sh                 # every browser test
#   scripts/browser-tests.sh -k keyboard     # extra arguments go to pytest
#
# Installs what is missing: Debian's chromium and chromium-driver (and a Korean font for the
# screenshots), then a virtual environment in .build/browser-venv with the pinned packages of
# Tests/browser/requirements.txt (selenium, axe-selenium-python); pip runs only when the venv is
# missing or the requirements changed. Screenshots are kept in .build/browser-artifacts.
# The exit status is the tests' status.
set -eu
cd "$(dirname "$0")/.."

need_pkgs=()
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
[ -x /usr/bin/chromedriver ] || need_pkgs+=(chromium-driver)
command -v fc-list >/dev/null 2>&1 && fc-list :lang=ko | grep -q . || need_pkgs+=(fonts-noto-cjk fontconfig)
command -v parec >/dev/null 2>&1 || need_pkgs+=(pulseaudio-utils)
command -v pulseaudio >/dev/null 2>&1 || need_pkgs+=(pulseaudio)
command -v python3 >/dev/null 2>&1 || need_pkgs+=(python3)
if command -v python3 >/dev/null 2>&1 && ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    need_pkgs+=(python3-venv)
fi
if [ "${#need_pkgs[@]}" -gt 0 ]; then
    echo "browser-tests: installing Debian packages: ${need_pkgs[*]}" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

if [ ! -x .build/debug/steppie ]; then
    swift build --product steppie
fi

VENV=.build/browser-venv
REQS=Tests/browser/requirements.txt
want=$(sha256sum "$REQS" | cut -d' ' -f1)
have=$(cat "$VENV/.requirements.sha256" 2>/dev/null || true)
if [ ! -x "$VENV/bin/python" ] || [ "$want" != "$have" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQS"
    echo "$want" > "$VENV/.requirements.sha256"
fi

mkdir -p .build/browser-artifacts
export PYTHONDONTWRITEBYTECODE=1 SE_OFFLINE=true  # chromedriver is Debian's: Selenium Manager fetches nothing
exec scripts/with-pulse.sh "$VENV/bin/python" -m pytest Tests/browser -q -rA -p no:cacheprovider "$@"
