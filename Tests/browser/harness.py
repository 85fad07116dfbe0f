"""Shared harness of the browser tests: a real `steppie serve` on its own database, headless
Chromium through Debian's chromedriver, and a recorder on the null sink's monitor."""


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
import random
import re
import json
import urllib.request

import pytest
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
    """A loopback port free now, below the kernel's ephemeral range: a port the kernel hands out
    (bind to 0) may be given again to any outgoing connection (a browser's, chromedriver's, the
    other shard's) before `steppie serve` binds it. Random, so two shards rarely meet; a service
    that still finds its port taken is started again on another (`Steppie.start`)."""
    for _ in range(200):
        port = random.randint(20000, 32000)
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind(("127.0.0.1", port))
            return port
        except OSError:
            continue
        finally:
            s.close()
    raise AssertionError("no free loopback port between 20000 and 32000")


class PortTaken(Exception):
    """`steppie serve` could not bind the port it was given."""


class Steppie:
    """One child's database and one `steppie serve` on a fixed loopback port."""

    def __init__(self, locale="en", undo_seconds=10, tz="Asia/Seoul", empty=False, child="Mina"):
        self.dir = tempfile.mkdtemp(prefix="steppie-browser-")
        self.db = os.path.join(self.dir, "steppie.db")
        self.env = dict(os.environ, STEPPIE_DB=self.db,
                        STEPPIE_SOCKET=os.path.join(self.dir, "control.sock"), TZ=tz)
        self.locale = locale
        self.port = free_port()
        self.proc = None
        self.url = None
        self.log_path = os.path.join(self.dir, "serve.log")
        self.serve_args = []  # more options for `steppie serve` (e.g. --guardian-lan)
        self.output = "pulse"  # `serve --output`: "null" for a service that must stay silent (a sync hub beside a measured one)
        self.wait_for_children = not empty  # ready when a child's page is printed, else when it listens
        if not empty:  # empty: a new device, no database yet (the first run)
            self.cli("init", "--child", child)
            self.cli("profile", "set", "--child", child, "--child-locale", locale,
                     "--undo", str(undo_seconds))

    def cli(self, *args):
        done = subprocess.run([STEPPIE, *args, "--locale", self.locale], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        assert done.returncode == 0, f"steppie {' '.join(args)}: {done.returncode}\n{done.stdout}{done.stderr}"
        return done.stdout

    def start(self, deadline=15.0, tries=5):
        for attempt in range(tries):
            try:
                return self._start(deadline)
            except PortTaken:
                if attempt == tries - 1:
                    raise AssertionError(f"steppie serve found {tries} ports taken; its log:\n{self.log()}")
                self.port = free_port()

    def _start(self, deadline):
        log = open(self.log_path, "a")
        offset = log.tell()  # a restart appends: only this start's lines say it is listening
        self.proc = subprocess.Popen(
            [STEPPIE, "serve", "--output", self.output, "--http", f"127.0.0.1:{self.port}",
             "--locale", self.locale, *self.serve_args],
            env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            with open(self.log_path) as f:
                f.seek(offset)
                text = f.read()
                m = re.findall(r"(http://127\.0\.0\.1:\d+/child/[0-9a-f-]{36})", text)
            if m:
                self.url = m[-1]
                assert f":{self.port}/" in self.url, self.url
                return self.url
            # "listening on <socket>; children: …" (in either language: the socket's path is the mark).
            if self.wait_for_children is False and self.env["STEPPIE_SOCKET"] in text:
                self.url = self.base + "/"
                return self.url
            if self.proc.poll() is not None:
                # Taken between free_port and the bind (its message names the call, in either language).
                if "(bind)" in text:
                    raise PortTaken()
                break
            time.sleep(0.05)
        raise AssertionError(f"steppie serve printed no page address; its log:\n{self.log()}")

    def log(self):
        with open(self.log_path) as f:
            return f.read()

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def set_pin(self, pin):
        """`guardian set-pin --pin-stdin` on the fresh database; returns the recovery code."""
        done = subprocess.run([STEPPIE, "guardian", "set-pin", "--pin-stdin", "--locale", "en"], env=self.env,
                              input=pin + "\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
        assert done.returncode == 0, done.stdout + done.stderr
        return re.findall(r"\b(\d{6})\b", done.stdout)[0]

    def restart(self):
        """SIGTERM and start again on the same database and port."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=10)
        return self.start()

    def dump(self):
        """Every row of the database as SQL text (to compare before and after a refusal)."""
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=5)
        try:
            return "\n".join(con.iterdump())
        finally:
            con.close()

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

def new_driver(width=1280, height=800, extra_args=()):
    """`extra_args`: more Chromium switches (the fake microphone of the recording tests)."""
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", f"--window-size={width},{height}",
                "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                "--disable-extensions", "--force-device-scale-factor=1", *extra_args):
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

    def make(width=1280, height=800, extra_args=()):
        d = new_driver(width, height, extra_args)
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


def wait_saved(driver, deadline=5.0):
    """Until the kiosk page has no tap being saved: a tap made while one is saved does nothing (as
    in the engine), and the stream may show the saved tap's screen before its answer comes back."""
    wait_js(driver, "return !document.documentElement.hasAttribute('data-saving')", "the tap saved", deadline)


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


def tap_and_load(driver, selector, screen, deadline=10.0):
    """Taps a control that submits its form and waits for the page that answers: a new document
    (the tapped one is marked first) showing `screen`. Waiting for `screen` alone can pass on the
    old page when the answer shows the same screen again (a refused PIN)."""
    driver.execute_script("window.__steppieOldPage = true;")
    tap(driver, selector)
    wait_js(driver, "return document.readyState === 'complete' && window.__steppieOldPage === undefined",
            "a new page after tapping " + selector, deadline)
    wait_screen(driver, screen, deadline)


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


