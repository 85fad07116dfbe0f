"""Browser tests of the guardian pages (issue 14, "Must show").

A real `steppie serve` on its own database with a PIN, headless Chromium, sound to the private
null sink. The session's 3-minute idle end runs on the service's secure clock and is tested in
Swift with a manual clock (Tests/SteppieServiceTests/GuardianWebTests.swift); here everything is
what a guardian's browser meets.
"""

import json
import os
import re
import struct
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

import pytest
import axe
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, SinkRecorder, make_steppie, browsers  # noqa: F401

PIN = "2468"


def png_file(path, width=64, height=64, rgb=(240, 170, 60)):
    """A real PNG (zlib-compressed rows), written with the standard library only."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)
    return path


def guardian(make_steppie, locale="en", completions=0, idle_seconds=None):
    """A database with a PIN (and `completions` routines done today, before the service starts);
    `idle_seconds` shortens the kiosk's way back to the child's page after idle minutes."""
    s = make_steppie(locale=locale)
    s.set_pin(PIN)
    if idle_seconds is not None:
        s.env["STEPPIE_KIOSK_IDLE_SECONDS"] = str(idle_seconds)
    for _ in range(completions):
        s.cli("complete", "--child", "Mina")
    s.start()
    return s


def sign_in(driver, s, pin=PIN, lang="en", expect="home"):
    """Types the PIN on the on-screen pad (real clicks) and submits."""
    driver.get(f"{s.base}/guardian/?lang={lang}")
    wait_screen(driver, "sign-in", 10)
    for digit in pin:
        tap(driver, f'button[data-digit="{digit}"]')
    try:
        tap_and_load(driver, 'button[data-pad="enter"]', expect, 10)
    except AssertionError:
        alert = driver.find_elements(By.CSS_SELECTOR, '[role="alert"]')
        raise AssertionError(f"sign-in did not reach {expect!r}: {[a.text for a in alert]}") from None


def child_id(s):
    return s.query("SELECT id FROM children")[0][0]


def shot(driver, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(os.path.join(ARTIFACTS, f"guardian-{name}.png"))


def session_cookie(driver):
    c = driver.get_cookie("steppie_guardian")
    assert c, "no session cookie after sign-in"
    assert c["httpOnly"] and c.get("sameSite") == "Strict", c
    return c["value"]


def post(s, path, fields, cookie=None, origin=True):
    body = urllib.parse.urlencode(fields).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if origin:
        headers["Origin"] = s.base
    if cookie:
        headers["Cookie"] = f"steppie_guardian={cookie}"
    req = urllib.request.Request(s.base + path, data=body, headers=headers, method="POST")
    try:
        with NO_REDIRECTS.open(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


NO_REDIRECTS = urllib.request.build_opener(_KeepRedirects)


# --------------------------------------------------------------------------- sign-in

def test_sign_in_with_the_pad_and_six_wrong_pins_lock_across_a_restart(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    sign_in(d, s)
    shot(d, "home-en")
    assert "Mina" in d.find_element(By.TAG_NAME, "main").text
    session_cookie(d)
    d.delete_all_cookies()
    for attempt in range(6):
        d.get(f"{s.base}/guardian/?lang=en")
        wait_screen(d, "sign-in")
        for digit in "0000":   # the pad types: the field itself takes no keyboard focus
            tap(d, f'button[data-digit="{digit}"]')
        tap_and_load(d, 'button[data-pad="enter"]', "sign-in")
    locked = d.find_element(By.CSS_SELECTOR, "[data-locked-seconds]")
    seconds = int(locked.get_attribute("data-locked-seconds"))
    assert 0 < seconds <= 30, seconds
    assert str(seconds) in locked.text or re.search(r"\d+", locked.text)
    shot(d, "locked-en")
    # The right PIN is refused while locked, and the lock survives a service restart.
    sign_in(d, s, expect="sign-in")
    assert d.find_elements(By.CSS_SELECTOR, "[data-locked-seconds]")
    s.restart()
    d.get(f"{s.base}/guardian/?lang=en")
    wait_screen(d, "sign-in", 10)
    assert d.find_elements(By.CSS_SELECTOR, "[data-locked-seconds]"), "the lock was lost in the restart"


def test_a_post_without_the_csrf_token_is_refused_and_changes_nothing(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    sign_in(d, s)
    cookie = session_cookie(d)
    token = d.find_element(By.CSS_SELECTOR, 'input[name="csrf"]').get_attribute("value")
    before = s.dump()
    path = f"/guardian/child/{child_id(s)}/rename"
    status, _ = post(s, path, {"name": "Hacked", "locale": "en"}, cookie=cookie)
    assert status == 403
    status, _ = post(s, path, {"name": "Hacked", "locale": "en", "csrf": token}, cookie=cookie, origin=False)
    assert status == 403
    status, _ = post(s, path, {"name": "Hacked", "locale": "en", "csrf": token})
    assert status == 401
    assert s.dump() == before
    status, _ = post(s, path, {"name": "Mina R", "locale": "en", "csrf": token}, cookie=cookie)
    assert status == 303
    assert s.query("SELECT display_name FROM children") == [("Mina R",)]


# --------------------------------------------------------------------------- routines and photos

def add_routine(d, s, title, photo=None):
    d.get(f"{s.base}/guardian/child/{child_id(s)}/routines")
    wait_screen(d, "routines")
    form = d.find_element(By.CSS_SELECTOR, 'form[data-form="routine"]')
    form.find_element(By.NAME, "titleEn").send_keys(title)
    if photo:
        form.find_element(By.NAME, "photo").send_keys(photo)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()


def test_a_routine_added_with_a_photo_appears_on_the_kiosk_page_within_a_second(make_steppie, browsers):
    s = guardian(make_steppie)
    kiosk = open_page(browsers(), s)
    d = browsers()
    sign_in(d, s)
    photo = png_file(os.path.join(s.dir, "cat.png"))
    add_routine(d, s, "Feed the cat", photo)
    wait_screen(d, "routines")
    # From the save's answer (the routines page it leads to is shown) to the kiosk page showing the
    # photo; the screenshot comes after (it took a few hundred ms of the second under CI's load).
    saved = time.monotonic()
    assert not d.find_elements(By.CSS_SELECTOR, ".error"), d.find_element(By.CSS_SELECTOR, ".error").text
    wait_js(kiosk, "return Array.from(document.querySelectorAll('#order-list img')).some("
                   "function (i) { return /\\/photos\\/routine-photo-[0-9a-f-]+\\.png$/.test(i.src) && i.naturalWidth === 64; })",
            "the photo on the kiosk page", deadline=3.0)
    took = time.monotonic() - saved
    print(f"photo routine on the kiosk page {took * 1000:.0f} ms after the save answered")
    shot(d, "routines-en")
    assert took < 1.0, took
    row = s.query("SELECT json_extract(icon, '$.type') FROM routines WHERE title LIKE '%Feed the cat%'")
    assert row == [("photo",)], row


def test_a_renamed_text_file_is_refused_as_a_photo(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    sign_in(d, s)
    fake = os.path.join(s.dir, "holiday.jpg")
    with open(fake, "w") as f:
        f.write("<script>alert(1)</script> not a photo\n" * 20)
    before = s.dump()
    add_routine(d, s, "Fake photo", fake)
    wait_screen(d, "routines")
    error = d.find_element(By.CSS_SELECTOR, '.error[role="alert"]')
    assert error.get_attribute("data-error-field") == "photo", error.get_attribute("outerHTML")
    assert "JPEG" in error.text
    assert s.dump() == before
    assets = os.path.join(s.dir, "assets")
    assert not os.path.isdir(assets) or os.listdir(assets) == []


# --------------------------------------------------------------------------- feedback

def test_play_on_the_device_is_audible_strong_over_normal_over_quiet_and_off_is_silent(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    sign_in(d, s)
    d.get(f"{s.base}/guardian/child/{child_id(s)}/feedback")
    wait_screen(d, "feedback")
    shot(d, "feedback-en")
    rec = SinkRecorder()
    loudness = {}
    try:
        for intensity in ("strong", "normal", "quiet", "off"):
            rec.mark_now()
            tap(d, f'button[data-play="completed"][data-intensity="{intensity}"]')
            wait_js(d, "return document.querySelector('.play-status').textContent.length > 0", "the play status")
            end = time.monotonic() + 3.0
            while time.monotonic() < end:
                time.sleep(0.1)
            windows = rec.windows_after_mark()
            loudness[intensity] = (max(windows, default=0.0),
                                   math.sqrt(sum(w * w for w in windows) / max(1, len(windows))))
            d.execute_script("document.querySelector('.play-status').textContent = ''")
    finally:
        rec.close()
    print("peak and mean RMS by intensity:", {k: (round(p, 4), round(m, 4)) for k, (p, m) in loudness.items()})
    assert loudness["strong"][1] > loudness["normal"][1] > loudness["quiet"][1] > 0.001, loudness
    assert loudness["off"][0] < 0.003, loudness


# --------------------------------------------------------------------------- history

def test_the_heatmap_counts_equal_history_month_json(make_steppie, browsers):
    s = guardian(make_steppie, completions=2)
    month = time.strftime("%Y-%m")
    cli = json.loads(s.cli("history", "--child", "Mina", "--month", month, "--json"))
    d = browsers()
    sign_in(d, s)
    d.get(f"{s.base}/guardian/child/{child_id(s)}/history?month={month}")
    wait_screen(d, "history")
    shot(d, "history-en")
    cells = {r.get_attribute("data-day"): (int(r.get_attribute("data-completed")), int(r.get_attribute("data-total")))
             for r in d.find_elements(By.CSS_SELECTOR, "svg.heatmap rect[data-day]")}
    expected = {day["date"]: (day["completed"], day["total"]) for day in cli["days"]}
    assert cells == expected
    assert sum(c for c, _ in cells.values()) == 2


# --------------------------------------------------------------------------- accessibility

PAGES = ["/guardian/", "/guardian/child/{id}/feedback", "/guardian/child/{id}/routines", "/guardian/child/{id}/history",
         "/guardian/recover"]


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_axe_finds_no_serious_violation_on_any_guardian_page(make_steppie, browsers, locale):
    s = guardian(make_steppie, locale=locale, completions=1)
    d = browsers()
    problems = []

    def check(name):
        bad = axe.serious(axe.run(d))
        if bad:
            problems.append(f"{name}: " + axe.report(bad))

    d.get(f"{s.base}/guardian/?lang={locale}")
    wait_screen(d, "sign-in")
    check("sign-in")
    shot(d, f"sign-in-{locale}")
    d.get(f"{s.base}/guardian/recover?lang={locale}")
    wait_screen(d, "recover")
    check("recover")
    sign_in(d, s, lang=locale)
    for page in PAGES[:4]:
        d.get(s.base + page.format(id=child_id(s)) + f"?lang={locale}")
        screen = d.execute_script("return document.documentElement.getAttribute('data-screen')")
        assert d.execute_script("return document.documentElement.lang") == locale
        check(screen)
        shot(d, f"{screen}-{locale}")
    routine = s.query("SELECT id FROM routines LIMIT 1")[0][0]
    d.get(f"{s.base}/guardian/routine/{routine}")
    wait_screen(d, "routine")
    check("routine")
    shot(d, f"routine-{locale}")
    d.get(f"{s.base}/guardian/child/{child_id(s)}/history?date={time.strftime('%Y-%m-%d')}&routine={routine}")
    wait_screen(d, "history")
    check("history-day")
    shot(d, f"history-day-{locale}")
    for page, screen in (("/guardian/backup", "backup"), ("/guardian/l10n?pseudo=on", "l10n")):
        d.get(s.base + page)
        wait_screen(d, screen)
        check(screen)
        shot(d, f"{screen}-{locale}")
    # The kiosk's own screen size: the sign-in pad and the home page fit 800 x 480 without sideways scrolling.
    fit_viewport(d, 800, 480)
    d.get(f"{s.base}/guardian/")
    wait_screen(d, "home")
    assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), "sideways scrolling at 800 px"
    shot(d, f"home-800-{locale}")
    assert not problems, "\n".join(problems)


def test_the_hidden_hold_on_the_kiosk_page_opens_the_pin_pad(make_steppie, browsers):
    s = guardian(make_steppie)
    d = open_page(browsers(), s)
    from selenium.webdriver.common.action_chains import ActionChains
    name = d.find_element(By.ID, "child-name")
    ActionChains(d).move_to_element(name).click_and_hold().pause(1.0).release().perform()
    time.sleep(0.1)
    assert screen_of(d) != "sign-in"   # a short press does nothing
    ActionChains(d).move_to_element(name).click_and_hold().pause(3.3).release().perform()
    wait_screen(d, "sign-in", 5)
    assert d.find_element(By.CSS_SELECTOR, 'form[data-form="sign-in"] input[name="pin"]')


def hold_name(d):
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(d).move_to_element(d.find_element(By.ID, "child-name")).click_and_hold().pause(3.3).release().perform()
    wait_screen(d, "sign-in", 5)


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_never_stuck_the_hold_back_and_the_idle_end_all_land_on_the_childs_page(make_steppie, browsers, locale):
    """#26 item 4 on the kiosk's 800 x 480 screen: the PIN pad fits without scrolling and opens no
    on-screen keyboard, has a way back; left alone it goes back by itself (the idle end is 2 s
    here, 3 minutes on a device); signing out or an idle guardian page also lands on the child's
    page, and the session is over."""
    s = guardian(make_steppie, locale=locale)
    d = browsers(800, 480)
    open_page(d, s)
    hold_name(d)
    fits = d.execute_script("return [document.documentElement.scrollHeight, window.innerHeight, "
                            "document.documentElement.scrollWidth, window.innerWidth]")
    assert fits[0] <= fits[1] and fits[2] <= fits[3], f"the PIN pad scrolls at 800x480: {fits}"
    field = d.find_element(By.CSS_SELECTOR, 'form[data-form="sign-in"] input[name="pin"]')
    assert field.get_attribute("readonly") is not None and field.get_attribute("inputmode") == "none"
    enter = d.find_element(By.CSS_SELECTOR, 'button[data-pad="enter"]')
    assert enter.rect["y"] + enter.rect["height"] <= 480, enter.rect
    shot(d, f"pin-pad-800x480-{locale}")
    bad = axe.serious(axe.run(d))
    assert not bad, axe.report(bad)
    # "Back" goes to the child's page.
    tap_and_load(d, 'a[data-nav="back"]', "current")
    close(d)
    s.stop()

    # Left alone, the PIN pad goes back by itself.
    s = guardian(make_steppie, locale=locale, idle_seconds=2)
    d = browsers(800, 480)
    open_page(d, s)
    hold_name(d)
    wait_screen(d, "current", 8)
    # Signed in and left alone: back to the child's page, and the session ended on the way.
    sign_in(d, s, lang=locale)
    wait_screen(d, "current", 8)
    d.get(f"{s.base}/guardian/")
    wait_screen(d, "sign-in")
    # Signing out lands on the child's page too.
    sign_in(d, s, lang=locale)
    tap_and_load(d, "form.sign-out button", "current")
    d.get(f"{s.base}/guardian/")
    wait_screen(d, "sign-in")


def test_a_damaged_backup_upload_is_refused_and_changes_nothing(make_steppie, browsers):
    s = guardian(make_steppie)
    d = browsers()
    sign_in(d, s)
    # The download, as the page's button gets it (the session's cookie and CSRF token).
    d.get(f"{s.base}/guardian/backup")
    wait_screen(d, "backup")
    token = d.find_element(By.CSS_SELECTOR, 'form[data-form="backup-create"] input[name="csrf"]').get_attribute("value")
    req = urllib.request.Request(f"{s.base}/guardian/backup/create", data=urllib.parse.urlencode({"csrf": token}).encode(),
                                 headers={"Origin": s.base, "Cookie": f"steppie_guardian={session_cookie(d)}",
                                          "Content-Type": "application/x-www-form-urlencoded"}, method="POST")
    with NO_REDIRECTS.open(req, timeout=30) as r:
        assert r.status == 200 and r.headers["Content-Type"] == "application/zip"
        data = bytearray(r.read())
    good = os.path.join(s.dir, "good.zip")
    with open(good, "wb") as f:
        f.write(data)
    verified = json.loads(s.cli("backup", "verify", good, "--json"))
    assert verified["counts"]["routines"] == 6, verified
    for i in range(len(data) // 3, len(data) // 3 + 64):
        data[i] ^= 0x5A
    damaged = os.path.join(s.dir, "damaged.zip")
    with open(damaged, "wb") as f:
        f.write(data)
    before = s.dump()
    d.get(f"{s.base}/guardian/backup")
    wait_screen(d, "backup")
    form = d.find_element(By.CSS_SELECTOR, 'form[data-form="backup-restore"]')
    form.find_element(By.NAME, "archive").send_keys(damaged)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait_js(d, "return !!document.querySelector('.error[data-error-field=\\'archive\\']')", "the refusal naming the file")
    shot(d, "backup-refused-en")
    assert s.dump() == before
    # The good one shows what it would replace, and restoring it keeps the same data.
    form = d.find_element(By.CSS_SELECTOR, 'form[data-form="backup-restore"]')
    form.find_element(By.NAME, "archive").send_keys(good)
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait_screen(d, "backup-confirm")
    assert "Mina" in d.find_element(By.CSS_SELECTOR, '[data-list="replaced"]').text
    shot(d, "backup-confirm-en")
    assert s.dump() == before
    d.find_element(By.ID, "restore-pin").send_keys(PIN)   # the PIN again, as the command line asks
    tap(d, 'form[data-form="backup-confirm"] button')
    wait_screen(d, "home")
    assert s.query("SELECT display_name FROM children") == [("Mina",)]


# --------------------------------------------------------------------------- the first run

@pytest.mark.parametrize("locale,size", [("ko", (800, 480)), ("en", (800, 480)), ("ko", (1280, 800)), ("en", (1280, 800))])
def test_first_run_from_an_empty_data_folder_to_a_completed_first_activity(browsers, locale, size):
    """#26 item 3 with pointer events only: language, the PIN twice on the pad, the recovery code
    once, the first child (the name the page offers) with a template, the intensity heard with ▶
    at the sink, then the child's screen and a first press saved. axe on every step."""
    s = Steppie(locale=locale, empty=True)
    try:
        s.start()
        d = browsers(*size)
        d.get(s.base + "/")
        wait_screen(d, "setup-language", 10)
        tag = f"{locale}-{size[0]}x{size[1]}"
        problems = []

        def check(step):
            fits = d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
            if not fits:
                problems.append(f"{step}: sideways scrolling")
            bad = axe.serious(axe.run(d))
            if bad:
                problems.append(f"{step}: {axe.report(bad)}")
            shot(d, f"setup-{step}-{tag}")

        check("language")
        tap_and_load(d, f'a[data-lang="{locale}"]', "setup-pin")
        assert d.execute_script("return document.documentElement.lang") == locale
        if size == (800, 480):
            assert d.execute_script("return document.documentElement.scrollHeight <= window.innerHeight"), "the PIN step scrolls"
        check("pin")
        for digit in PIN + PIN:   # the pad moves to the second field by itself
            tap(d, f'button[data-digit="{digit}"]')
        tap_and_load(d, 'button[data-pad="enter"]', "setup-code")
        code = d.find_element(By.CSS_SELECTOR, "[data-recovery-code]").get_attribute("data-recovery-code")
        assert re.fullmatch(r"\d{6}", code), code
        check("code")
        tap(d, 'label[for="written"]')
        tap_and_load(d, 'button[data-step-next]', "setup-child")
        assert d.find_element(By.ID, "name").get_attribute("value"), "no name offered for a touch-only screen"
        check("child")
        tap(d, 'label[for="template-morning"]')
        tap_and_load(d, 'form[data-form="setup-child"] button[type="submit"]', "setup-feedback")
        if size == (800, 480):
            button = d.find_element(By.CSS_SELECTOR, "button[data-step-finish]").rect
            assert button["y"] + button["height"] <= 480, f"Start is below the screen: {button}"
        check("feedback")
        rec = SinkRecorder()
        try:
            rec.mark_now()
            tap(d, 'button[data-play="completed"][data-intensity="normal"]')
            at_ms, loudest = rec.wait_audible()
            print(f"first run ▶ normal audible {at_ms} ms after the mark (RMS {loudest:.3f})")
        finally:
            rec.close()
        tap(d, 'label[for="intensity-quiet"]')
        d.execute_script("window.__steppieOldPage = true;")
        tap(d, 'button[data-step-finish]')
        wait_screen(d, "current", 10)
        shot(d, f"setup-done-{tag}")
        assert s.query("SELECT feedback_intensity, locale FROM children") == [("quiet", locale)]
        assert s.query("SELECT count(*) FROM routine_sets WHERE is_active = 1")[0][0] == 1
        # A first activity done on the child's screen.
        tap(d, DONE)
        s.wait_db("the first completion", lambda: s.completed() == 1)
        # The first run is gone now: the pages ask for the PIN just chosen.
        d.get(s.base + "/guardian/setup")
        wait_screen(d, "sign-in")
        sign_in(d, s, lang=locale)
        assert not problems, "\n".join(problems)
    finally:
        s.stop()


def test_the_first_run_is_not_offered_over_the_home_network_nor_once_a_pin_exists(make_steppie, browsers):
    """The home network's pages (HTTPS) never offer it; on the kiosk, a device with a PIN goes to
    the PIN pad instead."""
    s = Steppie(locale="en", empty=True)
    try:
        lan_port = free_port()
        s.serve_args = ["--guardian-lan", f"127.0.0.1:{lan_port}"]
        s.start()
        lan = [f"https://127.0.0.1:{lan_port}"]
        import ssl
        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        for path in ("/guardian/setup", "/guardian/setup/pin", "/guardian/setup/available"):
            try:
                urllib.request.urlopen(lan[0] + path, context=ctx, timeout=5)
                raise AssertionError(f"{path} answered over the home network")
            except urllib.error.HTTPError as e:
                assert e.code == 404, (path, e.code)
    finally:
        s.stop()
    s = guardian(make_steppie)
    d = browsers()
    d.get(s.base + "/guardian/setup")
    wait_screen(d, "sign-in")
