"""On paper (#26 item 8): a set's picture schedule and a child's month report, printed by
Chromium to PDF (CDP `Page.printToPDF` with `preferCSSPageSize`, so the page's own `@page` size
is the paper), read back with poppler (`pdfinfo`, `pdftotext -bbox`) and rendered to PNG with
`pdftoppm` to be looked at.

A set of 12 routines (one with a photo added through the routine form) spans two sheets of six;
every title must be printed exactly once, each on the sheet its place puts it on, and no sheet
may spill onto a third page (a card cut across pages would). The days of December 2025 are made
with `STEPPIE_NOW`, with guardian corrections on them for the report.
"""

import base64
import html
import os
import re
import shutil
import subprocess

import pytest
import axe
from selenium.webdriver.common.by import By

from harness import *  # noqa: F401,F403
from harness import make_steppie, browsers  # noqa: F401
from test_guardian import PIN, png_file, sign_in, shot

TITLES = {
    "en": ["Wake up", "Wash face", "Brush teeth", "Get dressed", "Breakfast", "Vitamins", "Comb hair",
           "Pack the bag", "Put on shoes", "Jacket on", "Walk to school", "Feed the cat"],
    "ko": ["일어나기", "세수하기", "이 닦기", "옷 입기", "아침 먹기", "비타민 먹기", "머리 빗기",
           "가방 챙기기", "신발 신기", "외투 챙기기", "학교 걸어가기", "고양이 밥 주기"],
}
ICONS = ["alarm", "face-wash", "toothbrush", "shirt", "breakfast", "medicine", "comb", "backpack", "shoes", "jacket", "walk"]
SET_NAME = {"en": "Weekday start", "ko": "평일 아침"}
# Paper sizes in PostScript points, as pdfinfo prints them.
PAPER = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
DECEMBER_1 = "2025-12-01T08:00:00+09:00"
DECEMBER_20 = "2025-12-20T09:00:00+09:00"


def print_setup(make_steppie, locale):
    """Mina, whose language is `locale`, with an active set of 11 routines made on 1 December
    2025 (the 12th, with a photo, is added in the browser), some days done and corrected; the
    service runs on 20 December 2025."""
    s = make_steppie(locale=locale)
    s.env["STEPPIE_NOW"] = DECEMBER_1
    s.cli("set", "create", "--child", "Mina", "--name-ko", SET_NAME["ko"], "--name-en", SET_NAME["en"])
    set_id = s.query("SELECT id FROM routine_sets WHERE is_active = 0")[0][0]
    for i, icon in enumerate(ICONS):
        args = ["routine", "add", "--child", "Mina", "--set", set_id, "--title-ko", TITLES["ko"][i], "--title-en", TITLES["en"][i],
                "--icon", icon, "--color", ["sky", "mint", "lemon", "peach", "lavender", "rose"][i % 6]]
        if i < 4:
            args += ["--time", f"07:{i * 10:02d}"]
        s.cli(*args)
    s.cli("set", "activate", set_id)
    routines = [r[0] for r in s.query("SELECT id FROM routines WHERE routine_set_id = ? ORDER BY sort_order", set_id)]
    assert len(routines) == 11
    # Corrections on 20 December: the first three routines done on 1–5 December, the first one
    # taken back on the 3rd.
    s.env["STEPPIE_NOW"] = DECEMBER_20
    for routine in routines[:3]:
        for day in range(1, 6):
            s.cli("history", "set", f"2025-12-{day:02d}", routine, "done", "--child", "Mina")
    s.cli("history", "set", "2025-12-03", routines[0], "not-done", "--child", "Mina")
    s.set_pin(PIN)
    s.start()
    return s, set_id


def pdf_of(driver, path):
    """The page printed by Chromium, honouring the page's @page size."""
    pdf = driver.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
    with open(path, "wb") as f:
        f.write(base64.b64decode(pdf["data"]))
    return path


def page_sizes(pdf):
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", pdf], capture_output=True, text=True, check=True).stdout
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", out)]


def words_by_page(pdf):
    """The words of each page (pdftotext -bbox), whitespace removed and joined in reading order,
    with every word's box, to find titles split over lines."""
    out = subprocess.run(["pdftotext", "-bbox", pdf, "-"], capture_output=True, text=True, check=True).stdout
    pages = []
    for page in re.findall(r"<page width=\"([\d.]+)\" height=\"([\d.]+)\">(.*?)</page>", out, re.S):
        width, height, body = float(page[0]), float(page[1]), page[2]
        words = [(float(a), float(b), float(c), float(d), html.unescape(w))
                 for a, b, c, d, w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', body)]
        pages.append({"width": width, "height": height, "words": words, "text": "".join(w[4] for w in words)})
    return pages


def render(pdf, prefix):
    """Each page as a PNG at 60 dpi: <prefix>-1.png, <prefix>-2.png, …"""
    subprocess.run(["pdftoppm", "-png", "-r", "60", pdf, prefix], check=True)
    return sorted(p for p in os.listdir(os.path.dirname(prefix)) if p.startswith(os.path.basename(prefix) + "-"))


def keep(directory, names, label):
    os.makedirs(ARTIFACTS, exist_ok=True)
    for name in names:
        shutil.copy(os.path.join(directory, name), os.path.join(ARTIFACTS, f"print-{label}-{name.rsplit('-', 1)[1]}"))


def squeeze(text):
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_the_printed_schedule_has_every_card_once_whole_on_its_sheet_on_a4_and_letter(make_steppie, browsers, locale):
    s, set_id = print_setup(make_steppie, locale)
    d = browsers()
    sign_in(d, s, lang=locale)
    # The 12th card: a photo, through the routine form as a guardian adds one.
    d.get(f"{s.base}/guardian/child/{s.query('SELECT id FROM children')[0][0]}/routines?set={set_id}")
    wait_screen(d, "routines")
    form = d.find_element(By.CSS_SELECTOR, 'form[data-form="routine"]')
    form.find_element(By.NAME, "titleEn").send_keys(TITLES["en"][11])
    form.find_element(By.NAME, "titleKo").send_keys(TITLES["ko"][11])
    form.find_element(By.NAME, "photo").send_keys(png_file(os.path.join(s.dir, "cat.png"), 96, 96, (230, 140, 60)))
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait_screen(d, "routines")
    assert not d.find_elements(By.CSS_SELECTOR, ".error")
    # From the routines page, as a guardian gets there.
    tap_and_load(d, 'a[data-link="print-schedule"]', "print-schedule")
    titles = TITLES[locale]
    for paper in ("a4", "letter"):
        d.get(f"{s.base}/guardian/set/{set_id}/print?paper={paper}&lang={locale}")
        wait_screen(d, "print-schedule")
        assert d.execute_script("return document.documentElement.className") == f"paper-{paper}"
        # Every picture loaded (the photo too, behind the session) before printing.
        wait_js(d, "return Array.from(document.images).every(function (i) { return i.complete && i.naturalWidth > 0; })",
                "every card's picture")
        shown = [e.text for e in d.find_elements(By.CSS_SELECTOR, ".sched-card .title")]
        assert shown == titles, shown
        bad = axe.serious(axe.run(d))
        assert not bad, axe.report(bad)
        shot(d, f"print-schedule-{paper}-{locale}")
        pdf = pdf_of(d, os.path.join(s.dir, f"schedule-{paper}.pdf"))
        sizes = page_sizes(pdf)
        assert len(sizes) == 2, sizes   # 12 cards, 6 to a sheet: a card cut across pages would make a third
        for w, h in sizes:
            assert abs(w - PAPER[paper][0]) < 1.5 and abs(h - PAPER[paper][1]) < 1.5, (paper, sizes)
        pages = words_by_page(pdf)
        everything = "".join(p["text"] for p in pages)
        for i, title in enumerate(titles):
            assert everything.count(squeeze(title)) == 1, (title, everything)
            page = pages[i // 6]
            assert squeeze(title) in page["text"], (paper, title, i // 6 + 1, page["text"])
        for n, page in enumerate(pages, 1):
            # The sheet's header on each page, and nothing outside the paper.
            assert squeeze(SET_NAME[locale]) in page["text"] and "Mina" in page["text"], page["text"]
            for x0, y0, x1, y1, word in page["words"]:
                assert 0 <= x0 and x1 <= page["width"] and 0 <= y0 and y1 <= page["height"], (paper, n, word)
            # Nothing of the screen: no navigation, no Print button.
            for word in ("Print", "인쇄하기", "Sign", "A4"):
                assert word not in page["text"], (paper, n, word)
        keep(s.dir, render(pdf, os.path.join(s.dir, f"schedule-{paper}")), f"schedule-{paper}-{locale}")


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_the_printed_month_report_has_every_routine_and_correction_on_its_paper(make_steppie, browsers, locale):
    s, set_id = print_setup(make_steppie, locale)
    d = browsers()
    sign_in(d, s, lang=locale)
    child = s.query("SELECT id FROM children")[0][0]
    d.get(f"{s.base}/guardian/child/{child}/history?month=2025-12")
    wait_screen(d, "history")
    tap_and_load(d, 'a[data-link="print-report"]', "print-report")
    assert "month=2025-12" in d.current_url
    titles = TITLES[locale][:11]
    corrections = s.query("SELECT count(*) FROM log_corrections")[0][0]
    assert corrections == 16
    for paper in ("a4", "letter"):
        d.get(f"{s.base}/guardian/child/{child}/report?month=2025-12&paper={paper}&lang={locale}")
        wait_screen(d, "print-report")
        rows = d.find_elements(By.CSS_SELECTOR, 'table[data-table="routines"] tbody tr')
        assert [r.find_element(By.CSS_SELECTOR, "th").text for r in rows] == titles
        # The first routine: done 1, 2, 4, 5 December of the 20 days (its 3rd taken back).
        assert rows[0].find_element(By.CSS_SELECTOR, "td").get_attribute("data-value") == "4/20"
        assert len(d.find_elements(By.CSS_SELECTOR, 'table[data-table="corrections"] tbody tr')) == corrections
        bad = axe.serious(axe.run(d))
        assert not bad, axe.report(bad)
        shot(d, f"print-report-{paper}-{locale}")
        pdf = pdf_of(d, os.path.join(s.dir, f"report-{paper}.pdf"))
        sizes = page_sizes(pdf)
        for w, h in sizes:
            assert abs(w - PAPER[paper][0]) < 1.5 and abs(h - PAPER[paper][1]) < 1.5, (paper, sizes)
        pages = words_by_page(pdf)
        everything = "".join(p["text"] for p in pages)
        for title in titles:
            # Once in the routines' table, and in the corrections' table for the three corrected.
            expected = 1 + (5 if title == titles[0] else 5 if title in titles[1:3] else 0) + (1 if title == titles[0] else 0)
            assert everything.count(squeeze(title)) == expected, (title, everything.count(squeeze(title)), expected)
        for n, page in enumerate(pages, 1):
            for x0, y0, x1, y1, word in page["words"]:
                assert 0 <= x0 and x1 <= page["width"] and 0 <= y0 and y1 <= page["height"], (paper, n, word)
            assert "인쇄하기" not in page["text"] and "Print" not in page["text"]
        keep(s.dir, render(pdf, os.path.join(s.dir, f"report-{paper}")), f"report-{paper}-{locale}")
