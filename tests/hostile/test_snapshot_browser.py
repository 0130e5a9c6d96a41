"""Only the build's own bytes are ever run in the reader's browser (issue 15, item 2).

A page restores Python from the build's memory snapshot of its calculators (tools/snapshot.py),
fetched like any other file. Here a working but malicious snapshot, made with the site's own
runtime and whose ``roll_inline`` answers "PLANTED", is served in place of the build's (a forged
file on the way, or on the server): its SHA-256 is not the manifest's, so the book must start
Python afresh and roll real dice. The control: the same planted snapshot *is* run when the manifest
names its digest, so the test would notice if the check stopped being applied. Nothing is read from
the origin's Cache Storage, which other projects of the same GitHub Pages owner share: a memory
planted there is not run either.

A Pyodide runtime file (the wasm, either module, the lock file) that differs from the build's
digest stops the live calculators. A wheel, the wheels' start-up bytecode or the standard library
that differs stops them on a fresh start; after a restore, which fetches those files only once the
page is quiet (or when Python first needs them), they are refused then, never written, and the
page says so.

Each page here runs Python in a dedicated worker (`with_dedicated_python`): Playwright neither
routes nor sees a shared worker's requests, and the checks are the same script's either way.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from urllib.parse import urljoin, urlparse

import pytest

from tests.test_browser import (  # noqa: F401 - pytest fixtures
    browser,
    built_site,
    shown_text,
    site_url,
    with_dedicated_python,
)

pytestmark = pytest.mark.browser
PAGE = "dice/01-dice-and-odds/"

#: a working snapshot made with the site's runtime, whose roll_inline answers PLANTED; its memory is
#: XOR-ed as the build's are (javascripts/python-memory.js) and sent gzipped to the test
PLANT = """
async () => {
  const root = new URL("/", location.href);
  const site = new URL("vendor/", root);
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", site).href);
  const { xorWithStartMemory } = await import(new URL("javascripts/python-memory.js", root).href);
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
  const wasm = new Uint8Array(await (await fetch(new URL("pyodide/pyodide.asm.wasm", site))).arrayBuffer());
  const memory = xorWithStartMemory(py.makeMemorySnapshot(), wasm);
  const zipped = await new Response(new Blob([memory]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  let text = "";
  const bytes = new Uint8Array(zipped);
  for (let at = 0; at < bytes.length; at += 32768) text += String.fromCharCode(...bytes.subarray(at, at + 32768));
  // and, where the book kept a snapshot's memory before it was served as a file, the same memory
  const cache = await caches.open("rules-lib-live-snapshots");
  await cache.put(new URL("wheels/python-snapshot-memory", site).href, new Response(memory));
  return btoa(text);
}
"""


def zstd_frame(data: bytes) -> bytes:
    """``data`` as one zstd frame (RFC 8878) of raw blocks, and of one-byte (RLE) blocks where a block
    repeats one byte (the memory's zeros): what the worker unpacks, written without a compressor."""
    block = 1 << 17  # the largest block a frame may hold
    header = b"\x28\xb5\x2f\xfd" + bytes([0xA0]) + len(data).to_bytes(4, "little")  # single segment, 4-byte size
    blocks = []
    for at in range(0, len(data), block):
        chunk = data[at:at + block]
        last = int(at + block >= len(data))
        if chunk == chunk[:1] * len(chunk):
            blocks.append(((len(chunk) << 3) | (1 << 1) | last).to_bytes(3, "little") + chunk[:1])  # type 1: RLE
        else:
            blocks.append(((len(chunk) << 3) | last).to_bytes(3, "little") + chunk)  # type 0: raw
    return header + b"".join(blocks)


@pytest.fixture(scope="module")
def attacker(browser, site_url):  # noqa: F811
    """A context where another page of the origin made a planted snapshot (and left its memory in
    Cache Storage, where the book once kept one), and that snapshot as a file the worker would restore."""
    context = with_dedicated_python(browser.new_context())
    page = context.new_page()
    page.goto(site_url + "404.html")
    memory = gzip.decompress(base64.b64decode(page.evaluate(PLANT)))
    page.close()
    yield context, zstd_frame(memory)
    context.close()


@pytest.fixture(scope="module")
def planted(attacker):
    return attacker[1]


def _roll_on(context, site_url):  # noqa: F811
    page = context.new_page()
    page.goto(site_url + PAGE, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=120_000)
    page.locator("code.rules-lib-dice", has_text="2D6").first.click()
    shown = page.locator(".rules-lib-roll").first
    page.wait_for_function("el => !el.textContent.includes('rolling') && el.textContent.trim()",
                           arg=shown.element_handle(), timeout=60_000)
    result = {"line": shown_text(shown).strip(), "status": page.evaluate("window.rulesLibLive.status"),
              "from_snapshot": page.evaluate("window.rulesLibLive.fromSnapshot === true"),
              "snapshot": page.evaluate("window.rulesLibLive.snapshot")}
    page.close()
    return result


def _manifest_with(context, change, *, named_by_the_pages=True):
    """Every page of ``context`` reads the build's manifest as ``change(manifest)`` returns it and,
    unless not ``named_by_the_pages``, names that manifest's digest as if built with it (its
    rules-lib-manifest meta, tools/site_policy.py), so that the worker's other checks meet it."""
    forged: dict[str, bytes] = {}

    def body(url: str) -> bytes:
        if "manifest" not in forged:
            forged["manifest"] = json.dumps(change(context.request.get(url).json())).encode()
        return forged["manifest"]

    def manifest(route):
        route.fulfill(body=body(route.request.url), content_type="application/json")

    def page(route):
        response = route.fetch()
        digest = hashlib.sha256(body(urljoin(route.request.url, "/vendor/wheels/manifest.json"))).hexdigest()
        html, named = re.subn(r'(<meta name="rules-lib-manifest" content=")[0-9a-f]{64}', rf"\g<1>{digest}", response.text())
        assert named == 1, f"{route.request.url} names no manifest"
        route.fulfill(response=response, body=html)

    context.route("**/vendor/wheels/manifest.json", manifest)
    if named_by_the_pages:
        context.route(lambda url: urlparse(url).path.endswith(("/", ".html")), page)


def _serve_as_the_dice_snapshot(context, body: bytes) -> None:
    context.route("**/vendor/wheels/python-snapshot-dice-odds-*", lambda route: route.fulfill(
        body=body, content_type="application/octet-stream"))


def _dice_snapshot(manifest: dict) -> str:
    return next(s["file"] for s in manifest["snapshots"] if "rules_lib.widgets.dice_odds" in s["modules"])


def test_a_planted_snapshot_is_not_used(browser, site_url, planted):  # noqa: F811
    context = with_dedicated_python(browser.new_context())
    _serve_as_the_dice_snapshot(context, planted)
    result = _roll_on(context, site_url)
    assert result["status"] == "live" and not result["from_snapshot"]
    assert result["snapshot"].startswith("not restored: the snapshot python-snapshot-dice-odds-")
    assert result["snapshot"].endswith("does not match the build's digest")
    assert result["line"].startswith("→ 2D6") and "PLANTED" not in result["line"]
    context.close()


def test_control_the_planted_snapshot_would_run_if_the_manifest_named_its_digest(browser, site_url, planted):  # noqa: F811
    context = with_dedicated_python(browser.new_context())
    _serve_as_the_dice_snapshot(context, planted)
    digest = hashlib.sha256(planted).hexdigest()
    _manifest_with(context, lambda m: {**m, "sha256": {**m["sha256"], _dice_snapshot(m): digest}})
    result = _roll_on(context, site_url)
    assert result["from_snapshot"] and "PLANTED" in result["line"]
    context.close()


def test_a_memory_planted_in_cache_storage_is_not_read(site_url, attacker):  # noqa: F811
    context, _ = attacker  # its Cache Storage holds the planted memory
    result = _roll_on(context, site_url)
    assert result["from_snapshot"] and result["snapshot"] == "restored"  # the build's own snapshot
    assert result["line"].startswith("→ 2D6") and "PLANTED" not in result["line"]
    # and the book frees that old store of its own
    page = context.new_page()
    page.goto(site_url + "404.html")
    assert page.evaluate("caches.has('rules-lib-live-snapshots')") is False
    page.close()


def _status_after_start(context, site_url, page_path=PAGE, wait_for_deferred=False):  # noqa: F811
    page = context.new_page()
    page.goto(site_url + page_path, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=120_000)
    if wait_for_deferred:
        page.wait_for_function("window.rulesLibLive.deferred", timeout=60_000)
    result = {"status": page.evaluate("window.rulesLibLive.status"),
              "error": page.evaluate("window.rulesLibLive.error || ''"),
              "deferred": page.evaluate("window.rulesLibLive.deferred || ''"),
              "notice": shown_text(page.locator(".rules-lib-live-status").first),
              "stored": shown_text(page.locator(".widget-html").first)}
    page.close()
    return result


def _without_snapshots(context):
    _manifest_with(context, lambda m: {**m, "snapshots": []})


@pytest.mark.parametrize(("route", "named"), [
    ("**/vendor/wheels/ipywidgets-*.whl", "the wheel ipywidgets-"),
    ("**/vendor/wheels/start-bytecode.zip", "the bytecode start-bytecode.zip"),
    ("**/vendor/pyodide/python_stdlib.zip", "the runtime file python_stdlib.zip"),
])
def test_a_deferred_file_that_does_not_match_the_manifest_is_refused(browser, site_url, route, named):  # noqa: F811
    # a fresh start needs it at once: the calculators stop
    context = with_dedicated_python(browser.new_context())
    context.route(route, lambda r: r.fulfill(body=b"PK forged", status=200))
    _without_snapshots(context)
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed" and named in result["error"] and "does not match the build's digest" in result["error"]
    context.close()
    # a restore fetches it once the page is quiet, and refuses it then: never written, never run
    context = with_dedicated_python(browser.new_context())
    context.route(route, lambda r: r.fulfill(body=b"PK forged", status=200))
    result = _status_after_start(context, site_url, wait_for_deferred=True)
    assert result["status"] == "live"
    assert result["deferred"].startswith("failed: ") and named in result["deferred"]
    assert "does not match the build's digest" in result["deferred"]
    context.close()


@pytest.mark.parametrize("runtime_file", ["pyodide.asm.wasm.gz", "pyodide.asm.mjs.gz", "pyodide-lock.json"])
def test_a_runtime_file_that_does_not_match_the_manifest_stops_the_calculators(browser, site_url, runtime_file):  # noqa: F811
    context = with_dedicated_python(browser.new_context())
    context.route(f"**/vendor/pyodide/{runtime_file}", lambda route: route.fulfill(body=b"forged", status=200))
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed"
    assert f"the runtime file {runtime_file} does not match the build's digest" in result["error"]
    # the page says so and keeps the values computed when the book was built
    assert "could not start" in result["notice"] and "success 1/6 (16.67%)" in result["stored"]
    context.close()


def test_a_manifest_without_runtime_digests_stops_the_calculators(browser, site_url):  # noqa: F811
    context = with_dedicated_python(browser.new_context())
    _manifest_with(context, lambda m: {**m, "runtime": {}})
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed" and "has no digest in the build manifest" in result["error"]
    context.close()


def test_a_manifest_that_is_not_the_one_the_page_was_built_with_stops_the_calculators(browser, site_url):  # noqa: F811
    # a forged manifest names forged files by their own digests: the page's digest of its manifest refuses it
    context = with_dedicated_python(browser.new_context())
    _manifest_with(context, lambda m: {**m, "snapshots": []}, named_by_the_pages=False)
    result = _status_after_start(context, site_url)
    assert result["status"] == "failed" and "the build manifest does not match the build's digest" in result["error"]
    context.close()


def test_control_the_checked_runtime_goes_live(browser, site_url):  # noqa: F811
    context = with_dedicated_python(browser.new_context())
    result = _status_after_start(context, site_url, wait_for_deferred=True)
    assert result["status"] == "live", result["error"]
    assert result["deferred"] == "loaded"
    context.close()


def test_pyodide_runs_the_checked_bytes_not_a_second_download(browser, site_url):  # noqa: F811
    """Each runtime file is requested once: any later request would get forged bytes, yet the page goes live."""
    context = with_dedicated_python(browser.new_context())
    requests: dict[str, int] = {}

    def genuine_once(route):
        name = route.request.url.rsplit("/", 1)[-1]
        requests[name] = requests.get(name, 0) + 1
        if requests[name] == 1:
            route.fulfill(response=route.fetch())
        else:
            route.fulfill(body=b"forged on the second request", status=200)

    context.route("**/vendor/pyodide/*", genuine_once)
    result = _status_after_start(context, site_url, wait_for_deferred=True)
    assert result["status"] == "live", result["error"]
    assert result["deferred"] == "loaded"
    assert requests == {name: 1 for name in ("pyodide.mjs", "pyodide.asm.mjs.gz", "pyodide.asm.wasm.gz",
                                             "python_stdlib.zip", "pyodide-lock.json")}
    context.close()
