"""Browser test of the child's page when a tap cannot be saved (issue 24, class 10).

The disk is really full: the database lives on a 4 MiB tmpfs that a filler file fills (root only,
as mounting needs it). The tap's answer and the page show the gentle "not saved" state, nothing
is recorded, the service's log names the lost tap, and once there is room again the next tap is
saved and the notice goes away. Every wait is a deadline on the page's hooks or on the database.
"""

import errno
import glob
import os
import shutil
import subprocess
import time

import pytest

from harness import *  # noqa: F401,F403
from harness import Steppie, make_steppie, browsers  # noqa: F401


def fill(path):
    """Writes zeros to `path` until the file system says it is full; the bytes written."""
    written = 0
    with open(path, "wb", buffering=0) as f:
        block = b"\0" * 65536
        while True:
            try:
                written += f.write(block)
            except OSError as e:
                assert e.errno == errno.ENOSPC, e
                return written


def notice(driver):
    return driver.execute_script(
        "var n = document.getElementById('notice');"
        "return {attr: document.documentElement.getAttribute('data-notice'), shown: !n.hidden && n.offsetParent !== null,"
        " text: document.getElementById('notice-text').textContent};")


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root")
def test_a_tap_on_a_full_disk_shows_not_saved_and_the_log_says_so(make_steppie, browsers):
    s = make_steppie(locale="en")
    disk = os.path.join(s.dir, "disk")
    os.mkdir(disk)
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk], check=True)
    try:
        for name in glob.glob(s.db + "*"):
            shutil.copy(name, disk)
        s.db = os.path.join(disk, os.path.basename(s.db))
        s.env["STEPPIE_DB"] = s.db
        s.start()
        d = open_page(browsers(), s)
        assert notice(d) == {"attr": None, "shown": False, "text": ""}
        filler = os.path.join(disk, "filler")
        print(f"filled the disk with {fill(filler)} bytes")

        tap(d, DONE)
        wait_js(d, "return document.documentElement.getAttribute('data-notice') === 'saveFailed'",
                "the page's not-saved notice")
        shown = notice(d)
        words = s.state()["labels"]["notSaved"]
        assert words and shown == {"attr": "saveFailed", "shown": True, "text": words}, shown
        assert s.state()["notice"] == "saveFailed"
        assert s.completed() == 0
        wait_screen(d, "current")
        os.makedirs(ARTIFACTS, exist_ok=True)
        d.save_screenshot(os.path.join(ARTIFACTS, "en-1280x800-not-saved.png"))
        end = time.monotonic() + 5
        while "a tap on the child's page was not saved" not in s.log() and time.monotonic() < end:
            time.sleep(0.05)
        assert "Mina: a tap on the child's page was not saved (done)" in s.log(), s.log()

        # Room again: the same card, tapped again, is saved and the notice goes.
        os.unlink(filler)
        tap(d, DONE)
        wait_screen(d, "undo")
        wait_js(d, "return !document.documentElement.hasAttribute('data-notice')", "the notice gone")
        s.wait_db("the completion saved", lambda: s.completed() == 1)
    finally:
        s.stop()
        subprocess.run(["umount", "-l", disk], check=False)
