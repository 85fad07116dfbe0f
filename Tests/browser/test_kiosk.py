"""Browser tests of the child's kiosk page (issue 13, "Must show").

Every test runs a real `steppie serve` (its own temporary database and control socket, sound to
the private PulseAudio null sink of scripts/with-pulse.sh) and drives headless Chromium through
Debian's chromedriver. Run by scripts/browser-tests.sh:

    scripts/with-pulse.sh .build/browser-venv/bin/python -m pytest Tests/browser

Nothing waits for luck: every wait is a deadline on the page's hooks (`data-screen` on the
root, `data-action` on the controls) or on the database, and fails when it passes.
"""

import datetime
import math
import os
import shutil
import signal
import socket
import sqlite3
import struct
import subprocess
import tempfile
import threading
import time
import re
import json
import urllib.request

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STEPPIE = os.environ.get("STEPPIE_BIN", os.path.join(ROOT, ".build", "debug", "steppie"))
ARTIFACTS = os.path.join(ROOT, ".build", "browser-artifacts")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
TARGET_PX = 107  # 80 pt, the contract's smallest touch target
SIZES = [(800, 480), (1280, 800), (1920, 1080)]

DONE = '[data-action="done"]'
UNDO = '[data-action="undo"]'
NEXT = '[data-action="next"]'


# --------------------------------------------------------------------------- the service

def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Steppie:
    """One child's database and one `steppie serve` on a fixed loopback port."""

    def __init__(self, locale="en", undo_seconds=10, tz="Asia/Seoul"):
        self.dir = tempfile.mkdtemp(prefix="steppie-browser-")
        self.db = os.path.join(self.dir, "steppie.db")
        self.env = dict(os.environ, STEPPIE_DB=self.db,
                        STEPPIE_SOCKET=os.path.join(self.dir, "control.sock"), TZ=tz)
        self.locale = locale
        self.port = free_port()
        self.proc = None
        self.url = None
        self.log_path = os.path.join(self.dir, "serve.log")
        self.cli("init", "--child", "Mina")
        self.cli("profile", "set", "--child", "Mina", "--child-locale", locale,
                 "--undo", str(undo_seconds))

    def cli(self, *args):
        done = subprocess.run([STEPPIE, *args, "--locale", self.locale], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        assert done.returncode == 0, f"steppie {' '.join(args)}: {done.returncode}\n{done.stdout}{done.stderr}"
        return done.stdout

    def start(self, deadline=15.0):
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(
            [STEPPIE, "serve", "--output", "pulse", "--http", f"127.0.0.1:{self.port}",
             "--locale", self.locale],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            with open(self.log_path) as f:
                m = re.findall(r"(http://127\.0\.0\.1:\d+/child/[0-9a-f-]{36})", f.read())
            if m:
                self.url = m[-1]
                assert f":{self.port}/" in self.url, self.url
                return self.url
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"steppie serve printed no page address; its log:\n{self.log()}")

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    def kill(self):
        """SIGKILL: no clean-up at all, as a power cut or a crash."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)

    # The database, read with a plain SQLite connection (the service writes with WAL).
    def query(self, sql, *params):
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute(sql, params).fetchall()
        finally:
            con.close()

    def completed(self):
        return self.query("SELECT count(*) FROM daily_logs WHERE status='completed'")[0][0]

    def undone(self):
        return self.query("SELECT count(*) FROM daily_logs WHERE status='undone'")[0][0]

    def wait_db(self, what, predicate, deadline=3.0):
        end = time.monotonic() + deadline
        value = None
        while time.monotonic() < end:
            value = predicate()
            if value:
                return value
            time.sleep(0.02)
        raise AssertionError(f"database: {what} not true within {deadline} s (last: {value!r})")

    def active_set(self):
        return self.query("SELECT id FROM routine_sets WHERE is_active=1")[0][0]

    def state(self):
        """The screen model the page draws (GET /api/child/<id>/state)."""
        api = self.url.replace("/child/", "/api/child/") + "/state"
        with urllib.request.urlopen(api, timeout=5) as r:
            return json.load(r)

    def titles(self):
        return [it["title"] for it in self.state()["items"]]


@pytest.fixture
def make_steppie():
    made = []

    def make(**kw):
        s = Steppie(**kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.stop()


# --------------------------------------------------------------------------- the browser

def new_driver(width=1280, height=800):
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", f"--window-size={width},{height}",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--force-device-scale-factor=1"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=ChromeService(CHROMEDRIVER), options=opts)
    driver.set_script_timeout(30)
    fit_viewport(driver, width, height)
    return driver


def fit_viewport(driver, width, height):
    """Makes the page's viewport (innerWidth x innerHeight) exactly width x height."""
    driver.set_window_size(width, height)
    inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner != [width, height]:
        driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")
    if inner != [width, height] and driver.current_url.startswith("http"):
        driver.refresh()
        inner = driver.execute_script("return [window.innerWidth, window.innerHeight]")


@pytest.fixture
def browsers():
    made = []

    def make(width=1280, height=800):
        d = new_driver(width, height)
        made.append(d)
        return d

    yield make
    for d in made:
        if not getattr(d, "steppie_closed", False):
            d.quit()


def close(driver):
    driver.quit()
    driver.steppie_closed = True


def screen_of(driver):
    return driver.execute_script("return document.documentElement.getAttribute('data-screen')")


def wait_screen(driver, screen, deadline=5.0):
    try:
        WebDriverWait(driver, deadline, poll_frequency=0.02).until(lambda d: screen_of(d) == screen)
    except TimeoutException:
        raise AssertionError(f"data-screen did not become {screen!r} within {deadline} s "
                             f"(it is {screen_of(driver)!r})") from None


def wait_js(driver, script, what, deadline=5.0):
    try:
        return WebDriverWait(driver, deadline, poll_frequency=0.02).until(lambda d: d.execute_script(script))
    except TimeoutException:
        raise AssertionError(f"{what} not true within {deadline} s") from None


def open_page(driver, steppie, screen="current"):
    driver.get(steppie.url)
    wait_screen(driver, screen, 10)
    if screen in ("current", "undo"):
        wait_js(driver, "return document.getElementById('card-title').textContent.length > 0",
                "the card's title is drawn")
    return driver


def card_title(driver):
    return driver.execute_script("return document.getElementById('card-title').textContent")


def progress(driver):
    return driver.execute_script("return document.getElementById('progress-text').textContent")


def tap(driver, selector):
    """A real pointer click (mouse move, down, up) in the middle of the control."""
    element = driver.find_element(By.CSS_SELECTOR, selector)
    assert element.is_displayed(), f"{selector} is not shown"
    ActionChains(driver).move_to_element(element).click().perform()


# --------------------------------------------------------------------------- sound at the sink

class SinkRecorder:
    """parec on the null sink's monitor, 22050 Hz mono s16; bytes kept with a mark for the tap."""

    RATE = 22050

    def __init__(self):
        sink = os.environ.get("PULSE_SINK")
        assert sink and os.environ.get("PULSE_SERVER"), "run under scripts/with-pulse.sh (PULSE_SINK)"
        self.proc = subprocess.Popen(
            ["parec", "--format=s16le", f"--rate={self.RATE}", "--channels=1", "--latency-msec=20",
             "-d", f"{sink}.monitor"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.data = bytearray()
        self.lock = threading.Lock()
        self.mark = None
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        end = time.monotonic() + 5
        while time.monotonic() < end and len(self.data) < self.RATE // 5:
            time.sleep(0.01)
        assert len(self.data) >= self.RATE // 5, "parec delivered nothing from the sink monitor"

    def _read(self):
        while True:
            chunk = self.proc.stdout.read1(4096)
            if not chunk:
                return
            with self.lock:
                self.data.extend(chunk)

    def mark_now(self):
        with self.lock:
            self.mark = len(self.data) // 2 * 2

    def windows_after_mark(self):
        with self.lock:
            raw = bytes(self.data[self.mark:])
        n = len(raw) // 2
        samples = struct.unpack(f"<{n}h", raw[: n * 2])
        size = self.RATE // 50  # 20 ms
        out = []
        for i in range(0, n - size + 1, size):
            w = samples[i:i + size]
            out.append(math.sqrt(sum((s / 32768.0) ** 2 for s in w) / size))
        return out

    def wait_audible(self, threshold=0.01, deadline=3.0):
        end = time.monotonic() + deadline
        loudest = 0.0
        while time.monotonic() < end:
            rms = self.windows_after_mark()
            loudest = max(rms, default=0.0)
            hits = [i for i, r in enumerate(rms) if r > threshold]
            if hits:
                return hits[0] * 20, loudest
            time.sleep(0.05)
        raise AssertionError(f"no 20 ms window above RMS {threshold} at the sink monitor within "
                             f"{deadline} s of the tap (loudest {loudest:.4f})")

    def close(self):
        self.proc.terminate()
        self.proc.wait(timeout=5)


# --------------------------------------------------------------------------- tests

def test_tap_on_done_writes_the_row_and_the_cue_is_audible(make_steppie, browsers):
    s = make_steppie(locale="en")
    s.start()
    d = open_page(browsers(), s)
    assert s.completed() == 0
    focus = s.state()["focus"]
    assert card_title(d) == focus["title"]
    rec = SinkRecorder()
    try:
        rec.mark = 0
        quiet_before = max(rec.windows_after_mark(), default=0.0)
        rec.mark_now()
        tap(d, DONE)
        s.wait_db("a completed DailyLog row", lambda: s.completed() == 1)
        at_ms, loudest = rec.wait_audible()
        print(f"cue audible {at_ms} ms after the tap mark (loudest window RMS {loudest:.3f})")
    finally:
        rec.close()
    assert quiet_before <= 0.01, f"the sink was not silent before the tap (RMS {quiet_before:.4f})"
    rows = s.query("SELECT routine_id, status FROM daily_logs")
    assert rows == [(focus["id"], "completed")], rows
    wait_screen(d, "undo")


def test_undo_inside_the_window_puts_the_row_back(make_steppie, browsers):
    s = make_steppie(locale="en", undo_seconds=10)
    s.start()
    d = open_page(browsers(), s)
    tap(d, DONE)
    wait_screen(d, "undo")
    s.wait_db("completed", lambda: s.completed() == 1)
    # The countdown ring is drawing.
    wait_js(d, "return parseFloat(document.getElementById('ring-bar').style.strokeDashoffset) > 0",
            "the undo ring counting down")
    tap(d, UNDO)
    wait_screen(d, "current")
    s.wait_db("the row back to undone", lambda: s.completed() == 0 and s.undone() == 1)
    assert card_title(d) == s.titles()[0]
    assert progress(d) == "0 / 6"


def test_next_moves_on_and_all_done_after_six(make_steppie, browsers):
    s = make_steppie(locale="en", undo_seconds=10)
    s.start()
    d = open_page(browsers(), s)
    titles = s.titles()
    assert len(titles) == 6
    tap(d, DONE)
    wait_screen(d, "undo")
    tap(d, NEXT)
    wait_screen(d, "current")
    assert card_title(d) == titles[1]
    assert progress(d) == "1 / 6"
    assert s.completed() == 1
    for i in range(1, 6):
        tap(d, DONE)
        s.wait_db(f"completion {i + 1}", lambda: s.completed() == i + 1)
        wait_screen(d, "undo")
        tap(d, NEXT)
        if i < 5:
            wait_screen(d, "current")
            assert card_title(d) == titles[i + 1]
    wait_screen(d, "allDone")
    assert progress(d) == "6 / 6"
    assert s.completed() == 6
    text = d.execute_script("return document.getElementById('message-text').textContent")
    assert text == "All done! Well done.", text


def test_a_routine_added_from_the_command_line_appears_within_a_second(make_steppie, browsers):
    s = make_steppie(locale="en")
    s.start()
    d = open_page(browsers(), s)
    title = "Feed the cat"
    s.cli("routine", "add", "--title-en", title, "--title-ko", "고양이 밥 주기", "--color", "mint")
    exited = time.monotonic()
    wait_js(d, f"return document.getElementById('order-list').textContent.includes({title!r})",
            "the new routine in the page", deadline=3)
    took = time.monotonic() - exited
    print(f"new routine on the page {took * 1000:.0f} ms after the command exited")
    assert took < 1.0, f"the new routine took {took:.3f} s to appear"
    assert progress(d) == "0 / 7"


WATCH = """
    if (!window.__watch) {
      window.__watch = [];
      var root = document.documentElement;
      new MutationObserver(function () {
        window.__watch.push([Date.now(), root.getAttribute('data-screen'),
                             document.getElementById('progress-text').textContent]);
      }).observe(root, {attributes: true, childList: true, subtree: true, characterData: true});
      document.addEventListener('pointerdown', function () { window.__tapAt = Date.now(); }, true);
      document.addEventListener('keydown', function () { window.__tapAt = Date.now(); }, true);
    }
"""


def test_two_pages_on_one_child_stay_in_step(make_steppie, browsers):
    s = make_steppie(locale="en", undo_seconds=10)
    s.start()
    a = open_page(browsers(), s)
    b = open_page(browsers(), s)
    for page in (a, b):
        page.execute_script(WATCH)
    for tapper, other, action, screen, expect in ((a, b, DONE, "undo", "1 / 6"),
                                                   (b, a, NEXT, "current", "1 / 6"),
                                                   (b, a, DONE, "undo", "2 / 6"),
                                                   (a, b, UNDO, "current", "1 / 6")):
        tap(tapper, action)
        wait_js(other, f"return document.documentElement.getAttribute('data-screen') === {screen!r} && "
                       f"document.getElementById('progress-text').textContent === {expect!r}",
                f"the other page showing {screen} {expect}", deadline=2)
        tapped = tapper.execute_script("return window.__tapAt")
        seen = other.execute_script(
            "var w = window.__watch; for (var i = 0; i < w.length; i++) "
            "if (w[i][0] >= arguments[0] && w[i][1] === arguments[1] && w[i][2] === arguments[2]) return w[i][0];"
            "return null;", tapped, screen, expect)
        assert tapped and seen, (tapped, seen)
        took = (seen - tapped) / 1000.0
        print(f"{action} in one page shown in the other {took * 1000:.0f} ms after the pointerdown")
        assert took < 1.0, f"{action}: the other page took {took:.3f} s"
        assert card_title(a) == card_title(b)
    assert s.completed() == 1


def test_the_page_recovers_after_the_service_is_killed_and_restarted(make_steppie, browsers):
    s = make_steppie(locale="en")
    s.start()
    d = open_page(browsers(), s)
    wait_js(d, "return !document.documentElement.hasAttribute('data-connection')", "connected")
    s.kill()
    wait_js(d, "return document.documentElement.getAttribute('data-connection') === 'lost'",
            "the reconnecting state (data-connection=lost)", deadline=10)
    shown = d.execute_script("return !document.getElementById('connection').hidden && "
                             "document.getElementById('connection-text').textContent")
    assert shown == "One moment…", shown
    d.save_screenshot(os.path.join(ARTIFACTS, "en-1280x800-reconnecting.png"))
    s.start()
    wait_js(d, "return !document.documentElement.hasAttribute('data-connection')",
            "the page reconnected by itself", deadline=20)
    wait_screen(d, "current")
    tap(d, DONE)
    s.wait_db("a completed row after the restart", lambda: s.completed() == 1)
    wait_screen(d, "undo")


SERIOUS = ("serious", "critical")


def axe_check(driver, name, found):
    axe = Axe(driver)
    axe.inject()
    results = axe.run()
    bad = [v for v in results["violations"] if v.get("impact") in SERIOUS]
    if bad:
        found.append(f"{name}: " + axe.report(bad))
    return results


@pytest.mark.parametrize("locale", ["ko", "en"])
def test_axe_finds_no_serious_violation_on_any_screen(make_steppie, browsers, locale):
    found = []
    checked = []
    s = make_steppie(locale=locale, undo_seconds=10)
    s.start()
    d = open_page(browsers(1280, 800), s)
    assert d.execute_script("return document.documentElement.lang") == locale
    axe_check(d, f"{locale} current", found); checked.append("current")
    tap(d, DONE)
    wait_screen(d, "undo")
    axe_check(d, f"{locale} undo", found); checked.append("undo")
    assert screen_of(d) == "undo", "the undo window closed during the axe run"
    tap(d, NEXT)
    complete_all_from_current(d, s)
    axe_check(d, f"{locale} allDone", found); checked.append("allDone")

    # waiting: the active set starts later today (a zone where "later today" exists).
    tz = next(z for z in ("Asia/Seoul", "Europe/London", "America/New_York")
              if local_hour(z) <= 20)
    w = make_steppie(locale=locale, tz=tz)
    w.cli("set", "start-time", w.active_set(), "23:30")
    w.start()
    dw = open_page(browsers(1280, 800), w, screen="waiting")
    text = dw.execute_script("return document.getElementById('message-text').textContent")
    assert "23:30" in text or "11:30" in text, text
    axe_check(dw, f"{locale} waiting", found); checked.append("waiting")

    # empty: the active set has no active routine.
    e = make_steppie(locale=locale)
    for rid, in e.query("SELECT id FROM routines WHERE routine_set_id=?", e.active_set()):
        e.cli("routine", "deactivate", rid)
    e.start()
    de = open_page(browsers(1280, 800), e, screen="empty")
    axe_check(de, f"{locale} empty", found); checked.append("empty")

    assert checked == ["current", "undo", "allDone", "waiting", "empty"]
    assert not found, "\n\n".join(found)


def complete_all_from_current(d, s):
    """Done (and next, closing the undo window) on every card left; ends on the all-done screen."""
    wait_screen(d, "current")
    start = s.completed()
    total = len(s.titles())
    for i in range(start, total):
        wait_screen(d, "current")
        tap(d, DONE)
        s.wait_db(f"completion {i + 1}", lambda: s.completed() == i + 1)
        wait_screen(d, "undo")
        tap(d, NEXT)
    wait_screen(d, "allDone")


def local_hour(zone):
    env = dict(os.environ, TZ=zone)
    return int(subprocess.run(["date", "+%H"], env=env, stdout=subprocess.PIPE, text=True).stdout)


def layout(driver):
    return driver.execute_script("""
        var de = document.documentElement;
        function box(sel) {
          var n = document.querySelector(sel);
          if (!n || n.hidden || n.closest('[hidden]')) return null;
          var r = n.getBoundingClientRect();
          return {top: r.top, left: r.left, bottom: r.bottom, right: r.right, height: r.height, width: r.width};
        }
        return {w: innerWidth, h: innerHeight, sh: de.scrollHeight, sw: de.scrollWidth,
                bsh: document.body.scrollHeight, bsw: document.body.scrollWidth,
                done: box('[data-action="done"]'), undo: box('[data-action="undo"]'),
                next: box('[data-action="next"]'), message: box('#message'),
                screen: de.getAttribute('data-screen')};
    """)


def check_layout(lay, name, need):
    problems = []
    if lay["sh"] > lay["h"] or lay["bsh"] > lay["h"]:
        problems.append(f"vertical scroll: scrollHeight {lay['sh']}/{lay['bsh']} > innerHeight {lay['h']}")
    if lay["sw"] > lay["w"] or lay["bsw"] > lay["w"]:
        problems.append(f"horizontal scroll: scrollWidth {lay['sw']}/{lay['bsw']} > innerWidth {lay['w']}")
    for key in need:
        b = lay[key]
        if b is None:
            problems.append(f"{key} not shown")
            continue
        if b["top"] < 0 or b["left"] < 0 or b["bottom"] > lay["h"] + 0.5 or b["right"] > lay["w"] + 0.5:
            problems.append(f"{key} cut off: {b}")
        if key in ("done", "undo", "next", "message") and b["height"] < TARGET_PX:
            problems.append(f"{key} target {b['height']:.1f} px high < {TARGET_PX}")
    return [f"{name}: {p}" for p in problems]


@pytest.mark.parametrize("locale", ["ko", "en"])
def test_screenshots_fit_without_scrolling_at_three_sizes(make_steppie, browsers, locale):
    os.makedirs(ARTIFACTS, exist_ok=True)
    s = make_steppie(locale=locale, undo_seconds=10)
    s.start()
    problems = []
    for (w, h) in SIZES:
        d = browsers(w, h)
        open_page(d, s)
        lay = layout(d)
        assert (lay["w"], lay["h"]) == (w, h), f"viewport {lay['w']}x{lay['h']}, wanted {w}x{h}"
        wait_images(d)
        d.save_screenshot(os.path.join(ARTIFACTS, f"{locale}-{w}x{h}-current.png"))
        problems += check_layout(lay, f"{locale} {w}x{h} current", ["done"])
        # The undo screen shows all three controls at once: none may be cut off.
        tap(d, DONE)
        wait_screen(d, "undo")
        wait_images(d)
        lay = layout(d)
        d.save_screenshot(os.path.join(ARTIFACTS, f"{locale}-{w}x{h}-undo.png"))
        problems += check_layout(lay, f"{locale} {w}x{h} undo", ["done", "undo", "next"])
        tap(d, UNDO)
        wait_screen(d, "current")
        s.wait_db("undone", lambda: s.completed() == 0)
        close(d)
    # The all-done screen on the smallest screen.
    w, h = SIZES[0]
    d = browsers(w, h)
    open_page(d, s)
    complete_all_from_current(d, s)
    wait_images(d)
    lay = layout(d)
    d.save_screenshot(os.path.join(ARTIFACTS, f"{locale}-{w}x{h}-allDone.png"))
    problems += check_layout(lay, f"{locale} {w}x{h} allDone", ["message"])
    assert not problems, "\n".join(problems)


def wait_images(driver):
    wait_js(driver, "return Array.from(document.images).every(function (i) { return i.complete; })",
            "every image loaded")


def active_action(driver):
    return driver.execute_script(
        "var a = document.activeElement; return a && a.getAttribute('data-action')")


def tab_to(driver, action, limit=12):
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if active_action(driver) == action:
            return
    raise AssertionError(f"{limit} Tabs never reached [data-action={action}] "
                         f"(focus on {driver.execute_script('return document.activeElement.outerHTML.slice(0, 120)')})")


def test_keyboard_only_tab_enter_and_space(make_steppie, browsers):
    s = make_steppie(locale="en", undo_seconds=10)
    s.start()
    d = open_page(browsers(), s)
    titles = s.titles()
    # Tab to the done card, Enter.
    tab_to(d, "done")
    ActionChains(d).send_keys(Keys.ENTER).perform()
    s.wait_db("a row written by Enter", lambda: s.completed() == 1)
    wait_screen(d, "undo")
    # Tab to next, Space: on to the second card.
    tab_to(d, "next")
    ActionChains(d).send_keys(Keys.SPACE).perform()
    wait_screen(d, "current")
    assert card_title(d) == titles[1]
    # The focus stays usable (the hidden control handed it to the card); Space on done.
    if active_action(d) != "done":
        tab_to(d, "done")
    ActionChains(d).send_keys(Keys.SPACE).perform()
    s.wait_db("a row written by Space", lambda: s.completed() == 2)
    wait_screen(d, "undo")
    # Tab to undo, Enter: the second row is back to undone.
    tab_to(d, "undo")
    ActionChains(d).send_keys(Keys.ENTER).perform()
    s.wait_db("undone by Enter", lambda: s.completed() == 1 and s.undone() == 1)
    wait_screen(d, "current")
