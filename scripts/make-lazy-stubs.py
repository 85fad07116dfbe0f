#!/usr/bin/env python3
"""Writes Sources/CLazyLoad/stubs_<library>.c: one C function per library function the engine
calls, with the library's own prototype, that opens the library on first use (dlopen) and calls
through the pointer it looks up (dlsym).

Why (issue 16): linking libpulse, libespeak-ng, libsndfile, GnuTLS, libsystemd, libmicrohttpd, libzip and libpq
(with OpenSSL's libcrypto) made every command load ~45 shared objects before `main` (about 9.5 ms of CPU here for the C
libraries alone), although most commands speak, serve or encrypt nothing. With these stubs a
command loads a library only when it first calls into it.

The prototypes come from the installed headers through `gcc -aux-info`, so a stub can only be
written for the exact signature the headers declare; the stub files include the same headers,
so the compiler checks every definition against the library's declaration. Run this script
again after calling a new function of one of these libraries (a link error names it):

    python3 scripts/make-lazy-stubs.py

`--check` writes nothing and fails, naming each file, when a checked-in stub differs from what the
installed headers and libraries give now: a library whose SONAME moved (Debian 13 ships libzip.so.5)
or a prototype that changed is found by the test command in a second, not at run time.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "CLazyLoad")

# library link name → (headers, symbol prefixes searched for in the sources)
LIBRARIES = {
    "espeak-ng": (["espeak-ng/speak_lib.h"], ["espeak_"]),
    "pulse": (["pulse/pulseaudio.h"], ["pa_"]),
    "sndfile": (["sndfile.h"], ["sf_"]),
    "gnutls": (["gnutls/gnutls.h", "gnutls/x509.h", "gnutls/crypto.h"], ["gnutls_"]),
    "systemd": (["systemd/sd-daemon.h"], ["sd_"]),
    "microhttpd": (["microhttpd.h"], ["MHD_"]),
    "zip": (["zip.h"], ["zip_"]),
    # libpq brings libldap, Kerberos and GnuTLS with it: only `steppie hub` needs it (issue 28).
    "pq": (["postgresql/libpq-fe.h"], ["PQ"]),
}
# Called only from our own C (CHTTP) through looked-up pointers: variadic, so no stub is written.
VARIADIC_FROM_C = {"MHD_start_daemon", "MHD_get_daemon_info", "MHD_get_connection_info"}
# Looked up by name in our own C, so they are in no stub but in the library's table of names:
# those variadic calls (CHTTP) and GnuTLS's `gnutls_free`, a variable holding a function pointer (clazy.c).
LOOKED_UP_IN_C = {"microhttpd": sorted(VARIADIC_FROM_C), "gnutls": ["gnutls_free"]}


def soname(lib):
    path = subprocess.run(["gcc", "-print-file-name=lib%s.so" % lib], capture_output=True, text=True, check=True).stdout.strip()
    real = os.path.realpath(path)
    out = subprocess.run(["readelf", "-d", real], capture_output=True, text=True, check=True).stdout
    m = re.search(r"SONAME.*\[(.+)\]", out)
    if not m:
        sys.exit("no SONAME in %s" % real)
    return m.group(1)


def used_functions(prefixes):
    names = set()
    pattern = re.compile(r"\b((?:%s)[A-Za-z0-9_]+)\s*[({]" % "|".join(map(re.escape, prefixes)))
    for base, _, files in os.walk(os.path.join(ROOT, "Sources")):
        if os.path.relpath(base, ROOT).startswith(os.path.join("Sources", "CLazyLoad")):
            continue
        for name in files:
            if name.endswith((".swift", ".c", ".h")):
                with open(os.path.join(base, name), encoding="utf-8") as f:
                    names.update(pattern.findall(f.read()))
    return names


def prototypes(headers):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "p.c")
        with open(src, "w") as f:
            f.write("".join("#include <%s>\n" % h for h in headers))
        aux = os.path.join(tmp, "aux.txt")
        subprocess.run(["gcc", "-aux-info", aux, "-c", src, "-o", os.path.join(tmp, "p.o")], check=True)
        found = {}
        for line in open(aux):
            m = re.match(r"/\*.*?\*/\s*extern\s+(.*?)\s*\b([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\);\s*$", line)
            if m:
                found[m.group(2)] = (m.group(1), m.group(3))
        return found


def split_params(text):
    depth, cur, out = 0, "", []
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return [] if out == ["void"] else out


def stub(name, ret, params):
    types = split_params(params)
    if "..." in types:
        sys.exit("%s is variadic: call it from C through clazy_symbol" % name)
    def named(t, i):
        # A function pointer is named inside its first `(*)`: `int (*a0)(short *, int)`.
        if "(*)" in t:
            return t.replace("(*)", "(*a%d)" % i, 1)
        if "(" in t or "[" in t:
            sys.exit("%s has a parameter type this script cannot name: %s" % (name, params))
        return "%s a%d" % (t, i)
    args = ", ".join(named(t, i) for i, t in enumerate(types)) or "void"
    call = ", ".join("a%d" % i for i in range(len(types)))
    ret = ret.replace("extern", "").strip()
    returns = "" if ret == "void" else "return "
    # `ret name(` with the pointer star attached to the name as the prototype had it.
    star = ""
    while ret.endswith("*"):
        star += "*"
        ret = ret[:-1].rstrip()
    return (
        "%s %s%s(%s) {\n"
        "    static __typeof__(%s) *_Atomic fn;\n"
        "    __typeof__(%s) *f = fn;\n"
        "    if (!f) { f = (__typeof__(%s) *)clazy_symbol(&LIBRARY, \"%s\"); fn = f; }\n"
        "    %sf(%s);\n"
        "}\n" % (ret, star, name, args, name, name, name, name, returns, call)
    )


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    os.makedirs(OUT, exist_ok=True)
    for lib, (headers, prefixes) in LIBRARIES.items():
        used = sorted(used_functions(prefixes) - VARIADIC_FROM_C)
        protos = prototypes(headers)
        known = [n for n in used if n in protos]
        so = soname(lib)
        ident = lib.replace("-", "_")
        lines = [
            "// Generated by scripts/make-lazy-stubs.py: do not edit. %s opened on first use." % so,
            "#include \"clazy.h\"",
        ]
        lines += ["#include <%s>" % h for h in headers]
        # Every name the engine looks up in this library, stubs and our own C alike: `steppie serve`
        # resolves them all before it reports ready (clazy_check_all), so none can fail later.
        symbols = sorted(set(known) | set(LOOKED_UP_IN_C.get(lib, [])))
        lines += ["", "static const char *const SYMBOLS[] = {"]
        lines += ["    \"%s\"," % n for n in symbols]
        lines += ["    NULL,", "};"]
        lines += ["", "static struct clazy_library LIBRARY = { \"%s\", NULL, SYMBOLS };" % so]
        lines += ["struct clazy_library *clazy_%s(void) { return &LIBRARY; }" % ident, ""]
        lines += [stub(n, *protos[n]) for n in known]
        path = os.path.join(OUT, "stubs_%s.c" % ident)
        text = "\n".join(lines)
        if check:
            with open(path) as f:
                if f.read() != text:
                    stale.append("%s (installed: %s)" % (os.path.relpath(path, ROOT), so))
            continue
        with open(path, "w") as f:
            f.write(text)
        print("%s: %d functions (%s)" % (path, len(known), so))
    if check:
        if stale:
            sys.exit("make-lazy-stubs: stale, run python3 scripts/make-lazy-stubs.py: " + ", ".join(stale))
        print("make-lazy-stubs: %d stubs match the installed headers and sonames" % len(LIBRARIES))


if __name__ == "__main__":
    main()
