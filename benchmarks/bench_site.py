"""Time to the first live result on a chapter page, cold and warm, and the bytes transferred.

Builds nothing: point it at a built site (default .site-test, as `make test` leaves it) or
run `make bench-site`. Serves the site on 127.0.0.1 and drives headless Chromium.
Goals (reported, not asserted): first live result within 5 s cold and 1 s warm.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

PAGE = "dice/01-dice-and-odds/"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def first_live(page, url: str) -> tuple[float, int, dict]:
    transferred = []

    def count(request) -> None:
        try:
            transferred.append(request.sizes()["responseBodySize"])
        except Exception:  # the page closed before this request's sizes were read
            pass

    page.on("requestfinished", count)
    start = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status === 'live'", timeout=120_000)
    seconds = time.perf_counter() - start
    page.wait_for_load_state("load")
    # a reader stays on the page: let a first visit finish storing its Python snapshot
    page.wait_for_function("!['saving', undefined].includes(window.rulesLibLive.snapshot)"
                           " || window.rulesLibLive.fromSnapshot", timeout=30_000)
    phases = page.evaluate("({...window.rulesLibLive.phases, snapshot: window.rulesLibLive.fromSnapshot"
                           " ? 'restored' : window.rulesLibLive.snapshot})")
    page.close()
    return seconds, sum(transferred), phases


def main(site: Path) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{PAGE}"
    with sync_playwright() as playwright:
        for run in range(3):
            # a fresh profile with a disk cache: the first visit is cold, the second warm
            with tempfile.TemporaryDirectory() as profile:
                context = playwright.chromium.launch_persistent_context(
                    profile, executable_path=os.environ.get("RULES_LIB_CHROMIUM") or shutil.which("chromium"), args=FLAGS)
                cold, cold_bytes, cold_phases = first_live(context.new_page(), url)
                warm, warm_bytes, warm_phases = first_live(context.new_page(), url)
                context.close()
            print(f"run {run + 1}: cold {cold:5.2f} s ({cold_bytes / 1e6:5.2f} MB)   "
                  f"warm {warm:5.2f} s ({warm_bytes / 1e6:5.2f} MB from the network)   "
                  f"goals: cold/5 s = {cold / 5:4.2f}, warm/1 s = {warm:4.2f}")
            print(f"        phases (ms since navigation) cold {cold_phases}  warm {warm_phases}")
    server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else ".site-test"))
