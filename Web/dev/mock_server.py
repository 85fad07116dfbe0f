#!/usr/bin/env python3
"""A stand-in for `steppie serve`'s HTTP side, to look at the child's kiosk page without the service.

Python 3 standard library only. It serves the page under the service's URLs and fakes the API
with an in-memory morning routine of 6 items for two children (Mina, ko; Sam, en):

  GET  /                         index.html (redirects to the child when there is one)
  GET  /child/<id>               child.html
  GET  /static/<file>            kiosk.css, child.js, index.js
  GET  /icons/<name>.svg         Web/icons/<name>.svg when drawn, else a plain placeholder shape
  GET  /api/children
  GET  /api/child/<id>/state
  GET  /api/child/<id>/events    Server-Sent Events: `state` on connect and on every change
  POST /api/child/<id>/done|undo|next   {"tapAt", "version"} -> 200 state | 409 {"error"}

Development only, to set a scene for screenshots (never part of the service):
  GET /dev/scene?child=mina&completed=2&undo=1&undoSeconds=60&intensity=strong&waiting=07:30&empty=1
  GET /dev/drop?seconds=5        close every event stream and refuse the API for a while

Usage: python3 Web/dev/mock_server.py [--port 8471] [--one-child]
"""

import argparse
import json
import os
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

WEB = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ROUTINE = [
    ("wake_up", "일어나기", "Wake up", "alarm", "알람 시계", "Alarm clock", "sky"),
    ("wash_face", "세수하기", "Wash face", "face-wash", "세수", "Face wash", "mint"),
    ("brush_teeth", "양치하기", "Brush teeth", "toothbrush", "칫솔", "Toothbrush", "lemon"),
    ("get_dressed", "옷 입기", "Get dressed", "shirt", "셔츠", "Shirt", "peach"),
    ("eat_breakfast", "아침 먹기", "Eat breakfast", "breakfast", "아침밥", "Breakfast", "lavender"),
    ("pack_bag", "가방 챙기기", "Pack bag", "backpack", "가방", "Backpack", "rose"),
]

LABELS = {
    "ko": {
        "done": "다 했어요", "undo": "되돌리기", "next": "다음",
        "allDone": "오늘 할 일을 모두 끝냈어요. 정말 잘했어요!",
        "waiting": "조금만 기다려요. {time}에 시작해요", "empty": "오늘은 할 일이 없어요",
        "reconnecting": "다시 연결하고 있어요", "progress": "{completed} / {total}",
        "doneHint": "다 했으면 카드를 눌러요", "list": "오늘의 순서", "switchChild": "다른 아이로 바꿔요",
    },
    "en": {
        "done": "I did it", "undo": "Undo", "next": "Next",
        "allDone": "All routines are complete. You did great!",
        "waiting": "Just a little wait. We start at {time}", "empty": "Nothing to do today",
        "reconnecting": "Connecting again", "progress": "{completed} / {total}",
        "doneHint": "Press the card when you are done", "list": "Today's order", "switchChild": "Switch child",
    },
}

PLACEHOLDER_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" role="img">'
    '<circle cx="50" cy="50" r="34" fill="#FFFFFF" stroke="#1E293B" stroke-width="6"/>'
    '<circle cx="50" cy="50" r="12" fill="#1E293B"/></svg>'
)

CSP = "default-src 'self'"


class Child:
    def __init__(self, cid, name, locale):
        self.id, self.name, self.locale = cid, name, locale
        self.icon = "cat" if cid == "mina" else "dog"
        self.completed = []          # ids in completion order
        self.undo = None             # (item id, deadline monotonic, total seconds)
        self.undo_seconds = 5.0
        self.intensity = "strong"
        self.waiting = None
        self.empty = False
        self.version = 1

    def items(self):
        if self.empty:
            return []
        title = 1 if self.locale == "ko" else 2
        lab = 4 if self.locale == "ko" else 5
        return [{"id": r[0], "title": r[title],
                 "icon": {"type": "builtin", "name": r[3], "label": r[lab]}, "color": r[6]}
                for r in ROUTINE]

    def model(self):
        items = self.items()
        done = set(self.completed)
        current = next((it["id"] for it in items if it["id"] not in done), None)
        undo = None
        if self.undo and self.undo[1] > time.monotonic():
            undo = {"secondsLeft": round(self.undo[1] - time.monotonic(), 2), "totalSeconds": self.undo[2]}
        if not items:
            screen, focus_id = "empty", None
        elif self.waiting:
            screen, focus_id = "waiting", None
        elif current is None:
            screen, focus_id = "allDone", None
        elif undo:
            screen, focus_id = "undo", self.undo[0]
        else:
            screen, focus_id = "current", current
        out_items = []
        for it in items:
            it = dict(it, done=it["id"] in done, current=(it["id"] == current and screen == "current"))
            out_items.append(it)
        focus = next((it for it in out_items if it["id"] == focus_id), None)
        return {
            "child": {"id": self.id, "name": self.name, "locale": self.locale, "picture": self.picture()},
            "screen": screen,
            "siblingSwitch": True,
            "progress": {"completed": len(done & {it["id"] for it in items}), "total": len(items)},
            "items": out_items,
            "focus": focus,
            "undo": undo,
            "waitingUntil": self.waiting,
            "intensity": self.intensity,
            "version": self.version,
            "labels": LABELS[self.locale],
        }

    def picture(self):
        return {"type": "builtin", "name": self.icon, "label": self.icon}


class World:
    def __init__(self, one_child):
        self.lock = threading.Condition()
        self.children = {"mina": Child("mina", "Mina", "ko")}
        if not one_child:
            self.children["sam"] = Child("sam", "Sam", "en")
        self.down_until = 0.0
        self.generation = 0

    def changed(self, child):
        child.version += 1
        self.lock.notify_all()

    def expire_undo(self):
        while True:
            time.sleep(0.1)
            with self.lock:
                for child in self.children.values():
                    if child.undo and child.undo[1] <= time.monotonic():
                        child.undo = None
                        self.changed(child)

    def act(self, child, action, body):
        if body.get("version") not in (None, child.version):
            return 409, {"error": "the screen changed before the tap arrived"}
        model = child.model()
        if action == "done":
            if model["screen"] != "current":
                return 409, {"error": "nothing to complete now"}
            cur = next(it["id"] for it in model["items"] if it["current"])
            child.completed.append(cur)
            child.undo = (cur, time.monotonic() + child.undo_seconds, child.undo_seconds)
        elif action == "undo":
            if not child.undo:
                return 409, {"error": "this can no longer be undone"}
            child.completed.remove(child.undo[0])
            child.undo = None
        elif action == "next":
            if not child.undo:
                return 409, {"error": "nothing to move on from"}
            child.undo = None
        self.changed(child)
        return 200, child.model()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    world = None

    def log_message(self, fmt, *args):
        if os.environ.get("MOCK_QUIET") != "1":
            super().log_message(fmt, *args)

    # -- helpers
    def send_bytes(self, status, body, ctype, extra=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def send_json(self, status, obj):
        self.send_bytes(status, json.dumps(obj, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def send_file(self, path, ctype):
        try:
            with open(path, "rb") as f:
                self.send_bytes(200, f.read(), ctype)
        except OSError:
            self.send_json(404, {"error": "not found"})

    def child(self, cid):
        return self.world.children.get(cid)

    def down(self):
        return time.monotonic() < self.world.down_until

    # -- routes
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        path = urllib.parse.unquote(url.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = [p for p in path.split("/") if p]
        w = self.world

        if path == "/":
            if len(w.children) == 1:
                cid = next(iter(w.children))
                self.send_bytes(302, b"", "text/plain", {"Location": "/child/" + cid})
                return
            return self.send_file(os.path.join(WEB, "index.html"), "text/html; charset=utf-8")
        if len(parts) == 2 and parts[0] == "child":
            if not self.child(parts[1]):
                return self.send_json(404, {"error": "no such child"})
            return self.send_file(os.path.join(WEB, "child.html"), "text/html; charset=utf-8")
        if len(parts) == 2 and parts[0] == "static" and parts[1] in ("kiosk.css", "child.js", "index.js"):
            ctype = "text/css; charset=utf-8" if parts[1].endswith(".css") else "text/javascript; charset=utf-8"
            return self.send_file(os.path.join(WEB, parts[1]), ctype)
        if len(parts) == 2 and parts[0] == "icons" and parts[1].endswith(".svg") and "/" not in parts[1] and not parts[1].startswith("."):
            file = os.path.join(WEB, "icons", parts[1])
            if os.path.isfile(file):
                return self.send_file(file, "image/svg+xml")
            return self.send_bytes(200, PLACEHOLDER_SVG.encode(), "image/svg+xml")
        if path == "/dev/scene":
            return self.scene(query)
        if path == "/dev/drop":
            with w.lock:
                w.down_until = time.monotonic() + float(query.get("seconds", "5"))
                w.generation += 1
                w.lock.notify_all()
            return self.send_json(200, {"down": float(query.get("seconds", "5"))})
        if self.down():
            return self.send_json(503, {"error": "restarting"})
        if path == "/api/children":
            return self.send_json(200, [{"id": c.id, "name": c.name, "locale": c.locale, "picture": c.picture()} for c in w.children.values()])
        if len(parts) == 4 and parts[:2] == ["api", "child"]:
            child = self.child(parts[2])
            if not child:
                return self.send_json(404, {"error": "no such child"})
            if parts[3] == "state":
                with w.lock:
                    return self.send_json(200, child.model())
            if parts[3] == "events":
                return self.events(child)
        self.send_json(404, {"error": "not found"})

    do_HEAD = do_GET

    def do_POST(self):
        parts = [p for p in urllib.parse.unquote(urllib.parse.urlsplit(self.path).path).split("/") if p]
        length = int(self.headers.get("Content-Length") or 0)
        if length > 4096:
            return self.send_json(413, {"error": "too large"})
        raw = self.rfile.read(length) if length else b""
        if self.down():
            return self.send_json(503, {"error": "restarting"})
        if len(parts) != 4 or parts[:2] != ["api", "child"] or parts[3] not in ("done", "undo", "next"):
            return self.send_json(404, {"error": "not found"})
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            return self.send_json(415, {"error": "JSON only"})
        child = self.child(parts[2])
        if not child:
            return self.send_json(404, {"error": "no such child"})
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return self.send_json(400, {"error": "bad JSON"})
        print(f"tap {parts[3]} child={child.id} tapAt={body.get('tapAt')} version={body.get('version')}", flush=True)
        with self.world.lock:
            status, out = self.world.act(child, parts[3], body)
        self.send_json(status, out)

    def events(self, child):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        w = self.world
        sent = None
        last_write = time.monotonic()
        with w.lock:
            generation = w.generation
        try:
            while True:
                with w.lock:
                    if w.generation != generation:
                        return
                    if child.version == sent:
                        w.lock.wait(timeout=1.0)
                    if w.generation != generation:
                        return
                    model = child.model() if child.version != sent else None
                if model is not None:
                    sent = model["version"]
                    data = json.dumps(model, ensure_ascii=False)
                    self.wfile.write(f"event: state\ndata: {data}\n\n".encode())
                    self.wfile.flush()
                    last_write = time.monotonic()
                elif time.monotonic() - last_write >= 15:
                    self.wfile.write(b": keepalive\n\n")
                    self.wfile.flush()
                    last_write = time.monotonic()
        except (BrokenPipeError, ConnectionResetError):
            return

    def scene(self, q):
        w = self.world
        with w.lock:
            child = self.child(q.get("child", "mina"))
            if not child:
                return self.send_json(404, {"error": "no such child"})
            ids = [r[0] for r in ROUTINE]
            n = max(0, min(len(ids), int(q.get("completed", "0"))))
            child.completed = ids[:n]
            child.undo_seconds = float(q.get("undoSeconds", child.undo_seconds))
            child.undo = None
            if q.get("undo") == "1" and n > 0:
                child.undo = (ids[n - 1], time.monotonic() + child.undo_seconds, child.undo_seconds)
            child.intensity = q.get("intensity", child.intensity)
            child.waiting = q.get("waiting") or None
            child.empty = q.get("empty") == "1"
            if q.get("locale") in LABELS:
                child.locale = q["locale"]
            w.changed(child)
            return self.send_json(200, child.model())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=8471)
    ap.add_argument("--one-child", action="store_true")
    args = ap.parse_args()
    world = World(args.one_child)
    Handler.world = world
    threading.Thread(target=world.expire_undo, daemon=True).start()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    print(f"mock steppie on http://127.0.0.1:{args.port}/  (children: {', '.join(world.children)})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
