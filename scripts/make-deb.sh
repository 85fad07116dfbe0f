#!/usr/bin/env bash
# Builds the Debian package steppie_<version>_<arch>.deb from the release binary (docs/packaging.md):
# /usr/bin/steppie, its data in /usr/share/steppie, the systemd user units, the man pages (English
# and Korean, written by the binary from its command tree) and the copyright and changelog, with
# Depends computed by dpkg-shlibdeps from the libraries the binary links and the ones it opens on
# first use (Sources/CLazyLoad/stubs_*.c). Nothing here names an architecture: the same script
# builds the arm64 package on an arm64 Debian or Raspberry Pi OS machine.
#
#   STEPPIE_BIN=PATH   package this binary instead of building a release (the tests reuse theirs)
#   DEB_OUT_DIR=DIR    where the .deb goes (default: the repository's top folder)
#   DEB_REVISION=N     the Debian revision (default 1): version <SteppieVersion.current>-N
#   DEB_MAINTAINER=..  the Maintainer field
# Prints the path of the package on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

for tool in dpkg-deb dpkg-shlibdeps chrpath strip gzip "${CC:-cc}"; do
    command -v "$tool" >/dev/null || { echo "make-deb: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
done

BIN=${STEPPIE_BIN:-}
if [ -z "$BIN" ]; then
    swift build -c release --product steppie --static-swift-stdlib
    BIN="$ROOT/.build/release/steppie"
fi
[ -x "$BIN" ] || { echo "make-deb: no binary at $BIN" >&2; exit 1; }

# The one version source is SteppieVersion.current; the binary reports the one it was built with,
# so a stale STEPPIE_BIN is refused rather than packaged under the wrong version.
source_version=$(sed -n 's/^ *public static let current = "\(.*\)"$/\1/p' Sources/SteppieCLI/Support/Version.swift)
binary_version=$(STEPPIE_DATA_DIR="$ROOT" "$BIN" __version)
if [ -z "$source_version" ] || [ "$source_version" != "$binary_version" ]; then
    echo "make-deb: $BIN reports version '$binary_version', the sources say '$source_version': rebuild it" >&2
    exit 1
fi
VERSION="$source_version-${DEB_REVISION:-1}"
ARCH=$(dpkg --print-architecture)
MAINTAINER=${DEB_MAINTAINER:-"Steppie maintainers <maintainers@steppie.example>"}
# Dates from the last commit (or SOURCE_DATE_EPOCH), so two builds of one commit are the same.
EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH=$EPOCH
DAY=$(date -u -d "@$EPOCH" +%Y-%m-%d)
OUT_DIR=${DEB_OUT_DIR:-$ROOT}
DEB="$OUT_DIR/steppie_${VERSION}_${ARCH}.deb"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The layout dpkg-shlibdeps expects: debian/control, the package's tree in debian/steppie.
PKG="$WORK/debian/steppie"
umask 022
install -d "$PKG/DEBIAN" "$PKG/usr/bin" "$PKG/usr/share/steppie" "$PKG/usr/lib/systemd/user" \
    "$PKG/usr/share/doc/steppie" "$PKG/usr/share/man/man1" "$PKG/usr/share/man/ko/man1"

# The binary, without its static symbol table (the dynamic one stays: libespeak-ng binds to the
# exported create_audio_device_object) and without the $ORIGIN run path the Swift driver adds
# (the Swift runtime is linked in; nothing is loaded from beside the binary).
install -m 755 "$BIN" "$PKG/usr/bin/steppie"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$PKG/usr/bin/steppie"
chrpath -d "$PKG/usr/bin/steppie" >/dev/null

# The data, as `make install` lays it out.
cp -r Localization Sounds Pronunciation "$PKG/usr/share/steppie/"
install -d "$PKG/usr/share/steppie/Web"
cp Web/*.html Web/*.css Web/*.js "$PKG/usr/share/steppie/Web/"
cp -r Web/icons "$PKG/usr/share/steppie/Web/"

# The systemd user units, run by each user's manager (none is enabled by the package).
sed 's|^ExecStart=.*|ExecStart=/usr/bin/steppie serve|' contrib/systemd/steppie.service > "$PKG/usr/lib/systemd/user/steppie.service"
cp contrib/systemd/steppie-kiosk.service "$PKG/usr/lib/systemd/user/"

# The man pages, from the command tree and the catalogs of this checkout.
for locale in en ko; do
    dir="$PKG/usr/share/man/man1"
    [ "$locale" = en ] || dir="$PKG/usr/share/man/$locale/man1"
    STEPPIE_DATA_DIR="$ROOT" "$BIN" __man --locale "$locale" --date "$DAY" --prefix /usr > "$dir/steppie.1"
    gzip -9n "$dir/steppie.1"
done

# The copyright (machine-readable) and the Debian changelog.
cp contrib/debian/copyright "$PKG/usr/share/doc/steppie/copyright"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
{
    echo "steppie ($VERSION) bookworm; urgency=medium"
    echo
    echo "  * Built from commit $commit of the Steppie repository (docs/packaging.md)."
    echo
    echo " -- $MAINTAINER  $(date -u -R -d "@$EPOCH")"
} > "$WORK/changelog.Debian"
gzip -9nc "$WORK/changelog.Debian" > "$PKG/usr/share/doc/steppie/changelog.Debian.gz"

find "$PKG" -type d -exec chmod 755 {} +
find "$PKG/usr/share" "$PKG/usr/lib" -type f -exec chmod 644 {} +
find "$PKG" -exec touch -h -d "@$EPOCH" {} +

# Depends. dpkg-shlibdeps reads the binary's NEEDED libraries and the symbols it takes from each;
# the libraries opened on first use are not NEEDED, so a small object is linked against each
# stub's soname with a reference to every symbol that stub loads (--no-undefined: a symbol gone
# from the installed library stops the build), and dpkg-shlibdeps reads that object too.
probe="$WORK/lazy-probe"
install -d "$probe"
python3 - "$probe/lazy.c" "$probe/sonames" Sources/CLazyLoad/stubs_*.c <<'EOF'
import re, sys
out, sonames, stubs = sys.argv[1], sys.argv[2], sys.argv[3:]
symbols, libs = [], []
for path in stubs:
    text = open(path).read()
    soname = re.search(r'struct clazy_library LIBRARY = \{ "([^"]+)"', text)
    table = re.search(r'SYMBOLS\[\] = \{(.*?)NULL', text, re.S)
    if not soname or not table:
        sys.exit(f"make-deb: {path}: no soname or symbol table")
    libs.append(soname.group(1))
    symbols += re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', table.group(1))
with open(out, "w") as f:
    f.write("// Every symbol Steppie opens on first use, for dpkg-shlibdeps.\n")
    f.writelines(f"extern char {s}[];\n" for s in symbols)
    f.write("void *const steppie_lazy_symbols[] = {\n" + "".join(f"    {s},\n" for s in symbols) + "};\n")
open(sonames, "w").write("\n".join(libs) + "\n")
EOF
mapfile -t lazy_sonames < "$probe/sonames"
# It sits in the package's tree while dpkg-shlibdeps reads it, and is gone before the package is built.
"${CC:-cc}" -shared -fPIC -o "$PKG/lazy-probe.so" "$probe/lazy.c" -Wl,--no-undefined -Wl,--no-as-needed \
    $(printf -- '-l:%s ' "${lazy_sonames[@]}")
printf 'Source: steppie\n\nPackage: steppie\nArchitecture: any\n' > "$WORK/debian/control"
shlibs=$(cd "$WORK" && dpkg-shlibdeps -O -xsteppie debian/steppie/usr/bin/steppie debian/steppie/lazy-probe.so) || {
    echo "make-deb: dpkg-shlibdeps failed" >&2; exit 1; }
rm "$PKG/lazy-probe.so"
shlib_depends=${shlibs#shlibs:Depends=}
# Data the libraries read at run time: espeak-ng's voices and dictionaries, the zone database
# (TZ names are checked against it).
DEPENDS="$shlib_depends, espeak-ng-data, tzdata"

installed_size=$(du -sk --exclude=DEBIAN "$PKG" | cut -f1)
cat > "$PKG/DEBIAN/control" <<EOF
Package: steppie
Version: $VERSION
Architecture: $ARCH
Maintainer: $MAINTAINER
Installed-Size: $installed_size
Depends: $DEPENDS
Recommends: pulseaudio | pipewire-pulse
Suggests: cage, chromium
Section: misc
Priority: optional
Description: guides children through daily routines with speech and sounds
 Steppie guides children with autism or developmental disabilities through
 their daily routines (wake up, wash face, brush teeth, and so on). The child
 presses once to say done; Steppie answers at once with gentle speech, a
 sound and a haptic stand-in shaped by that child's feedback profile, leaves
 a few seconds to undo, then says what comes next.
 .
 This package holds the steppie command, its data (Korean and English
 catalogs, sounds, pronunciation lexicons, the child's touch page and the
 guardian pages) and systemd user units for the always-on service
 (steppie serve) and a kiosk screen (cage and Chromium, suggested).
EOF
(cd "$PKG" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$PKG/DEBIAN/control" "$PKG/DEBIAN/md5sums"

install -d "$OUT_DIR"
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$DEB" >/dev/null
echo "$DEB"
