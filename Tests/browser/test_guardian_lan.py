"""`steppie serve --guardian-lan` (issue 14 item 8): the guardian pages from a phone on the home
network, HTTPS only, with the device's own certificate.

The "home network" is 127.0.0.1 on a free port (no real network here). The certificate is
checked the way a guardian would: its SHA-256 fingerprint, computed here from the certificate
the server presents in the handshake (Python's ssl + hashlib), must equal the one the serve log
and `steppie service status --json` show, and stay the same after a restart.
"""

import hashlib
import json
import os
import re
import socket
import ssl
import stat
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service as ChromeService
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import Steppie, make_steppie, free_port, fit_viewport  # noqa: F401

PIN = "2468"
FINGERPRINT = re.compile(r"(?:[0-9A-F]{2}:){31}[0-9A-F]{2}")


def lan(make_steppie, locale="en"):
    """A database with a PIN and a service with the guardian pages on 127.0.0.1:<free port> too."""
    s = make_steppie(locale=locale)
    s.set_pin(PIN)
    s.lan_port = free_port()
    s.serve_args = ["--guardian-lan", f"127.0.0.1:{s.lan_port}"]
    s.start()
    return s


def lan_base(s):
    return f"https://127.0.0.1:{s.lan_port}"


def tls_folder(s):
    return os.path.join(s.dir, "tls")


def pinned_context(s):
    """Trusts only the certificate stored beside the database, for the name 127.0.0.1."""
    return ssl.create_default_context(cafile=os.path.join(tls_folder(s), "guardian-cert.pem"))


def served_fingerprint(s):
    """SHA-256 of the DER certificate the server presents, as browsers show it."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", s.lan_port), timeout=5) as raw:
        with ctx.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            der = tls.getpeercert(binary_form=True)
    return ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest())


def logged_fingerprints(s):
    return [m for line in s.log().splitlines() if "https://" in line for m in FINGERPRINT.findall(line)]


def status_json(s):
    return json.loads(s.cli("service", "status", "--json"))


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(s, path, method="GET", data=None, headers=None):
    """One HTTPS request verified against the stored certificate: (status, headers, body)."""
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=pinned_context(s)), _KeepRedirects)
    req = urllib.request.Request(lan_base(s) + path, data=data, headers=headers or {}, method=method)
    try:
        with opener.open(req, timeout=10) as r:
            return r.status, r.headers, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode()


def plain_reply(port, path="/guardian/"):
    """What a plain-HTTP request to the port gets back (bytes; empty when the server just closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as c:
        c.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        data = b""
        try:
            while True:
                chunk = c.recv(65536)
                if not chunk:
                    break
                data += chunk
        except (ConnectionResetError, socket.timeout):
            pass
    return data


# --------------------------------------------------------------------------- HTTPS only

def test_plain_http_is_refused_and_https_serves_the_stored_certificate_whose_fingerprint_is_shown(make_steppie):
    s = lan(make_steppie)
    reply = plain_reply(s.lan_port)
    assert b"HTTP/1." not in reply and b"<html" not in reply, reply[:200]

    status, _, body = fetch(s, "/guardian/")  # verified: the stored certificate, naming 127.0.0.1
    assert status == 200 and 'data-screen="sign-in"' in body

    served = served_fingerprint(s)
    logged = logged_fingerprints(s)
    assert logged == [served], s.log()
    assert "made a new certificate" in s.log()
    lan_status = status_json(s)["guardianLAN"]
    assert lan_status == {"url": f"{lan_base(s)}/guardian/", "fingerprint": served}
    assert served in s.cli("service", "status")

    folder = tls_folder(s)
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    for name in ("guardian-cert.pem", "guardian-key.pem"):
        assert stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode) == 0o600, name
    with open(os.path.join(folder, "guardian-cert.pem"), "rb") as f:
        der = ssl.PEM_cert_to_DER_cert(f.read().decode())
    assert ":".join(f"{b:02X}" for b in hashlib.sha256(der).digest()) == served

    # A restart serves the same certificate: the guardian's check still holds.
    s.restart()
    end = time.monotonic() + 10
    while time.monotonic() < end and len(logged_fingerprints(s)) < 2:
        time.sleep(0.05)
    assert logged_fingerprints(s) == [served, served]
    assert s.log().count("made a new certificate") == 1
    assert served_fingerprint(s) == served
    assert status_json(s)["guardianLAN"]["fingerprint"] == served


def test_the_child_page_and_its_actions_are_not_found_on_the_home_network(make_steppie):
    s = lan(make_steppie)
    child = s.query("SELECT id FROM children")[0][0]
    before = s.dump()
    for path in (f"/child/{child}", f"/api/child/{child}/state", f"/api/child/{child}/events", "/api/children",
                 "/static/child.js", "/index.html"):
        assert fetch(s, path)[0] == 404, path
    for action in ("done", "undo", "next"):
        status, _, _ = fetch(s, f"/api/child/{child}/{action}", method="POST", data=b'{"version":0}',
                             headers={"Content-Type": "application/json", "Origin": lan_base(s)})
        assert status == 404, action
    assert s.dump() == before
    status, headers, _ = fetch(s, "/")
    assert status == 302 and headers["Location"] == "/guardian/"
    # The kiosk's own page on loopback is unchanged.
    with urllib.request.urlopen(s.url, timeout=5) as r:
        assert r.status == 200


# --------------------------------------------------------------------------- a phone's browser

def test_a_guardian_signs_in_from_the_phone_and_the_session_cookie_is_secure(make_steppie):
    s = lan(make_steppie)
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--window-size=412,915", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions", "--force-device-scale-factor=1"):
        opts.add_argument(arg)
    # The browser's "proceed anyway" after the guardian compared the fingerprint.
    opts.accept_insecure_certs = True
    d = webdriver.Chrome(service=ChromeService(CHROMEDRIVER), options=opts)
    try:
        fit_viewport(d, 412, 915)
        d.get(f"{lan_base(s)}/guardian/?lang=en")
        wait_screen(d, "sign-in", 10)
        for digit in PIN:
            tap(d, f'button[data-digit="{digit}"]')
        tap(d, 'button[data-pad="enter"]')
        wait_screen(d, "home", 10)
        assert "Mina" in d.find_element(By.TAG_NAME, "main").text
        # On the phone: no way to the child's screen, no fingerprint box (that is the kiosk's).
        assert not d.find_elements(By.CSS_SELECTOR, 'a[href="/"]') and not d.find_elements(By.CSS_SELECTOR, "[data-fingerprint]")
        cookie = d.get_cookie("steppie_guardian")
        assert cookie and cookie["secure"] and cookie["httpOnly"] and cookie.get("sameSite") == "Strict", cookie
        os.makedirs(ARTIFACTS, exist_ok=True)
        d.save_screenshot(os.path.join(ARTIFACTS, "guardian-lan-home-en-412x915.png"))
        # A form posted from the phone's page is accepted (Origin https://…): sign out.
        tap(d, 'form.sign-out button')
        wait_screen(d, "sign-in", 10)
    finally:
        d.quit()


def test_the_kiosks_guardian_screen_shows_the_fingerprint_to_compare(make_steppie, browsers):
    s = lan(make_steppie)
    served = served_fingerprint(s)
    d = browsers()
    d.get(f"{s.base}/guardian/?lang=en")
    wait_screen(d, "sign-in", 10)
    for digit in PIN:
        tap(d, f'button[data-digit="{digit}"]')
    tap(d, 'button[data-pad="enter"]')
    wait_screen(d, "home", 10)
    shown = d.find_element(By.CSS_SELECTOR, "[data-fingerprint]")
    assert shown.get_attribute("data-fingerprint") == served and shown.text == served
    assert f"{lan_base(s)}/guardian/" in d.find_element(By.CSS_SELECTOR, '[data-lan="on"]').text
