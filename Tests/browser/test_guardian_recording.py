"""Browser tests of "A familiar voice" (issue 26 item 6): the routine page records each language's
title with the browser's microphone — here Chromium's fake microphone playing a 1 kHz tone
(`--use-fake-device-for-media-stream --use-file-for-fake-audio-capture=FILE`) — and the kept take
is heard at the null sink's monitor on the next press, travels in a backup and comes back after a
restore. Pointer events only; axe and screenshots at 800x480 and 1280x800 in ko and en.
"""

import io
import json
import math
import os
import struct
import subprocess
import time
import urllib.parse
import urllib.request
import wave
import zipfile

import pytest
import axe
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, SinkRecorder, make_steppie, browsers  # noqa: F401
from test_guardian import PIN, NO_REDIRECTS, guardian, session_cookie, shot, sign_in

TONE_HZ = 1000


def microphone_tone(directory, seconds=4.0):
    """The fake microphone's input: a 1 kHz sine, 48 kHz mono 16-bit WAV, made with sox at test time."""
    path = os.path.join(directory, "microphone.wav")
    subprocess.run(["sox", "-n", "-r", "48000", "-c", "1", "-b", "16", path, "synth", str(seconds), "sine", str(TONE_HZ),
                    "vol", "0.5"], check=True)
    return path


def microphone_args(path):
    return ("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-audio-capture={path}")


def tone_share(samples, rate, hz=TONE_HZ):
    """The share of a window's energy at `hz` (Goertzel), 0…1."""
    n = len(samples)
    if n == 0:
        return 0.0
    k = round(hz * n / rate)
    w = 2 * math.pi * k / n
    c = 2 * math.cos(w)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + c * s1 - s2, s1
    power = s1 * s1 + s2 * s2 - c * s1 * s2
    energy = sum(x * x for x in samples)
    return (2 * power / n) / energy if energy > 0 else 0.0


def wav_samples(path):
    with wave.open(path) as w:
        assert w.getnchannels() == 1 and w.getsampwidth() == 2, (w.getnchannels(), w.getsampwidth())
        rate = w.getframerate()
        raw = w.readframes(w.getnframes())
    return [v / 32768.0 for v in struct.unpack(f"<{len(raw) // 2}h", raw)], rate


def tone_windows(rec):
    """20 ms windows at the sink monitor after the mark that carry the tone: (count, mean RMS)."""
    with rec.lock:
        raw = bytes(rec.data[rec.mark:])
    n = len(raw) // 2
    samples = [v / 32768.0 for v in struct.unpack(f"<{n}h", raw[: n * 2])]
    size = rec.RATE // 50
    hits, rms = 0, []
    for i in range(0, n - size + 1, size):
        window = samples[i:i + size]
        level = math.sqrt(sum(x * x for x in window) / size)
        if level > 0.005 and tone_share(window, rec.RATE) > 0.6:
            hits += 1
            rms.append(level)
    return hits, (sum(rms) / len(rms) if rms else 0.0)


def row(locale):
    return f'li[data-recording-locale="{locale}"]'


def record_take(d, locale, seconds=1.5):
    """● Record, wait, ■ Stop, with real clicks; returns the take's length in the browser's <audio>."""
    wait_js(d, f"return !document.querySelector('{row(locale)} [data-rec-controls]').hidden", "the recorder's buttons")
    tap(d, f'{row(locale)} [data-rec="start"]')
    wait_js(d, f"return !document.querySelector('{row(locale)} [data-rec=\"stop\"]').hidden", "■ Stop shown", 10)
    time.sleep(seconds)
    tap(d, f'{row(locale)} [data-rec="stop"]')
    return wait_js(d, f"""const a = document.querySelector('{row(locale)} audio[data-audio="take"]');
                          return a.readyState >= 1 && isFinite(a.duration) && a.duration > 0 ? a.duration : false""",
                   "the take in the page's <audio>", 10)


def routine_page(d, s, rid, lang="en"):
    d.get(f"{s.base}/guardian/routine/{rid}?lang={lang}")
    wait_screen(d, "routine", 10)


def backup_bytes(d, s):
    """The backup page's create button's answer (its session and CSRF token), as the damaged-upload test gets it."""
    d.get(f"{s.base}/guardian/backup")
    wait_screen(d, "backup")
    token = d.find_element(By.CSS_SELECTOR, 'form[data-form="backup-create"] input[name="csrf"]').get_attribute("value")
    req = urllib.request.Request(f"{s.base}/guardian/backup/create", data=urllib.parse.urlencode({"csrf": token}).encode(),
                                 headers={"Origin": s.base, "Cookie": f"steppie_guardian={session_cookie(d)}",
                                          "Content-Type": "application/x-www-form-urlencoded"}, method="POST")
    with NO_REDIRECTS.open(req, timeout=30) as r:
        assert r.status == 200 and r.headers["Content-Type"] == "application/zip"
        return r.read()


def press_and_measure(s, browsers, seconds=7.0):
    """Done on the kiosk's page (a real tap); the tone's windows at the sink monitor afterwards."""
    kiosk = open_page(browsers(), s)
    rec = SinkRecorder()
    try:
        rec.mark_now()
        before = s.completed()
        tap(kiosk, DONE)
        s.wait_db("a completed DailyLog row", lambda: s.completed() == before + 1)
        time.sleep(seconds)
        return tone_windows(rec)
    finally:
        rec.close()


def test_a_take_from_the_fake_microphone_is_kept_heard_on_the_next_press_backed_up_and_restored(make_steppie, browsers):
    s = guardian(make_steppie)
    mic = microphone_tone(s.dir)
    d = browsers(1280, 800, extra_args=microphone_args(mic))
    sign_in(d, s)
    focus = s.state()["focus"]
    rid = focus["id"]
    routine_page(d, s, rid)

    # Record, hear it in the browser, keep.
    take_seconds = record_take(d, "en")
    assert 1.0 <= take_seconds <= 2.5, take_seconds
    tap(d, f'{row("en")} [data-rec="play-take"]')
    wait_js(d, f"""const a = document.querySelector('{row("en")} audio[data-audio="take"]');
                   return !a.paused && a.currentTime > 0.05""", "the take playing in the browser")
    bad = axe.serious(axe.run(d))
    assert not bad, axe.report(bad)
    d.execute_script("window.__steppieOldPage = true;")
    tap(d, f'{row("en")} [data-rec="keep"]')
    wait_js(d, f"return window.__steppieOldPage === undefined && !!document.querySelector('{row('en')}[data-kept]')",
            "the page again, with the kept take", 10)
    rows = s.query("SELECT routine_id, locale, file_name, duration_ms FROM routine_recordings")
    assert len(rows) == 1 and rows[0][:2] == (rid, "en"), rows
    file_name, duration_ms = rows[0][2], rows[0][3]
    assert abs(duration_ms - take_seconds * 1000) <= 60, (duration_ms, take_seconds)
    path = os.path.join(s.dir, "recordings", file_name)
    assert os.stat(path).st_mode & 0o077 == 0
    samples, rate = wav_samples(path)
    middle = samples[len(samples) // 4: len(samples) // 4 + rate // 10]
    share = tone_share(middle, rate)
    assert share > 0.8, f"the kept file is not the microphone's tone (share {share:.2f})"
    print(f"take: {take_seconds:.2f} s in the browser, kept {duration_ms} ms at {rate} Hz, tone share {share:.2f}")
    # ▶ of the kept one, from the device's file.
    tap(d, f'{row("en")} [data-rec="play-kept"]')
    wait_js(d, f"""const a = document.querySelector('{row("en")} audio[data-audio="kept"]');
                   return !a.paused && a.currentTime > 0.05""", "the kept recording playing in the browser")
    time.sleep(max(0.0, duration_ms / 1000 - 0.2) + 0.5)   # the browser's own playback is over before the press

    # The next press: the routine's "done" sentence carries the recording, at the sink monitor.
    hits, level = press_and_measure(s, browsers)
    tone_ms = hits * 20
    print(f"at the sink monitor: {tone_ms} ms of the {TONE_HZ} Hz tone (recording {duration_ms} ms), mean RMS {level:.3f}")
    assert abs(tone_ms - duration_ms) <= 300, (tone_ms, duration_ms)
    assert level > 0.02, level

    # A backup made on the backup page carries it, byte for byte.
    archive = backup_bytes(d, s)
    good = os.path.join(s.dir, "with-recording.zip")
    with open(good, "wb") as f:
        f.write(archive)
    with open(path, "rb") as f:
        original = f.read()
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        assert z.read(f"recordings/{file_name}") == original
        listed = json.loads(z.read("data.json"))["recordings"]
    assert [(r["routineId"], r["locale"], r["file"], r["durationMs"]) for r in listed] == [(rid, "en", file_name, duration_ms)], listed

    # Remove it on the page, then restore the backup: it comes back.
    routine_page(d, s, rid)
    tap_and_load(d, f'{row("en")} form[data-form="unrecord"] button', "routine")
    assert s.query("SELECT count(*) FROM routine_recordings") == [(0,)]
    assert not os.path.exists(path)
    done = subprocess.run([STEPPIE, "backup", "restore", good, "--pin-stdin", "--locale", "en"], env=s.env, input=PIN + "\n",
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert s.query("SELECT routine_id, locale, file_name, duration_ms FROM routine_recordings") == rows
    with open(path, "rb") as f:
        assert f.read() == original
    routine_page(d, s, rid)
    assert d.find_elements(By.CSS_SELECTOR, f'{row("en")}[data-kept] [data-rec="play-kept"]')


@pytest.mark.parametrize("locale", ["ko", "en"])
def test_the_recording_section_axe_and_screenshots(make_steppie, browsers, locale):
    s = make_steppie(locale=locale)
    rid = s.query("SELECT r.id FROM routines r JOIN routine_sets t ON t.id = r.routine_set_id "
                  "WHERE t.is_active = 1 ORDER BY r.sort_order LIMIT 1")[0][0]
    mic = microphone_tone(s.dir)
    kept = os.path.join(s.dir, "kept.wav")
    subprocess.run(["sox", "-n", "-r", "22050", "-c", "1", "-b", "16", kept, "synth", "1.2", "sine", "440", "vol", "0.5"], check=True)
    s.cli("routine", "record", rid, kept)   # the command line's import (before the PIN): the same store path
    s.set_pin(PIN)
    s.start()
    for size in [(800, 480), (1280, 800)]:
        d = browsers(*size, extra_args=microphone_args(mic))
        sign_in(d, s, lang=locale)
        routine_page(d, s, rid, lang=locale)
        d.execute_script("document.getElementById('rec-h').scrollIntoView()")
        wait_js(d, f"return !document.querySelector('{row(locale)} [data-rec-controls]').hidden", "the recorder's buttons")
        assert d.find_elements(By.CSS_SELECTOR, f'{row(locale)}[data-kept]')
        bad = axe.serious(axe.run(d))
        assert not bad, axe.report(bad)
        os.makedirs(ARTIFACTS, exist_ok=True)
        d.save_screenshot(os.path.join(ARTIFACTS, f"guardian-recording-kept-{locale}-{size[0]}x{size[1]}.png"))
        other = "en" if locale == "ko" else "ko"
        record_take(d, other, seconds=0.8)
        status = d.find_element(By.CSS_SELECTOR, "[data-rec-status]").text
        assert status, "the take's status is said"
        bad = axe.serious(axe.run(d))
        assert not bad, axe.report(bad)
        d.execute_script("document.getElementById('rec-h').scrollIntoView()")
        d.save_screenshot(os.path.join(ARTIFACTS, f"guardian-recording-take-{locale}-{size[0]}x{size[1]}.png"))
        close(d)
