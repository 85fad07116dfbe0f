"""axe-core in Selenium: injects the axe.min.js that the pinned `axe-playwright-python` wheel ships
(axe-core 4.12; the package is installed without its Playwright dependency and never imported, only
its script file is read) and runs it on the page the driver shows."""
import importlib.util
import os
import re

MINIMUM = (4, 12)
SERIOUS = ("serious", "critical")


def _source():
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("axe-playwright-python is not installed (scripts/browser-env.sh installs it)")
    path = os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js")
    with open(path, encoding="utf-8") as f:
        return f.read()


SOURCE = _source()
_version = re.match(r"/\*! axe v(\d+)\.(\d+)\.(\d+)", SOURCE)
VERSION = tuple(int(x) for x in _version.groups()) if _version else (0, 0, 0)
if VERSION[:2] < MINIMUM:
    raise RuntimeError(f"axe-core {VERSION} is older than {MINIMUM}")


def run(driver):
    """axe's results for the whole document; raises when the page's axe is not the one injected."""
    driver.execute_script(SOURCE)
    results = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r), e => done({error: String(e)}));")
    if "error" in results:
        raise RuntimeError(f"axe failed: {results['error']}")
    engine = results.get("testEngine", {}).get("version", "")
    assert engine == ".".join(map(str, VERSION)), f"axe on the page is {engine}, injected {VERSION}"
    return results


def serious(results):
    """The violations of impact serious or critical."""
    return [v for v in results["violations"] if v.get("impact") in SERIOUS]


def report(violations):
    """One line per violation: rule, impact, up to three targets and the first failure summary."""
    lines = []
    for v in violations:
        targets = [n["target"] for n in v["nodes"]][:3]
        summary = (v["nodes"][0].get("failureSummary") or "").replace("\n", " ") if v["nodes"] else ""
        lines.append(f"{v['id']} ({v['impact']}): {targets} {summary}")
    return "\n".join(lines)
