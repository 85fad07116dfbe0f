#!/usr/bin/env python3
"""Checks that linker/steppie.order still names the release binary's functions (a `make bench`
step, scripts/bench.sh; see linker/README.md).

    scripts/check-link-order.py PATH/TO/release/steppie

lld skips the symbols of the order file that the binary no longer has (renamed code changes
mangled names), so a stale file silently costs child mode memory, never correctness. This prints
the share of listed functions present and of child mode's, appends them to the bench table
(`STEPPIE_BENCH_ROWS`) and exits 1 when fewer than 75 % are present or fewer than 1,000 of child
mode's are found: then rerun scripts/make-link-order.py. (The tests check the layout itself:
Tests/SteppieCLITests/ReleaseBinaryTests.swift.)
"""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORDER = os.path.join(ROOT, "linker", "steppie.order")
MIN_SHARE = 0.75
MIN_CHILD = 1000


def groups(path):
    """[(label, [symbol])] in file order; `# child: …` starts the child-mode group."""
    result = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith("# ") and ":" in line:
                label = line[2:line.index(":")]
                if " " not in label:
                    result.append((label, []))
            elif line and not line.startswith("#") and result:
                result[-1][1].append(line)
    return result


def functions(binary):
    """The names of the binary's defined function symbols, from `nm`."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.split("\n"):
        parts = line.split(" ")
        if len(parts) == 4 and parts[2] in "tTwW":
            names.add(parts[3])
    return names


def publish(rows):
    path = os.environ.get("STEPPIE_BENCH_ROWS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            for row in rows:
                f.write("\t".join(row) + "\n")


def main():
    if len(sys.argv) != 2:
        print("usage: check-link-order.py RELEASE-BINARY", file=sys.stderr)
        return 64
    binary = sys.argv[1]
    listed_groups = groups(ORDER)
    child = next((symbols for label, symbols in listed_groups if label == "child"), [])
    listed = [s for _, symbols in listed_groups for s in symbols]
    table = functions(binary)
    present = sum(1 for s in listed if s in table)
    child_present = sum(1 for s in child if s in table)
    share = present / max(len(listed), 1)
    print(f"\n## Link order (linker/steppie.order against {os.path.relpath(binary, ROOT)})\n")
    print(f"listed functions present in the binary: {present} of {len(listed)} ({share * 100:.1f} %, bound {MIN_SHARE * 100:.0f} %)")
    print(f"child mode's listed functions present: {child_present} of {len(child)} (bound {MIN_CHILD})")
    publish([
        ["link order", "listed functions present in the release binary", f"{share * 100:.1f} %", "-", f"≥ {MIN_SHARE * 100:.0f} %",
         "-", "-", "-"],
        ["link order", "child mode's listed functions present", str(child_present), "-", f"> {MIN_CHILD}", "-", "-", "-"],
    ])
    if share < MIN_SHARE or child_present <= MIN_CHILD:
        print(f"check-link-order: linker/steppie.order is stale ({present} of {len(listed)} present, {child_present} of child mode's):"
              " run scripts/make-link-order.py (linker/README.md)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
