"""A Python snapshot planted in the origin's Cache Storage is never run by the book (issue 15, item 2).

Another page of the same origin (on GitHub Pages, another project of the same owner) builds a
working but malicious snapshot with the site's own runtime, whose ``roll_inline`` answers
"PLANTED", and stores it where the book keeps the memory of the build's snapshot
(tools/snapshot.py). Its SHA-256 is not the manifest's, so the book must start Python afresh and
roll real dice. The control: the same planted memory *is* run when the manifest names its digest,
so the test would notice if the check stopped being applied. A build's snapshot file that differs
from the manifest's digest is not stored. A wheel whose bytes differ from
the manifest's digest stops the live calculators, and so does a Pyodide runtime file (the wasm,
the standard library, the lock file or either module), or the wheels' start-up bytecode, that differs
from the build's digest.
"""

from __future__ import annotations

import json

import pytest

from tests.test_browser import browser, site_url  # noqa: F401 - pytest fixtures

pytestmark = pytest.mark.browser
PAGE = "dice/01-dice-and-odds/"

PLANT = """
async () => {
  const root = new URL("/", location.href);
  const site = new URL("vendor/", root);
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", site).href);
  const manifest = await (await fetch(new URL("wheels/manifest.json", site))).json();
  const py = await loadPyodide({ indexURL: new URL("pyodide/", site).href, _makeSnapshot: true });
  for (const name of manifest.wheels) {
    py.unpackArchive(await (await fetch(new URL(`wheels/${name}`, site))).arrayBuffer(), "wheel");
  }
  py.runPython([
    "import rules_lib.browser as browser",
    "browser.install_ipython_stand_in()",
    "import ipywidgets, rules_lib.dice, rules_lib.widgets, json",
    "browser.roll_inline = lambda text: json.dumps({'ok': True, 'line': 'PLANTED', 'detail': '', 'total': 0})",
  ].join("\\n"));
  const snapshot = py.makeMemorySnapshot();
  // stored as the book stores a memory (live-python-worker.js): its length, the page size, the page
  // count, a byte a page (1: stored), the pages; here every page is stored
  const count = Math.ceil(snapshot.length / 4096);
  const stored = new Blob([new Uint32Array([snapshot.length, 4096, count]), new Uint8Array(count).fill(1), snapshot]);
  const cache = await caches.open("rules-lib-live-snapshots");
  await cache.put(new URL("wheels/python-snapshot-memory", site).href, new Response(stored));
  const digest = await crypto.subtle.digest("SHA-256", snapshot);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
"""


def _plant(context, site_url) -> str:  # noqa: F811
    """Plant a snapshot; the SHA-256 of its memory."""
    attacker = context.new_page()
    attacker.goto(site_url + "404.html")
    digest = attacker.evaluate(PLANT)
    attacker.close()
    return digest


def _roll_on(context, site_url):  # noqa: F811
    page = context.new_page()
    page.goto(site_url + PAGE, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=120_000)
    page.locator("code.rules-lib-dice", has_text="2D6").first.click()
    shown = page.locator(".rules-lib-roll").first
    page.wait_for_function("el => !el.textContent.includes('rolling') && el.textContent.trim()",
                           arg=shown.element_handle(), timeout=60_000)
    result = {"line": shown.inner_text().strip(), "status": page.evaluate("window.rulesLibLive.status"),
              "from_snapshot": page.evaluate("window.rulesLibLive.fromSnapshot === true"),
              "snapshot": page.evaluate("window.rulesLibLive.snapshot")}
    page.close()
    return result


def _manifest_with(context, snapshot_memory_sha256: str | None = None, **changes):
    def handle(route):
        response = route.fetch()
        data = {**response.json(), **changes}
        if snapshot_memory_sha256:
            data["snapshot"] = {**data["snapshot"], "memory_sha256": snapshot_memory_sha256}
        route.fulfill(response=response, body=json.dumps(data), content_type="application/json")

    context.route("**/vendor/wheels/manifest.json", handle)


def test_a_planted_snapshot_is_not_used(browser, site_url):  # noqa: F811
    context = browser.new_context()
    _plant(context, site_url)
    result = _roll_on(context, site_url)
    assert result["status"] == "live" and not result["from_snapshot"]
    assert result["line"].startswith("→ 2D6") and "PLANTED" not in result["line"]
    context.close()


def test_control_the_planted_snapshot_would_run_if_the_manifest_named_its_digest(browser, site_url):  # noqa: F811
    context = browser.new_context()
    _manifest_with(context, snapshot_memory_sha256=_plant(context, site_url))
    result = _roll_on(context, site_url)
    assert result["from_snapshot"] and "PLANTED" in result["line"]
    context.close()


def test_a_snapshot_file_unlike_the_builds_is_not_stored(browser, site_url):  # noqa: F811
    context = browser.new_context()
    context.route("**/vendor/wheels/python-snapshot-*", lambda route: route.fulfill(
        body=b"\x1f\x8b forged", content_type="application/octet-stream"))
    page = context.new_page()
    page.goto(site_url + PAGE, wait_until="load")
    page.wait_for_function("window.rulesLibLive && (window.rulesLibLive.snapshot || '').startsWith('not stored')",
                           timeout=120_000)
    assert page.evaluate("window.rulesLibLive.status") == "live"
    assert "does not match the build's digest" in page.evaluate("window.rulesLibLive.snapshot")
    assert page.evaluate("caches.open('rules-lib-live-snapshots').then((c) => c.keys()).then((k) => k.length)") == 0
    context.close()


@pytest.mark.parametrize(("wheel", "page_path"), [
    ("ipywidgets", PAGE),  # loaded at start (a wheel fetched on first import is checked by tests/test_browser_lazy_wheels.py)
])
def test_a_wheel_that_does_not_match_the_manifest_stops_the_calculators(browser, site_url, wheel, page_path):  # noqa: F811
    context = browser.new_context()
    context.route(f"**/vendor/wheels/{wheel}-*.whl", lambda route: route.fulfill(body=b"PK forged", status=200))
    page = context.new_page()
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=120_000)
    assert page.evaluate("window.rulesLibLive.status") == "failed"
    assert "does not match the build's digest" in page.evaluate("window.rulesLibLive.error")
    context.close()


def test_bytecode_that_does_not_match_the_manifest_stops_the_calculators(browser, site_url):  # noqa: F811
    # the start-up modules compiled at build time (tools/precompile.py) run unchecked against their
    # sources, so they are checked as the wheels are
    context = browser.new_context()
    context.route("**/vendor/wheels/start-bytecode.zip", lambda route: route.fulfill(body=b"PK forged", status=200))
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed"
    assert "the bytecode start-bytecode.zip does not match the build's digest" in result["error"]
    context.close()


def _status_after_start(context, site_url, page_path=PAGE):  # noqa: F811
    page = context.new_page()
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=120_000)
    result = {"status": page.evaluate("window.rulesLibLive.status"),
              "error": page.evaluate("window.rulesLibLive.error || ''"),
              "notice": page.locator(".rules-lib-live-status").first.inner_text(),
              "stored": page.locator(".widget-html").first.inner_text()}
    page.close()
    return result


@pytest.mark.parametrize("runtime_file", ["python_stdlib.zip", "pyodide.asm.wasm", "pyodide.asm.mjs"])
def test_a_runtime_file_that_does_not_match_the_manifest_stops_the_calculators(browser, site_url, runtime_file):  # noqa: F811
    context = browser.new_context()
    context.route(f"**/vendor/pyodide/{runtime_file}", lambda route: route.fulfill(body=b"forged", status=200))
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed"
    assert f"the runtime file {runtime_file} does not match the build's digest" in result["error"]
    # the page says so and keeps the values computed when the book was built
    assert "could not start" in result["notice"] and "success 1/6 (16.67%)" in result["stored"]
    context.close()


def test_a_manifest_without_runtime_digests_stops_the_calculators(browser, site_url):  # noqa: F811
    context = browser.new_context()
    _manifest_with(context, runtime={})
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed" and "has no digest in the build manifest" in result["error"]
    context.close()


def test_control_the_checked_runtime_goes_live(browser, site_url):  # noqa: F811
    context = browser.new_context()
    result = _status_after_start(context, site_url)
    assert result["status"] == "live", result["error"]
    context.close()


def test_pyodide_runs_the_checked_bytes_not_a_second_download(browser, site_url):  # noqa: F811
    """Each runtime file is requested once: any later request would get forged bytes, yet the page goes live."""
    context = browser.new_context()
    requests: dict[str, int] = {}

    def genuine_once(route):
        name = route.request.url.rsplit("/", 1)[-1]
        requests[name] = requests.get(name, 0) + 1
        if requests[name] == 1:
            route.fulfill(response=route.fetch())
        else:
            route.fulfill(body=b"forged on the second request", status=200)

    context.route("**/vendor/pyodide/*", genuine_once)
    result = _status_after_start(context, site_url)
    assert result["status"] == "live", result["error"]
    assert requests == {name: 1 for name in
                        ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")}
    context.close()
