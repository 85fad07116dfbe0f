#!/usr/bin/env bash
# Sourced by scripts/browser-tests.sh and scripts/bench.sh: installs what the browser tests need
# (Debian's chromium and chromium-driver, a Korean font, parec, poppler-utils for the printed
# pages' PDFs, python3-venv) and the virtual
# environment in .build/browser-venv with the pinned packages of Tests/browser/requirements.txt
# (and, without their dependencies, those of requirements-nodeps.txt: axe-core's script)
# (pip runs only when the venv is missing or the requirements changed). Sets VENV.
need_pkgs=()
command -v chromium >/dev/null 2>&1 || need_pkgs+=(chromium)
[ -x /usr/bin/chromedriver ] || need_pkgs+=(chromium-driver)
command -v fc-list >/dev/null 2>&1 && fc-list :lang=ko | grep -q . || need_pkgs+=(fonts-noto-cjk fontconfig)
command -v parec >/dev/null 2>&1 || need_pkgs+=(pulseaudio-utils)
command -v pulseaudio >/dev/null 2>&1 || need_pkgs+=(pulseaudio)
command -v pdftoppm >/dev/null 2>&1 && command -v pdftotext >/dev/null 2>&1 || need_pkgs+=(poppler-utils)
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

VENV=.build/browser-venv
REQS=Tests/browser/requirements.txt
NODEPS=Tests/browser/requirements-nodeps.txt
want=$(cat "$REQS" "$NODEPS" | sha256sum | cut -d' ' -f1)
have=$(cat "$VENV/.requirements.sha256" 2>/dev/null || true)
if [ ! -x "$VENV/bin/python" ] || [ "$want" != "$have" ]; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQS"
    "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps -r "$NODEPS"
    echo "$want" > "$VENV/.requirements.sha256"
fi

