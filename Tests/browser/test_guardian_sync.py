"""The guardian's sync page (issue 27 item 6) between two real `steppie serve` processes: a hub
(`--hub 127.0.0.1:0`, its address and fingerprint from its log) and a device. On the hub's page a
joining code is made; on the device's page the guardian joins with it, typing the fingerprint;
the device shows the hub and nothing waiting; the hub lists the device; it is removed there; the
device's "Sync now" then says the hub does not know it. Real clicks, axe on every state, 800x480
and 1280x800, ko and en; screenshots in .build/browser-artifacts/sync-*.png.
"""

import os
import re
import time

import pytest
import axe
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, make_steppie, browsers, fit_viewport  # noqa: F401

PIN = "2468"
FINGERPRINT = re.compile(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}")
SIZES_HERE = [(800, 480), (1280, 800)]
UNKNOWN = {"en": "the hub does not know this device", "ko": "허브가 이 기기를 몰라요"}


def hub_address(s, deadline=15.0):
    """The hub's https address and its certificate fingerprint, from its log line."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        for line in reversed(s.log().splitlines()):
            url = re.search(r"https://127\.0\.0\.1:\d+", line)
            fp = FINGERPRINT.search(line)
            if url and fp and "--hub" not in line:
                return url.group(0), fp.group(0)
        time.sleep(0.05)
    raise AssertionError("the hub printed no address; its log:\n" + s.log())


def sign_in(d, s, lang):
    d.get(f"{s.base}/guardian/?lang={lang}")
    wait_screen(d, "sign-in", 10)
    for digit in PIN:
        tap(d, f'button[data-digit="{digit}"]')
    tap_and_load(d, 'button[data-pad="enter"]', "home", 10)


def check_state(d, name, locale, problems, focus=None):
    """axe and a screenshot of the page as it is, at each size (a POST's answer is looked at as
    it came); `focus`: the part the screenshot shows (else the top of the page)."""
    for w, h in SIZES_HERE:
        fit_viewport(d, w, h)
        bad = axe.serious(axe.run(d))
        if bad:
            problems.append(f"{name} {w}x{h}: " + axe.report(bad))
        assert d.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), \
            f"{name}: sideways scrolling at {w}px"
        os.makedirs(ARTIFACTS, exist_ok=True)
        if focus:
            d.execute_script("document.querySelector(arguments[0]).scrollIntoView({block: 'center'})", focus)
        else:
            d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(os.path.join(ARTIFACTS, f"sync-{name}-{locale}-{w}x{h}.png"))
    fit_viewport(d, 1280, 800)


def text_of(d, selector):
    return d.find_element(By.CSS_SELECTOR, selector).text


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_a_device_joins_on_its_page_with_a_code_made_on_the_hubs_page_and_is_removed_there(make_steppie, browsers, locale):
    hub = make_steppie(locale=locale, child="Ruby")
    hub.set_pin(PIN)
    hub.serve_args = ["--hub", "127.0.0.1:0"]
    hub.start()
    url, fingerprint = hub_address(hub)
    device = make_steppie(locale=locale, child="Mina")
    device.set_pin(PIN)
    device.start()
    problems = []

    # The hub's page: its fingerprint, then a code for Ruby (real clicks).
    h = browsers()
    sign_in(h, hub, locale)
    tap_and_load(h, 'a[href="/guardian/sync"]', "sync")
    assert h.find_element(By.CSS_SELECTOR, '[data-sync="hub"] [data-fingerprint]').get_attribute("data-fingerprint") == fingerprint
    check_state(h, "hub", locale, problems)
    tap_and_load(h, 'form[data-form="sync-invite"] button[type="submit"]', "sync")
    code = h.find_element(By.CSS_SELECTOR, "[data-code]").get_attribute("data-code")
    assert re.fullmatch(r"\d{4}-\d{4}", code), code
    assert h.find_element(By.CSS_SELECTOR, "[data-invitation] [data-fingerprint]").text == fingerprint
    check_state(h, "hub-code", locale, problems)

    # The device's page: not syncing; join with the address, the code and the typed fingerprint.
    d = browsers()
    sign_in(d, device, locale)
    tap_and_load(d, 'a[href="/guardian/sync"]', "sync")
    assert d.find_elements(By.CSS_SELECTOR, '[data-sync="off"]')
    check_state(d, "off", locale, problems)
    form = d.find_element(By.CSS_SELECTOR, 'form[data-form="sync-join"]')
    form.find_element(By.NAME, "hubURL").send_keys(url)
    form.find_element(By.NAME, "joinCode").send_keys(code)
    form.find_element(By.NAME, "fingerprint").send_keys(fingerprint)
    name = form.find_element(By.NAME, "deviceName")
    name.clear()
    name.send_keys("Kitchen")
    started = time.monotonic()
    tap_and_load(d, 'form[data-form="sync-join"] button[type="submit"]', "sync", 20)
    assert time.monotonic() - started < 15
    assert d.find_elements(By.CSS_SELECTOR, '[data-sync="device"]'), d.page_source
    assert d.find_element(By.CSS_SELECTOR, "[data-hub-url]").get_attribute("data-hub-url") == url
    assert d.find_element(By.CSS_SELECTOR, "[data-pending]").get_attribute("data-pending") == "0", text_of(d, "main")
    assert fingerprint in text_of(d, "main")
    assert d.find_elements(By.CSS_SELECTOR, 'p.notice[role="status"]')
    check_state(d, "device", locale, problems)
    # Joined on the page while the service runs: its background sync takes over (a press here
    # reaches the hub without "Sync now").
    device.cli("complete", "--child", "Mina")
    hub.wait_db("the press on the hub", lambda: hub.completed() == 1, deadline=5.0)
    check_state(d, "device-lower", locale, problems, focus='form[data-form="sync-leave"]')

    # The hub's page lists it with Ruby (given) and Mina (its own, taken with its first push);
    # remove it (asked first).
    h.get(f"{hub.base}/guardian/sync")
    wait_screen(h, "sync")
    cards = h.find_elements(By.CSS_SELECTOR, "li[data-device-id]")
    assert len(cards) == 1 and "Kitchen" in cards[0].text and "Ruby" in cards[0].text, [c.text for c in cards]
    assert "Mina" in cards[0].text
    assert int(cards[0].find_element(By.CSS_SELECTOR, "[data-acknowledged]").get_attribute("data-acknowledged")) > 0
    check_state(h, "hub-device", locale, problems, focus="li[data-device-id]")
    tap_and_load(h, 'form[data-form="sync-remove"] button[type="submit"]', "sync")
    assert h.find_elements(By.CSS_SELECTOR, '[data-confirm="remove"]')
    check_state(h, "hub-remove-confirm", locale, problems, focus='[data-confirm="remove"]')
    tap_and_load(h, 'form[data-form="sync-remove-confirm"] button[type="submit"]', "sync")
    assert h.find_elements(By.CSS_SELECTOR, '[data-devices="none"]')
    assert hub.query("SELECT COUNT(*) FROM sync_devices")[0][0] == 0

    # The device's "Sync now": the hub's refusal in the guardian's words.
    started = time.monotonic()
    tap_and_load(d, 'form[data-form="sync-now"] button[type="submit"]', "sync", 20)
    assert time.monotonic() - started < 15
    alert = text_of(d, '[role="alert"]')
    assert UNKNOWN[locale] in alert, alert
    check_state(d, "device-refused", locale, problems)
    # The last refusal stays on the page afterwards; "Leave the hub" asks first.
    d.get(f"{device.base}/guardian/sync")
    wait_screen(d, "sync")
    assert d.find_element(By.CSS_SELECTOR, "[data-refusal]").get_attribute("data-refusal") == "unknownDevice"
    tap_and_load(d, 'form[data-form="sync-leave"] button[type="submit"]', "sync")
    check_state(d, "device-leave-confirm", locale, problems, focus='[data-confirm="leave"]')
    tap_and_load(d, 'form[data-form="sync-leave-confirm"] button[type="submit"]', "sync")
    assert d.find_elements(By.CSS_SELECTOR, '[data-sync="off"]')
    assert not problems, "\n".join(problems)


def test_joining_a_hub_that_never_answers_is_said_within_15_seconds_and_joins_nothing(make_steppie, browsers):
    """A "hub" that takes the connection and then says nothing (a hung machine): the page's own
    deadlines end the join; the guardian reads why, the device stays off and the form keeps the
    address."""
    import socket
    import threading
    silent = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        silent.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(silent.accept()[0])
            except OSError:
                pass
    threading.Thread(target=accept, daemon=True).start()
    url = f"https://127.0.0.1:{silent.getsockname()[1]}"
    try:
        device = make_steppie(locale="en")
        device.set_pin(PIN)
        device.start()
        d = browsers()
        sign_in(d, device, "en")
        d.get(f"{device.base}/guardian/sync")
        wait_screen(d, "sync")
        form = d.find_element(By.CSS_SELECTOR, 'form[data-form="sync-join"]')
        form.find_element(By.NAME, "hubURL").send_keys(url)
        form.find_element(By.NAME, "joinCode").send_keys("1234-5678")
        form.find_element(By.NAME, "fingerprint").send_keys(":".join(["AB"] * 32))
        started = time.monotonic()
        tap_and_load(d, 'form[data-form="sync-join"] button[type="submit"]', "sync", 30)
        took = time.monotonic() - started
        assert took < 15, took
        alert = text_of(d, '[role="alert"]')
        assert "did not finish the secure connection in time" in alert or "did not answer in time" in alert, alert
        assert d.find_elements(By.CSS_SELECTOR, '[data-sync="off"]')
        assert d.find_element(By.NAME, "hubURL").get_attribute("value") == url
        assert device.query("SELECT COUNT(*) FROM sync_state")[0][0] == 0
        # The other pages were only held for that time: the home page answers at once now.
        d.get(f"{device.base}/guardian/")
        wait_screen(d, "home")
    finally:
        stop.set()
        for c in held:
            c.close()
        silent.close()
