#!/usr/bin/env python3
"""Checks that every target in Package.swift declares exactly the targets it imports.

For each target, the names in its `dependencies: [...]` list are compared with the modules its
sources import (`import X`, `@testable import X`, ... in Sources/<target> or Tests/<target>; for
a C target, the headers it includes from another target's include/ folder). It reports every
target that is declared but not imported, and every one imported but not declared; exit 1 then.

Modules of the toolchain (Foundation, Glibc, Synchronization, Testing, ...) are not targets and are
ignored. A dependency needed only to link (no import) is allowed through LINK_ONLY, with the reason.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin",
             "Dispatch", "Synchronization", "Testing", "XCTest", "PackageDescription", "_Concurrency"}

# (target, dependency): why the dependency is declared though the target imports nothing of it.
LINK_ONLY = {
    # CLazyLoad's stubs define the C functions of libraries opened on first use (issue 16): a
    # target that calls GnuTLS, libespeak-ng/libpulse/libsndfile or libzip through its system
    # library module links the stubs instead of the library.
    ("SteppieTLS", "CLazyLoad"): "GnuTLS functions come from CLazyLoad's stubs",
    ("SteppieFeedback", "CLazyLoad"): "libespeak-ng, libpulse and libsndfile functions come from CLazyLoad's stubs",
    ("SteppieBackup", "CLazyLoad"): "libzip functions come from CLazyLoad's stubs",
    ("SteppiePostgres", "CLazyLoad"): "libpq functions come from CLazyLoad's stubs",
}

TARGET_RE = re.compile(r'\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"')
IMPORT_RE = re.compile(r'^\s*(?:@[\w()]+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)',
                       re.M)
MULTILINE_STRING_RE = re.compile(r'(#*)""".*?"""\1', re.S)
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def strip_comments(text):
    """Package.swift without `//` comments (they may mention target names)."""
    return re.sub(r'//[^\n]*', '', text)


def parse_package(text):
    """{target name: (kind, [dependencies], path)} from Package.swift's target declarations."""
    text = strip_comments(text)
    matches = list(TARGET_RE.finditer(text))
    targets = {}
    for i, m in enumerate(matches):
        kind, name = m.group(1), m.group(2)
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end():end]
        deps = []
        d = re.search(r'dependencies:\s*\[(.*?)\]', body, re.S)
        if d:
            deps = re.findall(r'"([^"]+)"', d.group(1))
        p = re.search(r'path:\s*"([^"]+)"', body)
        path = p.group(1) if p else ("Tests/" if kind == "testTarget" else "Sources/") + name
        targets[name] = (kind, deps, path)
    return targets


def files(folder, suffixes):
    for base, _, names in os.walk(os.path.join(ROOT, folder)):
        for n in names:
            if n.endswith(suffixes):
                yield os.path.join(base, n)


def used_modules(name, kind, path, targets):
    """The targets `name` imports (Swift) or includes headers of (C)."""
    used = set()
    for f in files(path, (".swift",)):
        with open(f, encoding="utf-8") as fh:
            # Multi-line string literals may hold other languages' imports (a Python helper).
            used.update(IMPORT_RE.findall(MULTILINE_STRING_RE.sub("", fh.read())))
    if kind == "target":
        headers = {}
        for other, (_, _, opath) in targets.items():
            inc = os.path.join(ROOT, opath, "include")
            if other != name and os.path.isdir(inc):
                for h in os.listdir(inc):
                    headers[h] = other
        for f in files(path, (".c", ".h")):
            with open(f, encoding="utf-8") as fh:
                for h in INCLUDE_RE.findall(fh.read()):
                    if os.path.basename(h) in headers:
                        used.add(headers[os.path.basename(h)])
    return {u for u in used if u not in TOOLCHAIN and u != name}


def main():
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as fh:
        targets = parse_package(fh.read())
    problems = []
    for name, (kind, deps, path) in sorted(targets.items()):
        if kind == "systemLibrary":
            continue
        used = used_modules(name, kind, path, targets)
        for u in sorted(used - set(deps)):
            where = "a target" if u in targets else "not a target of this package"
            problems.append(f"{name}: imports {u} but does not declare it ({where})")
        for d in sorted(set(deps) - used):
            if (name, d) not in LINK_ONLY:
                problems.append(f"{name}: declares {d} but imports nothing of it")
    for t, d in sorted(LINK_ONLY):
        if t in targets and d in used_modules(t, targets[t][0], targets[t][2], targets):
            problems.append(f"LINK_ONLY names {t} -> {d}, but {t} imports it: remove the entry")
    stale = sorted(k for k in LINK_ONLY if k[0] not in targets or k[1] not in targets[k[0]][1])
    for t, d in stale:
        problems.append(f"LINK_ONLY names {t} -> {d}, which Package.swift no longer declares")
    if problems:
        print("check-deps: Package.swift does not match the imports:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    print(f"check-deps: {len(targets)} targets, every dependency imported and every import declared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
