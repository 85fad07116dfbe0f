#!/usr/bin/env python3
"""Checks Web/icons/ against the builtin icon table (Python standard library only).

For every name in Sources/SteppieCore/Seed/BuiltinIcons.swift there must be Web/icons/<name>.svg
that parses as XML, is an <svg> with viewBox "0 0 64 64" and no width/height, has a <title>
with the English label, has no <text>, <image>, <script>, <foreignObject>, <style> or gradient,
refers to nothing outside itself (no href but "#...", no url(...)), paints only with the calm
palette and stays under 2 KB. No SVG may exist for a name the table does not know. Prints a summary; exits 1 on any problem.

    python3 scripts/check-icons.py [repository root]
"""
import os
import re
import sys
import xml.etree.ElementTree as ET

SVG_NS = "http://www.w3.org/2000/svg"
MAX_BYTES = 2048

# The contract's card palette, white, a soft grey and the dark outline colour.
PALETTE = {
    "#334155",  # outline
    "#7CC4F5",  # sky
    "#8FD9B6",  # mint
    "#F7DC6F",  # lemon
    "#F8B88B",  # peach
    "#C3B1E1",  # lavender
    "#F4A6B8",  # rose
    "#FFFFFF",  # white
    "#CBD5E1",  # soft grey
}
KEYWORDS = {"none", "currentcolor"}
PAINT_ATTRS = {"fill", "stroke", "color", "stop-color", "flood-color", "lighting-color"}
FORBIDDEN = {"text", "tspan", "textPath", "image", "script", "foreignObject", "style",
             "linearGradient", "radialGradient", "pattern", "feImage", "use", "iframe", "a"}


def local(tag):
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def table_names(root):
    path = os.path.join(root, "Sources", "SteppieCore", "Seed", "BuiltinIcons.swift")
    src = open(path, encoding="utf-8").read()
    start = src.find("table: [(String, String, String)] = [")
    if start < 0:
        sys.exit(f"check-icons: no icon table found in {path}")
    body = src[start:src.index("\n    ]", start)]
    return re.findall(r'\(\s*"([^"]+)"\s*,\s*"[^"]*"\s*,\s*"([^"]*)"\s*\)', body)


def check_paint(value, where, problems):
    v = value.strip()
    if v.lower() in KEYWORDS:
        return
    if re.fullmatch(r"#[0-9A-Fa-f]{6}", v):
        if v.upper() not in PALETTE:
            problems.append(f"{where}: colour {v} is not in the palette")
        return
    if re.fullmatch(r"#[0-9A-Fa-f]{3}", v):
        long = "#" + "".join(c * 2 for c in v[1:])
        if long.upper() not in PALETTE:
            problems.append(f"{where}: colour {v} is not in the palette")
        return
    problems.append(f"{where}: paint {v!r} is not a palette hex colour, 'none' or 'currentColor'")


def check_file(path, name, label):
    problems = []
    size = os.path.getsize(path)
    if size > MAX_BYTES:
        problems.append(f"{name}: {size} bytes (more than {MAX_BYTES})")
    try:
        tree = ET.parse(path)
    except ET.ParseError as e:
        return [f"{name}: not valid XML ({e})"]
    svg = tree.getroot()
    if svg.tag != f"{{{SVG_NS}}}svg":
        problems.append(f"{name}: root is {svg.tag}, not an SVG <svg> element")
    if " ".join(svg.get("viewBox", "").replace(",", " ").split()) != "0 0 64 64":
        problems.append(f"{name}: viewBox is {svg.get('viewBox')!r}, not '0 0 64 64'")
    for attr in ("width", "height"):
        if svg.get(attr) is not None:
            problems.append(f"{name}: has a {attr} attribute (the page sizes icons)")
    titles = [el for el in svg if local(el.tag) == "title"]
    if not titles or not (titles[0].text or "").strip():
        problems.append(f"{name}: no <title> with a label")
    elif titles[0].text.strip() != label:
        problems.append(f"{name}: <title> is {titles[0].text.strip()!r}, not the English label {label!r}")
    for el in svg.iter():
        tag = local(el.tag)
        if tag in FORBIDDEN:
            problems.append(f"{name}: has a <{tag}> element")
        for key, value in el.attrib.items():
            attr = local(key)
            where = f"{name}: <{tag} {attr}>"
            if attr == "href" and not value.startswith("#"):
                problems.append(f"{where}: external reference {value!r}")
            if "url(" in value.replace(" ", "").lower():
                problems.append(f"{where}: url() reference {value!r}")
            if attr.lower().startswith("on"):
                problems.append(f"{where}: event handler")
            if attr in PAINT_ATTRS:
                check_paint(value, where, problems)
            if attr == "style":
                for decl in value.split(";"):
                    if ":" in decl:
                        prop, val = (s.strip() for s in decl.split(":", 1))
                        if prop in PAINT_ATTRS:
                            check_paint(val, f"{where} {prop}", problems)
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    icons = os.path.join(root, "Web", "icons")
    table = table_names(root)
    names = [n for n, _ in table]
    problems = []
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        problems.append(f"table: duplicate names {', '.join(dupes)}")
    ok = 0
    for name, label in table:
        path = os.path.join(icons, name + ".svg")
        if not os.path.isfile(path):
            problems.append(f"{name}: missing {os.path.relpath(path, root)}")
            continue
        found = check_file(path, name, label)
        problems += found
        ok += not found
    known = set(names)
    present = sorted(f for f in os.listdir(icons) if f.lower().endswith(".svg")) if os.path.isdir(icons) else []
    extra = [f for f in present if f[:-4] not in known]
    for f in extra:
        problems.append(f"{f}: no builtin icon has this name")
    for p in problems:
        print("PROBLEM", p)
    print(f"check-icons: {len(names)} names in the table, {len(present)} SVG files, "
          f"{ok} icons pass, {len(extra)} extra, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
