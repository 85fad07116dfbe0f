"""Issue 24 (hardening the device service), the classes a person meets in a browser or that need
a real process to die: the child's way to the guardian pages (class 1), the restore's PIN on the
page (class 8), and a page restore SIGKILLed at every phase (class 6).

A real `steppie serve` per test (the release binary under scripts/test.sh), headless Chromium with
pointer events for what a person does, raw HTTP where the test only needs to drive the service.
"""

import hashlib
import os
import re
import subprocess

import axe
import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, make_steppie, browsers  # noqa: F401
from test_guardian import PIN, guardian, sign_in, shot, png_file, session_cookie
from test_http_abuse import call, form, multipart


def unlock(s, pin):
    """`guardian unlock --pin-stdin`: guardian mode on the command line, for `backup create`."""
    done = subprocess.run([STEPPIE, "guardian", "unlock", "--pin-stdin", "--locale", "en"], env=s.env,
                          input=pin + "\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr


def signed_in(s, cookie):
    """Whether the session cookie still opens the guardian home (asked without the browser)."""
    r = call(s, "GET", "/guardian/", [("Cookie", f"steppie_guardian={cookie}")])
    return r.status == 200 and b'data-screen="home"' in r.body


def hold_name(d, seconds):
    name = d.find_element(By.ID, "child-name")
    ActionChains(d).move_to_element(name).click_and_hold().pause(seconds).release().perform()


# --------------------------------------------------------------------------- class 1

def test_after_the_child_screen_the_hold_asks_for_the_pin_again(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers(800, 480)
    sign_in(d, s)
    cookie = session_cookie(d)
    assert signed_in(s, cookie)
    # "Child screen" on the guardian pages: the child's page, and this browser is signed out.
    tap_and_load(d, 'button[data-nav="child-screen"]', "current")
    assert not signed_in(s, cookie)
    wait_js(d, "return document.getElementById('card-title').textContent.length > 0", "the card")
    shot(d, "hardening-child-screen-after-sign-out")
    # A minute later the child holds their name for 3 seconds: the PIN pad, never the guardian home.
    hold_name(d, 3.3)
    wait_screen(d, "sign-in", 5)
    shot(d, "hardening-hold-asks-for-pin")
    d.get(f"{s.base}/guardian/")
    wait_screen(d, "sign-in")


def test_the_hold_ends_a_session_left_open_behind_the_childs_page(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers(800, 480)
    sign_in(d, s)
    cookie = session_cookie(d)
    # The guardian goes back to the child's page some other way (back button, typed address)
    # without signing out: the session is still there...
    open_page(d, s)
    assert signed_in(s, cookie)
    # ...and the hold still starts at the PIN pad, and ends that session.
    hold_name(d, 3.3)
    wait_screen(d, "sign-in", 5)
    assert d.get_cookie("steppie_guardian") is None
    assert not signed_in(s, cookie)
    d.get(f"{s.base}/guardian/backup")
    wait_screen(d, "sign-in")


# --------------------------------------------------------------------------- class 8

def test_a_restore_from_the_page_asks_for_the_pin_and_says_what_happens_to_it(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    # A backup made on another device with another PIN (its own database, its own `backup create`).
    other = make_steppie()
    other.cli("children", "add", "Joon")
    other.set_pin("9753")
    archive = os.path.join(s.dir, "other.zip")
    unlock(other, "9753")
    other.cli("backup", "create", "--out", archive)
    before = s.dump()
    sign_in(d, s)
    d.get(f"{s.base}/guardian/backup")
    wait_screen(d, "backup")
    upload = d.find_element(By.CSS_SELECTOR, 'form[data-form="backup-restore"]')
    upload.find_element(By.NAME, "archive").send_keys(archive)
    tap_and_load(d, 'form[data-form="backup-restore"] button[type="submit"]', "backup-confirm")
    change = d.find_element(By.CSS_SELECTOR, "[data-pin-change]")
    assert change.get_attribute("data-pin-change") == "replaced"
    assert "PIN" in change.text and "replace" in change.text, change.text
    pin_field = d.find_element(By.ID, "restore-pin")
    assert pin_field.get_attribute("type") == "password" and pin_field.get_attribute("required") is not None
    shot(d, "hardening-restore-asks-pin")
    bad = axe.serious(axe.run(d))
    assert not bad, axe.report(bad)
    # A wrong PIN restores nothing; the upload is still waiting on the same page.
    pin_field.send_keys("1111")
    tap_and_load(d, 'form[data-form="backup-confirm"] button[type="submit"]', "backup-confirm")
    assert d.find_element(By.CSS_SELECTOR, '.error[data-error-field="pin"]').is_displayed()
    assert s.query("SELECT display_name FROM children ORDER BY display_name") == [("Mina",)]
    assert [l for l in s.dump().splitlines() if "device_settings" not in l] == \
           [l for l in before.splitlines() if "device_settings" not in l]
    shot(d, "hardening-restore-wrong-pin")
    bad = axe.serious(axe.run(d))
    assert not bad, axe.report(bad)
    # This device's PIN: restored, and told that the backup's PIN is now the device's.
    d.find_element(By.ID, "restore-pin").send_keys(PIN)
    tap_and_load(d, 'form[data-form="backup-confirm"] button[type="submit"]', "home")
    notice = d.find_element(By.CSS_SELECTOR, ".notice").text
    assert "PIN" in notice, notice
    assert ("Joon",) in s.query("SELECT display_name FROM children")
    # The old PIN no longer opens the pages anywhere; the backup's does.
    d.delete_all_cookies()
    sign_in(d, s, pin=PIN, expect="sign-in")
    sign_in(d, s, pin="9753")
    other.stop()


# --------------------------------------------------------------------------- class 6

PHOTO_ROUTINE = "routine-photo-{}.png"


def with_photo(s, title, rgb):
    """Gives the first routine a photo (a real PNG in the assets folder) and a title; returns the
    photo's name and its SHA-256."""
    rid = s.query("SELECT id FROM routines ORDER BY sort_order LIMIT 1")[0][0]
    name = PHOTO_ROUTINE.format(rid.lower())
    assets = os.path.join(s.dir, "assets")
    os.makedirs(assets, exist_ok=True)
    path = png_file(os.path.join(assets, name), 32, 32, rgb)
    os.chmod(path, 0o600)
    icon = '{"type":"photo","localAssetId":"%s","backupAssetName":"%s"}' % (rid.lower(), name)
    import sqlite3
    con = sqlite3.connect(s.db, timeout=5)
    con.execute("UPDATE routines SET icon = ?, title = ? WHERE id = ?", (icon, '{"en":"%s"}' % title, rid))
    con.commit()
    con.close()
    with open(path, "rb") as f:
        return name, hashlib.sha256(f.read()).hexdigest()


def photo_state(s):
    """What the device shows now: the first routine's title and the photo files' digests."""
    title = s.query("SELECT json_extract(title, '$.en') FROM routines ORDER BY sort_order LIMIT 1")[0][0]
    assets = os.path.join(s.dir, "assets")
    files = {}
    if os.path.isdir(assets):
        for n in sorted(os.listdir(assets)):
            with open(os.path.join(assets, n), "rb") as f:
                files[n] = hashlib.sha256(f.read()).hexdigest()
    return title, files


PHASES_BEFORE_COMMIT = ["photos", "rows", "settings", "journal", "oldMoved", "newMoved"]
PHASES_AFTER_COMMIT = ["committed", "markerRemoved", "cleared"]


@pytest.mark.parametrize("phase", PHASES_BEFORE_COMMIT + PHASES_AFTER_COMMIT)
def test_a_page_restore_killed_at_any_phase_leaves_photos_that_match_the_database(make_steppie, phase):
    s = make_steppie()
    s.set_pin(PIN)
    unlock(s, PIN)
    # The backup: "Wash (new)" with a blue photo. The device: "Wash (old)" with an orange one.
    new_photo, new_digest = with_photo(s, "Wash (new)", (40, 90, 220))
    archive = os.path.join(s.dir, "new.zip")
    s.cli("backup", "create", "--out", archive)
    old_photo, old_digest = with_photo(s, "Wash (old)", (240, 170, 60))
    assert old_photo == new_photo and old_digest != new_digest
    old = photo_state(s)
    assert old == ("Wash (old)", {old_photo: old_digest})

    s.env["STEPPIE_TEST_KILL_RESTORE_AT"] = phase
    s.start()
    cookie = sign_in_raw(s)
    csrf = csrf_of(s, cookie, "/guardian/backup")
    with open(archive, "rb") as f:
        body = multipart([("csrf", csrf.encode(), None, None), ("archive", f.read(), "new.zip", "application/zip")])
    staged = call(s, "POST", "/guardian/backup/restore", headers(s, cookie, "multipart/form-data; boundary=----steppieabuse"), body)
    assert staged.status == 200 and b"data-restore=\"pending\"" in staged.body, staged
    token = re.search(rb'name="upload" value="([0-9a-f]+)"', staged.body).group(1).decode()
    confirmed = call(s, "POST", "/guardian/backup/confirm", headers(s, cookie, "application/x-www-form-urlencoded"),
                     form({"csrf": csrf, "upload": token, "pin": PIN}))
    # The service died at that phase: no answer, the process gone by SIGKILL.
    assert confirmed.status is None, confirmed
    assert s.proc.wait(timeout=10) == -9
    leftovers = [n for n in os.listdir(s.dir) if n.startswith(".steppie-restore-")]
    assert leftovers, "a killed restore leaves its staging folder"

    # The next start puts it right: the database decides, and the photos follow it.
    del s.env["STEPPIE_TEST_KILL_RESTORE_AT"]
    s.start()
    expected = ("Wash (old)", {old_photo: old_digest}) if phase in PHASES_BEFORE_COMMIT \
        else ("Wash (new)", {new_photo: new_digest})
    assert photo_state(s) == expected, (phase, photo_state(s))
    assert [n for n in os.listdir(s.dir) if n.startswith(".steppie-restore-")] == []
    assert s.query("SELECT count(*) FROM photo_swaps") == [(0,)]
    # The kiosk shows the photo the database names.
    state = s.state()
    assert f"/photos/{expected_photo(expected)}" in str(state), state


def expected_photo(expected):
    return next(iter(expected[1]))


def headers(s, cookie, content_type):
    return [("Origin", s.base), ("Cookie", f"steppie_guardian={cookie}"), ("Content-Type", content_type)]


def sign_in_raw(s):
    r = call(s, "POST", "/guardian/sign-in", [("Origin", s.base), ("Content-Type", "application/x-www-form-urlencoded")],
             form({"pin": PIN, "lang": "en"}))
    assert r.status == 303, r
    return re.search(r"steppie_guardian=([0-9a-f]{64})", r.headers.get("set-cookie", "")).group(1)


def csrf_of(s, cookie, path):
    r = call(s, "GET", path, [("Cookie", f"steppie_guardian={cookie}")])
    assert r.status == 200, r
    return re.search(rb'name="csrf" value="([^"]+)"', r.body).group(1).decode()
