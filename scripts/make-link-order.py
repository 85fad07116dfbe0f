#!/usr/bin/env python3
"""Writes linker/steppie.order: the functions the release `steppie` runs in its everyday
commands, in the order the linker should lay them out (see linker/README.md).

    swift build -c release --static-swift-stdlib --product steppie
    scripts/with-pulse.sh python3 scripts/make-link-order.py

Each scenario runs a copy of .build/release/steppie without its DWARF (valgrind's reader gives up
on the toolchain's debug info; addresses and symbols are unchanged) under `valgrind
--tool=callgrind`, which names every function that ran. The file lists them by scenario (child
mode first: its peak RSS has the tightest target), each scenario's new functions by address.
Symbols the linker does not find later (renamed code) are skipped by it, so a stale file costs
memory, never correctness: rerun this after large changes and compare `make bench`'s RSS rows.
"""

import bisect
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "steppie")
OUT = os.path.join(ROOT, "linker", "steppie.order")


def fail(message):
    print(f"make-link-order: {message}", file=sys.stderr)
    sys.exit(1)


def symbols(binary):
    """(address, size, name) of every function symbol, sorted by address."""
    out = subprocess.run(["nm", "-S", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            found.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    found.sort()
    return found


def functions_run(profile, object_name, table):
    """Names of the functions of `object_name` that ran, from one callgrind output file."""
    addresses = [s[0] for s in table]
    names = {s[2] for s in table}
    objects, functions, current, ran = {}, {}, None, []

    def name(text, known):
        m = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not m:
            return text
        if m.group(2) is not None:
            known[m.group(1)] = m.group(2)
        return known.get(m.group(1))

    with open(profile, errors="replace") as f:
        for line in f:
            if line.startswith("ob="):
                current = name(line[3:].strip(), objects)
            elif line.startswith("cob="):
                name(line[4:].strip(), objects)
            elif line.startswith("cfn="):
                name(line[4:].strip(), functions)
            elif line.startswith("fn="):
                fn = name(line[3:].strip(), functions)
                if not current or os.path.basename(current) != object_name or not fn:
                    continue
                fn = re.sub(r"'\d+$", "", fn)  # callgrind's recursion depth
                if fn.startswith("0x"):  # no symbol at that address: the function holding it
                    a = int(fn, 16)
                    i = bisect.bisect_right(addresses, a) - 1
                    if i < 0 or not (table[i][0] <= a < table[i][0] + max(table[i][1], 1)):
                        continue
                    fn = table[i][2]
                if fn in names:
                    ran.append(fn)
    return ran


class Scenarios:
    def __init__(self, work, binary):
        self.work = work
        self.binary = binary
        self.db = os.path.join(work, "steppie.db")
        self.env = dict(os.environ, TZ="Asia/Seoul", STEPPIE_DATA_DIR=ROOT, STEPPIE_DB=self.db,
                        STEPPIE_SOCKET=os.path.join(work, "control.sock"))
        self.profiles = []

    def valgrind(self, label):
        path = os.path.join(self.work, f"callgrind.{label}")
        self.profiles.append((label, path))
        return ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={path}", self.binary]

    def run(self, label, *args, stdin=None):
        done = subprocess.run(self.valgrind(label) + list(args), env=self.env, input=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)
        if done.returncode != 0:
            fail(f"`steppie {' '.join(args)}` under valgrind exited {done.returncode}:\n{done.stderr[-2000:]}")

    def plain(self, *args):
        done = subprocess.run([BINARY, *args], env=self.env, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            fail(f"`steppie {' '.join(args)}` exited {done.returncode}:\n{done.stderr}")
        return done.stdout

    def child_mode(self):
        keys = os.path.join(self.work, "routine.txt")
        with open(keys, "w") as f:
            f.write("done\nwait 0.3\nundo\nwait 0.3\n" + "done\nwait 0.3\nnext\nwait 0.3\n" * 6 + "wait 0.5\nquit\n")
        self.run("child", "child", "--db", self.db, "--output", "pulse", "--keys-from", keys, "--child", "Mina")

    def service(self):
        port = free_port()
        log_path = os.path.join(self.work, "serve.log")
        with open(log_path, "w") as log:
            proc = subprocess.Popen(self.valgrind("serve") + ["serve", "--output", "pulse", "--http", f"127.0.0.1:{port}",
                                                              "--locale", "en"],
                                    env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            url = None
            end = time.monotonic() + 120
            while time.monotonic() < end and url is None:
                with open(log_path) as f:
                    m = re.findall(r"(http://127\.0\.0\.1:\d+/child/[0-9a-f-]{36})", f.read())
                if m:
                    url = m[-1]
                elif proc.poll() is not None:
                    fail("steppie serve stopped under valgrind:\n" + open(log_path).read()[-2000:])
                else:
                    time.sleep(0.2)
            if url is None:
                fail("steppie serve printed no page address within 120 s")
            base = f"http://127.0.0.1:{port}"
            api = url.replace("/child/", "/api/child/")
            for path in ["/", "/api/children", url[len(base):], "/static/child.js", "/static/kiosk.css", "/icons/star.svg",
                         api[len(base):] + "/state"]:
                try:
                    urllib.request.urlopen(base + path, timeout=60).read()
                except urllib.error.HTTPError as e:
                    fail(f"GET {path}: {e.code}")
            for action in ["done", "undo", "done", "next"]:
                state = json.load(urllib.request.urlopen(api + "/state", timeout=60))
                body = json.dumps({"tapAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                                   "version": state.get("version")}).encode()
                request = urllib.request.Request(api + "/" + action, data=body, method="POST",
                                                 headers={"Content-Type": "application/json", "Origin": base})
                try:
                    urllib.request.urlopen(request, timeout=60).read()
                except urllib.error.HTTPError as e:
                    fail(f"POST {action}: {e.code} {e.read()[:200]!r}")
                time.sleep(1.0)
            self.plain("service", "status")
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def free_port():
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    if not os.access(BINARY, os.X_OK):
        fail("no release build: swift build -c release --static-swift-stdlib --product steppie")
    if "PULSE_SERVER" not in os.environ:
        fail("needs a PulseAudio server: scripts/with-pulse.sh python3 scripts/make-link-order.py")
    for tool in ["valgrind", "objcopy", "nm"]:
        if shutil.which(tool) is None:
            fail(f"{tool} is missing (apt-get install valgrind binutils)")
    work = tempfile.mkdtemp(prefix="steppie-link-order-")
    try:
        copy = os.path.join(work, "steppie")
        subprocess.run(["objcopy", "--strip-debug", BINARY, copy], check=True)
        table = symbols(copy)
        s = Scenarios(work, copy)
        s.plain("init", "--db", s.db, "--child", "Mina")
        s.child_mode()
        s.service()
        s.run("help", "--help")
        s.run("today", "today", "--db", s.db, "--locale", "en")
        s.run("say", "say", "--out", os.path.join(work, "say.wav"), "--locale", "en", "Time to brush your teeth.")
        s.run("history", "history", "--db", s.db, "--child", "Mina", "--locale", "en")
        address = {name: a for a, _, name in table}
        size = {name: n for _, n, name in table}
        listed, lines = set(), []
        for label, path in s.profiles:
            ran = sorted(set(functions_run(path, "steppie", table)) - listed, key=lambda n: address[n])
            listed.update(ran)
            lines.append(f"# {label}: {len(ran)} more functions, {sum(size[n] for n in ran)} bytes")
            lines.extend(ran)
            print(f"{label}: {len(ran)} more functions")
        with open(OUT, "w") as f:
            f.write("# The release steppie's hot functions, for ld.lld --symbol-ordering-file (linker/README.md).\n")
            f.write("# Written by scripts/make-link-order.py; do not edit by hand.\n")
            f.write("\n".join(lines) + "\n")
        print(f"wrote {OUT}: {len(listed)} functions, {sum(size[n] for n in listed)} bytes")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
