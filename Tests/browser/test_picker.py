"""Browser tests of the child picker and the sibling switch (#26 item 4, "Must show").

A real `steppie serve` with two children (Mina: the morning set, Joon: the school set), a PIN,
headless Chromium, pointer events only (the one exception: a file input is given its file with
send_keys, which no pointer can do). A guardian gives Mina a photo on the guardian pages and allows
siblings to switch; Joon's icon is chosen on the command line. The picker must show both
pictures actually loaded, the child's page must offer "switch child" only when allowed, and it
must lead to the picker, where choosing the sibling shows the sibling's routine. 800x480 and
1280x800, ko and en, axe with no serious or critical finding, screenshots kept in
.build/browser-artifacts.
"""

import os
import sqlite3
import tempfile
import time

import pytest
import axe
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, make_steppie, browsers  # noqa: F401
from test_guardian import PIN, sign_in
from test_kiosk import check_layout, layout, wait_images

FIRST = {"ko": ("일어나기", "학교 가기"), "en": ("Wake up", "Go to school")}
SWITCH = {"ko": "다른 아이로 바꿔요", "en": "Switch child"}


def siblings(make_steppie, locale):
    """Mina (morning) and Joon (school) in `locale`, Joon's icon a bicycle, a PIN; started."""
    s = make_steppie(locale=locale)
    s.cli("children", "add", "Joon", "--template", "school")
    s.cli("profile", "set", "--child", "Joon", "--child-locale", locale)
    s.cli("children", "set-icon", "Joon", "bicycle")
    s.set_pin(PIN)
    s.start()
    return s


def face_png(path, size=96):
    """A PNG that reads as a picture in the screenshots: a warm face on a sky background."""
    import struct
    import zlib
    rows = []
    c = size / 2
    for y in range(size):
        row = bytearray(b"\x00")
        for x in range(size):
            dx, dy = x - c, y - c
            r2 = dx * dx + dy * dy
            if r2 < (size * 0.36) ** 2:
                eye = min((x - c + size * 0.13) ** 2, (x - c - size * 0.13) ** 2) + (y - c + size * 0.08) ** 2 < (size * 0.05) ** 2
                mouth = abs(dx) < size * 0.16 and size * 0.12 < dy < size * 0.17
                row += bytes((40, 50, 70) if eye or mouth else (250, 200, 140))
            else:
                row += bytes((120, 190, 240))
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)
    return path


def child_ids(s):
    return dict(s.query("SELECT display_name, id FROM children"))


def set_switch_in_db(s, on):
    con = sqlite3.connect(s.db, timeout=5)
    try:
        con.execute("UPDATE device_settings SET siblings_may_switch = ?", (1 if on else 0,))
        con.commit()
    finally:
        con.close()


def picker_cards(d):
    return d.execute_script("""
        return Array.from(document.querySelectorAll('a.picker-child')).map(function (a) {
          var img = a.querySelector('img'), r = a.getBoundingClientRect();
          return {name: a.querySelector('.picker-name').textContent, href: a.getAttribute('href'),
                  kind: img.getAttribute('data-picture'), src: img.getAttribute('src'),
                  complete: img.complete, natural: img.naturalWidth, height: r.height, width: r.width,
                  top: r.top, bottom: r.bottom, left: r.left, right: r.right};
        });""")


def wait_picker(d, count):
    wait_screen(d, "picker", 10)
    wait_js(d, f"return document.querySelectorAll('a.picker-child').length === {count}", f"{count} children on the picker")
    wait_js(d, "return Array.from(document.querySelectorAll('a.picker-child img')).every(function (i) {"
               " return i.complete && i.naturalWidth > 0; })", "every picture loaded")


def axe_clean(d, name):
    bad = axe.serious(axe.run(d))
    assert not bad, f"{name}: " + axe.report(bad)


def shot(d, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    d.save_screenshot(os.path.join(ARTIFACTS, f"picker-{name}.png"))


def tap_card(d, name):
    tap(d, f'a.picker-child[aria-label="{name}"]')


@pytest.mark.parametrize("locale", ["ko", "en"])
def test_the_picker_shows_pictures_and_siblings_switch_only_when_allowed(make_steppie, browsers, locale):
    s = siblings(make_steppie, locale)
    ids = child_ids(s)
    photo = face_png(os.path.join(s.dir, "mina.png"))

    # A guardian gives Mina a photo and allows siblings to switch.
    g = browsers(1280, 800)
    sign_in(g, s, lang=locale)
    axe_clean(g, f"{locale} home")
    assert not g.find_element(By.ID, "siblingSwitch").is_selected()   # off by default
    g.get(f"{s.base}/guardian/child/{ids['Mina']}/picture")
    wait_screen(g, "picture")
    axe_clean(g, f"{locale} picture page")
    g.find_element(By.ID, "photo").send_keys(photo)
    g.execute_script("window.scrollTo(0, 0)")
    g.save_screenshot(os.path.join(ARTIFACTS, f"guardian-picture-{locale}.png"))
    tap_and_load(g, 'form[data-form="picture"] button[type="submit"]', "home")
    asset = s.query("SELECT json_extract(picture, '$.backupAssetName') FROM children WHERE display_name = 'Mina'")[0][0]
    assert asset and asset.startswith("routine-photo-"), asset
    assert os.path.exists(os.path.join(s.dir, "assets", asset))
    tap(g, "#siblingSwitch")
    tap_and_load(g, 'form[data-form="kiosk"] button[type="submit"]', "home")
    assert g.find_element(By.ID, "siblingSwitch").is_selected()
    assert s.query("SELECT siblings_may_switch FROM device_settings")[0][0] == 1
    g.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    g.save_screenshot(os.path.join(ARTIFACTS, f"guardian-home-pictures-{locale}.png"))
    close(g)

    for (w, h) in [(800, 480), (1280, 800)]:
        d = browsers(w, h)
        d.get(s.base + "/")
        wait_picker(d, 2)
        cards = {c["name"]: c for c in picker_cards(d)}
        assert cards["Mina"]["kind"] == "photo" and cards["Mina"]["src"] == f"/photos/{asset}", cards
        assert cards["Joon"]["kind"] == "builtin" and cards["Joon"]["src"] == "/icons/bicycle.svg", cards
        assert all(c["natural"] > 0 for c in cards.values()), cards
        lay = layout(d)
        assert lay["sh"] <= h and lay["sw"] <= w, f"the picker scrolls at {w}x{h}: {lay}"
        for c in cards.values():
            assert c["height"] >= TARGET_PX and c["width"] >= TARGET_PX, f"{c['name']}'s card is small: {c}"
            assert c["top"] >= 0 and c["bottom"] <= h and c["left"] >= 0 and c["right"] <= w, f"cut off: {c}"
        wait_images(d)
        shot(d, f"{locale}-{w}x{h}")
        axe_clean(d, f"{locale} picker {w}x{h}")

        # Mina's page offers "switch child"; it leads back to the picker.
        tap_card(d, "Mina")
        wait_screen(d, "current", 10)
        wait_js(d, "return !document.getElementById('switch-child').hidden", "the switch shown")
        wait_js(d, f"return document.getElementById('card-title').textContent === {FIRST[locale][0]!r}", "Mina's first routine")
        control = d.find_element(By.CSS_SELECTOR, 'a[data-nav="switch"]')
        assert control.text.strip() == SWITCH[locale]
        assert control.get_attribute("href").rstrip("/") == s.base
        assert control.size["height"] >= 44, control.size
        problems = check_layout(layout(d), f"{locale} {w}x{h} with the switch", ["done"])
        assert not problems, "\n".join(problems)
        wait_images(d)
        shot(d, f"{locale}-{w}x{h}-child-switch")
        axe_clean(d, f"{locale} child page with the switch {w}x{h}")
        tap(d, 'a[data-nav="switch"]')
        wait_picker(d, 2)
        assert s.completed() == 0   # the switch pressed nothing

        # Choosing the sibling shows the sibling's routine.
        tap_card(d, "Joon")
        wait_screen(d, "current", 10)
        wait_js(d, f"return document.getElementById('card-title').textContent === {FIRST[locale][1]!r}", "Joon's first routine")
        assert d.current_url.endswith("/child/" + ids["Joon"])
        close(d)

    # Turned off: the control goes from the open page, and the state says so.
    d = browsers(800, 480)
    d.get(f"{s.base}/child/{ids['Joon']}")
    wait_screen(d, "current", 10)
    wait_js(d, "return !document.getElementById('switch-child').hidden", "the switch shown")
    set_switch_in_db(s, False)
    wait_js(d, "return document.getElementById('switch-child').hidden", "the switch gone when turned off", 5)
    s.url = f"{s.base}/child/{ids['Joon']}"
    assert s.state()["siblingSwitch"] is False
    assert not d.find_element(By.ID, "switch-child").is_displayed()
    wait_images(d)
    shot(d, f"{locale}-800x480-child-no-switch")

    # The switch never weakens the guardian's gate: the 3-second hold still asks for the PIN.
    set_switch_in_db(s, True)
    wait_js(d, "return !document.getElementById('switch-child').hidden", "the switch back", 5)
    ActionChains(d).move_to_element(d.find_element(By.ID, "child-name")).click_and_hold().pause(3.3).release().perform()
    wait_screen(d, "sign-in", 5)


def test_four_children_fit_the_800x480_picker(make_steppie, browsers):
    s = make_steppie(locale="en")
    for name, template, icon in [("Joon", "school", "default"), ("Hana", "bedtime", "default"), ("Seo-yeon Park-Williams", "morning", "moon")]:
        s.cli("children", "add", name, "--template", template)
        s.cli("children", "set-icon", name, icon)
    s.start()
    d = browsers(800, 480)
    d.get(s.base + "/")
    wait_picker(d, 4)
    cards = picker_cards(d)
    # Siblings' default pictures differ, and a chosen one is kept.
    srcs = [c["src"] for c in cards]
    assert len(set(srcs)) == 4, srcs
    assert "/icons/moon.svg" in srcs
    lay = layout(d)
    assert lay["sh"] <= 480 and lay["sw"] <= 800, lay
    for c in cards:
        assert c["height"] >= TARGET_PX and c["top"] >= 0 and c["bottom"] <= 480 and c["right"] <= 800, c
    wait_images(d)
    shot(d, "en-800x480-four")
    axe_clean(d, "four children")
    # Switching is off by default: a child's page has no way back to the picker.
    tap_card(d, "Hana")
    wait_js(d, "return !!document.documentElement.getAttribute('data-screen')", "Hana's page drawn", 10)
    time.sleep(0.3)
    assert d.find_element(By.ID, "switch-child").get_attribute("hidden") is not None
