#!/usr/bin/env bash
# Installs the Debian packages Steppie builds, runs and tests with, when they are missing.
# Checks with pkg-config and `command -v` first, so a ready machine is not touched.
set -eu

need_pkgs=()
pc() { pkg-config --exists "$1" 2>/dev/null || need_pkgs+=("$2"); }
cmd() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }

cmd pkg-config pkg-config
pc sqlite3 libsqlite3-dev
pc espeak-ng libespeak-ng-dev
pc libpulse libpulse-dev
pc sndfile libsndfile1-dev
pc libsodium libsodium-dev
pc nettle nettle-dev
pc libzip libzip-dev
pc libsystemd libsystemd-dev
pc libmicrohttpd libmicrohttpd-dev
# HTTPS for the guardian pages on the home network (libmicrohttpd-dev on Debian is built with it).
pc gnutls libgnutls28-dev
# The centre's hub on PostgreSQL (issue 28): libpq to build, the server for the tests' private
# cluster (scripts/with-postgres.sh runs Debian's /usr/lib/postgresql/15/bin).
pc libpq libpq-dev
[ -x /usr/lib/postgresql/15/bin/initdb ] || need_pkgs+=(postgresql)
cmd sqlite3 sqlite3
cmd espeak-ng espeak-ng
cmd pulseaudio pulseaudio
cmd pactl pulseaudio-utils
cmd sox sox
cmd tmux tmux
cmd unzip unzip
# Tests read the guardian pages' certificate back with another implementation (TLSIdentityTests).
cmd openssl openssl
cmd python3 python3
# The kiosk: the systemd unit test verifies a unit that starts cage with Chromium.
cmd cage cage
cmd chromium chromium
cmd make make
# ReleaseBinaryTests read the release binary's layout with nm and readelf.
cmd nm binutils
cmd readelf binutils
cmd systemd-analyze systemd
# The Debian package (scripts/make-deb.sh, docs/packaging.md) and its test (scripts/deb-tests.sh).
cmd dpkg-deb dpkg
cmd dpkg-shlibdeps dpkg-dev
cmd chrpath chrpath
cmd strip binutils
cmd cc gcc
cmd lintian lintian
cmd groff groff-base
[ -d /usr/share/espeak-ng-data ] || [ -d /usr/lib/x86_64-linux-gnu/espeak-ng-data ] || need_pkgs+=(espeak-ng-data)

if [ "${#need_pkgs[@]}" -eq 0 ]; then
    exit 0
fi
# De-duplicate.
mapfile -t need_pkgs < <(printf '%s\n' "${need_pkgs[@]}" | sort -u)
echo "steppie: installing Debian packages: ${need_pkgs[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
