"""Each system's calculators page in headless Chromium, cold and warm, at full speed and with the CPU throttled 4×.

Builds nothing: point it at a built site (default .site-test, as `make test` leaves it) or run
`make bench-site` (which builds the site as published).
Serves the site on 127.0.0.1 and reports, per load, in ms since navigation:

- stored: every stored widget drawn (the page is readable and its calculators show values);
- first: the page's first calculator live (paired with Python, which runs in its worker, and drawn);
- live: every calculator live;
- result: the first recomputed result shown after an input change made to the first calculator the
  moment it is live;
- update: that recomputation alone;
- while quiet: the longest and the median wait for an answer to a change made, every 33 ms for a
  second, from 2.1 s after the page's last answer: Python's work once a page is quiet (deferred files,
  the next page's calculators) is then under way, and is done in pieces so as not to hold a reader up;
- long tasks on the main thread (PerformanceObserver 'longtask'): how many, and the longest;
- bytes the server sent up to the first recomputed result (raw), and the same files gzip-compressed
  (as GitHub Pages serves text; whether it compresses .wasm is not assumed: both are shown); and
  the bytes of the whole visit, which include the files a restored Python deferred (the standard
  library, the wheels and their bytecode), fetched once the page is quiet.

A cold load is a fresh browser profile, and restores the build's snapshot of the page's calculators
(tools/snapshot.py). The warm load is the same page again in the same profile, the first one gone:
the page's Python, a shared worker asked to outlive its pages a while, is still running, and the page
pairs with it (live-python-worker.js). The cached load comes after the browser was closed and started
again on the same profile: Python is restored again, the runtime and the snapshot from the HTTP
cache (as a reader's second visit another day; or every warm load in a browser without shared
workers, which the book then starts from a dedicated worker). Each load opens a new tab, as the figures
before were measured; headless Chromium then also starts its new window's own pages
(the omnibox's WebUI renderer, about as busy as the book's page while it loads, on the same two
cores). So the loads at full speed are measured a second time in the profile's one open tab,
rested on about:blank for 2 s first: a reader following a link, the browser already running.
The 4× throttling is CDP's Emulation.setCPUThrottlingRate, as a mid-range phone.
Goals (reported, never asserted): result ≤ 1.5 s cold and ≤ 0.3 s warm at full speed (the
median of the fresh profiles' new tabs: ``--repeat 3``); ≤ 10 MB cold; no long task over 200 ms.

Then a phone on mobile data (``--phone``, also run by default): a rules page and each calculators
page in a fresh profile whose connection asks to save data (``navigator.connection.saveData``, as a
phone's data saver), the CPU throttled 4× and the server sending at 1.6 Mbit/s with 150 ms before each
response (Lighthouse's mobile profile; paced in the server, so the Python worker's downloads are paced
too, which DevTools' throttling of a page is not): the bytes sent before the reader first touches a
calculator (goal ≤ 600 KB for a rules page), and the time from that touch, a change of its first input,
to the answer shown (goal ≤ 10 s). Text is sent uncompressed, as this server sends it; the gzip figure
is what a server that compresses text (GitHub Pages) would send.

For A/B work on a shared machine: ``--page gundam`` runs only the pages whose path contains it,
``--cpu 1`` only one CPU rate, ``--repeat 3`` each cold, warm and cached load three times (a fresh profile each time),
``--without-shared-workers`` the pages as a browser without shared workers runs them.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import os
import platform
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
LONG_TASKS = """
if (!window.__longTasks) {  // once a document, though a reused tab is given this script again
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: "longtask", buffered: true });
}
"""
# change the first calculator's first number input (else a text input) the moment it is live: waited
# for in the page, as a reader's eye would (a round trip to Playwright first took 0.1-0.2 s then)
# the first calculator's first number input (else a text input), and a value it can change to
PICK_CHANGE = """
  const pickChange = (live) => {
    const states = live.states(0);
    let position = states.findIndex((s) => !s.disabled && Number.isInteger(s.value) && typeof s.value !== "boolean");
    if (position < 0) {
      position = states.findIndex((s) => !s.disabled && s._model_name === "TextModel");
      return { position, value: states[position].value + "+1" };
    }
    const s = states[position];
    const step = Number.isInteger(s.step) && s.step > 0 ? s.step : 1;
    return { position, value: s.max === null || s.max === undefined || s.value + step <= s.max ? s.value + step : s.value - step };
  };
"""
CHANGE_INPUT = """
async () => {""" + PICK_CHANGE + """
  const firstLive = () => window.rulesLibLive && (window.rulesLibLive.phases["first-live"] || window.rulesLibLive.status !== "starting");
  while (!firstLive()) await new Promise((resolve) => setTimeout(resolve, 2));
  const live = window.rulesLibLive;
  if (live.status === "failed") return { failed: String(live.error) };
  const { position, value } = pickChange(live);
  const asked = performance.now();
  await live.setInput(0, position, { value });
  return { asked: Math.round(asked), shown: Math.round(performance.now()) };
}
"""
# Python's work once a page has been quiet for 2 s (the files a restore deferred, the calculators of
# the next page: live-python-worker.js, whenQuiet) begins with no message to the page. So: all live,
# 2.1 s after the last answer, a change every 33 ms for a second (each once the one before is
# answered), back and forth between two values; the longest and the median wait for an answer.
CHANGES_WHILE_QUIET = """
async () => {""" + PICK_CHANGE + """
  const live = window.rulesLibLive;
  while (live.status === "starting") await new Promise((resolve) => setTimeout(resolve, 5));
  if (live.status !== "live") return null;
  const { position, value } = pickChange(live);
  const before = live.states(0)[position].value;
  while (performance.now() < live.phases.lastUpdate + 2100) await new Promise((resolve) => setTimeout(resolve, 5));
  const waits = [];
  for (let change = 0; change < 30; change++) {
    const asked = performance.now();
    await live.setInput(0, position, { value: change % 2 ? before : value });
    waits.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 33));
  }
  waits.sort((a, b) => a - b);
  return { longest: Math.round(waits[waits.length - 1]), median: Math.round(waits[waits.length >> 1]) };
}
"""


# Wait in the page's own world: Playwright's wait_for_function first evaluates its injected script in
# the page's renderer (48 ms of the main thread in a trace), which a reader's browser never runs.
WAIT_UNTIL = """
([condition, timeout]) => new Promise((resolve, reject) => {
  const holds = new Function(`return (${condition})`);
  const until = performance.now() + timeout;
  (function check() {
    if (holds()) resolve();
    else if (performance.now() > until) reject(new Error(`not so after ${timeout} ms: ${condition}`));
    else setTimeout(check, 5);
  })();
})
"""


def wait_until(page, condition: str, timeout: int) -> None:
    page.evaluate(WAIT_UNTIL, [condition, timeout])


class Counting(http.server.SimpleHTTPRequestHandler):
    """Serves the site and counts the bytes of every file sent (a 304 sends none)."""

    sent: list[Path] = []

    def log_message(self, *args):
        pass

    def send_head(self):
        result = super().send_head()
        if result is not None and hasattr(result, "name"):
            Counting.sent.append(Path(result.name))
        return result


@functools.cache
def gzipped_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


#: `--without-shared-workers`: the page starts Python in a dedicated worker, as in a browser without them
WITHOUT_SHARED_WORKERS = "delete window.SharedWorker;"


def load(context, url: str, throttle: int, open_tab: bool = False) -> dict:
    """One load of ``url``: in a new tab, or in the context's first tab once it has rested on a blank page."""
    if open_tab:
        page = context.pages[0]
        page.goto("about:blank")
        page.wait_for_timeout(2000)
    else:
        page = context.new_page()
    Counting.sent.clear()
    if throttle > 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    page.add_init_script(LONG_TASKS)
    timeout = 180_000 * throttle
    page.goto(url, wait_until="commit")
    change = page.evaluate(CHANGE_INPUT)
    if "failed" in change:
        raise RuntimeError(f"{url}: the calculators did not start: {change['failed']}")
    to_result = list(Counting.sent)
    quiet = page.evaluate(CHANGES_WHILE_QUIET)
    wait_until(page, "window.rulesLibLive.status !== 'starting'", timeout)
    if page.evaluate("window.rulesLibLive.status") != "live":
        raise RuntimeError(f"{url}: the calculators did not start: {page.evaluate('window.rulesLibLive.error')}")
    page.wait_for_load_state("load")
    # a reader stays on the page: after a restore, let the files it deferred arrive (the visit's bytes)
    wait_until(page, "window.rulesLibLive.snapshot !== 'restored' || window.rulesLibLive.deferred", timeout)
    live = page.evaluate("({phases: window.rulesLibLive.phases, snapshot: window.rulesLibLive.snapshot,"
                         " python: window.rulesLibLive.python,"
                         " deferred: window.rulesLibLive.deferred, longTasks: window.__longTasks})")
    if not open_tab:
        page.close()
    sent = list(Counting.sent)
    return {
        "stored": live["phases"].get("rendered"), "first": live["phases"].get("first-live"),
        "live": live["phases"].get("live"), "result": change["shown"],
        "update": change["shown"] - change["asked"], "snapshot": live["snapshot"], "deferred": live["deferred"],
        "python": live["python"], "quiet": quiet,
        "phases": live["phases"],
        "long": [duration for _, duration in live["longTasks"]],
        "over": [f"{duration} ms at {start}" for start, duration in live["longTasks"] if duration > 200],
        "raw": sum(p.stat().st_size for p in to_result), "gzip": sum(gzipped_size(p) for p in to_result),
        "visit": sum(p.stat().st_size for p in sent), "sent": sent,
    }


#: the phone profile: Lighthouse's simulated mobile connection, and a phone's data saver
PHONE_MBIT_PER_S = 1.6
PHONE_LATENCY_S = 0.15
SAVE_DATA = ("Object.defineProperty(Navigator.prototype, 'connection', "
             "{ get: () => ({ saveData: true, effectiveType: '4g', downlink: 1.6, rtt: 150 }) });")
# the first touch of the first calculator: its first number input focused and changed at once (the
# change is kept until Python is live, then answered); the time to that answer
TOUCH_AND_CHANGE = """
async () => {""" + PICK_CHANGE + """
  const live = window.rulesLibLive;
  const field = document.querySelector(".widget-subarea input[type=number], .widget-subarea input");
  const { position, value } = pickChange(live);
  const touched = performance.now();
  field.focus();  // a reader's first touch (focusin inside a calculator) starts Python
  live.setInput(0, position, { value });
  await live.ready(0);
  await live.pending;
  return { touched: Math.round(touched), answered: Math.round(performance.now()) };
}
"""


class Paced(Counting):
    """``Counting``, as a phone on mobile data receives it: a wait before each response, then every
    response's bytes sent one chunk at a time, all responses together at ``PHONE_MBIT_PER_S``."""

    lock = threading.Lock()
    next_free = 0.0

    def send_head(self):
        time.sleep(PHONE_LATENCY_S)
        return super().send_head()

    def copyfile(self, source, outputfile):
        while chunk := source.read(16_384):
            with Paced.lock:
                start = max(time.monotonic(), Paced.next_free)
                Paced.next_free = start + len(chunk) * 8 / (PHONE_MBIT_PER_S * 1e6)
            time.sleep(max(0.0, Paced.next_free - time.monotonic()))
            outputfile.write(chunk)


def phone(playwright, site: Path, page_filter: str = "") -> None:
    """The phone profile (see the module's docstring), one fresh profile a page."""
    rules = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/01-*/index.html"))
    calculators = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/[0-9]*-calculators/index.html"))
    pages = [path for path in [*rules[:1], *calculators] if page_filter in path]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Paced, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"A phone on mobile data: saving data, CPU throttled 4×, {PHONE_MBIT_PER_S} Mbit/s, "
          f"{PHONE_LATENCY_S * 1000:.0f} ms before each response")
    for path in pages:
        with tempfile.TemporaryDirectory() as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=os.environ.get("RULES_LIB_CHROMIUM") or shutil.which("chromium"), args=FLAGS)
            context.add_init_script(SAVE_DATA)
            page = context.pages[0]
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
            Counting.sent.clear()
            started = time.monotonic()
            page.goto(base + path, wait_until="load", timeout=600_000)
            has_calculators = page.evaluate("Boolean(window.rulesLibLive && window.rulesLibLive.status === 'starting')")
            if has_calculators:
                wait_until(page, "window.rulesLibLive.phases.rendered > 0", 600_000)
            readable = time.monotonic() - started
            page.wait_for_timeout(3000)  # a reader reads: what the page fetches unasked meanwhile counts too
            before = list(Counting.sent)
            figures = (f"  {path:32} readable in {readable:5.1f} s; before the first touch "
                       f"{sum(p.stat().st_size for p in before) / 1e3:6.0f} KB raw, "
                       f"{sum(gzipped_size(p) for p in before) / 1e3:5.0f} KB gzip ({len(before)} files)")
            if has_calculators:
                touch = page.evaluate(TOUCH_AND_CHANGE)
                figures += f"; first touch to its answer {(touch['answered'] - touch['touched']) / 1000:5.1f} s"
                after = Counting.sent[len(before):]
                figures += (f" ({sum(p.stat().st_size for p in after) / 1e6:.2f} MB in {len(after)} files; the largest "
                            + ", ".join(f"{p.name} {p.stat().st_size / 1e6:.2f}"
                                        for p in sorted(set(after), key=lambda p: -p.stat().st_size)[:4]) + ")")
            print(figures + ("" if has_calculators else "; no calculator"))
            context.close()
    server.shutdown()


def line(kind: str, figures: dict) -> str:
    long = figures["long"]
    quiet = f"{figures['quiet']['longest']}/{figures['quiet']['median']} ms" if figures["quiet"] else "-"
    return (f"  {kind:6} stored {figures['stored']:6} ms  first live {figures['first']:6} ms  live {figures['live']:6} ms"
            f"  result {figures['result']:6} ms"
            f" (update {figures['update']:4} ms, while quiet {quiet})  long tasks {len(long):2} (longest {max(long, default=0):4} ms)"
            f"  {figures['raw'] / 1e6:5.2f} MB raw, {figures['gzip'] / 1e6:5.2f} MB gzip"
            f" (visit {figures['visit'] / 1e6:5.2f} MB raw)  Python {figures['python']}, snapshot {figures['snapshot']},"
            f" deferred files {figures['deferred']}")


def main(site: Path, page_filter: str = "", rates: tuple[int, ...] = (1, 4), repeat: int = 1,
         open_tab: bool = True, shared_workers: bool = True, with_phone: bool = True, desktop: bool = True) -> None:
    pages = sorted(p.parent.relative_to(site).as_posix() + "/" for p in site.glob("*/[0-9]*-calculators/index.html")
                   if page_filter in p.parent.relative_to(site).as_posix())
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.machine()} with {os.cpu_count()} cores, "
          f"{platform.system()} {platform.release()}; site {site}")
    runs = [(throttle, False) for throttle in rates] + ([(1, True)] if open_tab and 1 in rates else [])
    runs = runs if desktop else []
    results: dict[tuple[str, str], list[int]] = {}
    with sync_playwright() as playwright:
        for throttle, in_open_tab in runs:
            print(f"CPU {'at full speed' if throttle == 1 else f'throttled {throttle}×'}, "
                  f"{'in an open tab (a reader following a link)' if in_open_tab else 'each load in a new tab'}")
            for path in [path for path in pages for _ in range(repeat)]:
                with tempfile.TemporaryDirectory() as profile:
                    launch = functools.partial(
                        playwright.chromium.launch_persistent_context, profile,
                        executable_path=os.environ.get("RULES_LIB_CHROMIUM") or shutil.which("chromium"), args=FLAGS,
                        bypass_csp=True)  # WAIT_UNTIL compiles its condition, which the pages' policy refuses
                    context = launch()
                    if not shared_workers:
                        context.add_init_script(WITHOUT_SHARED_WORKERS)
                    cold = load(context, base + path, throttle, in_open_tab)
                    warm = load(context, base + path, throttle, in_open_tab)
                    context.close()
                    context = launch()  # the browser started again: its HTTP cache kept, no Python running
                    if not shared_workers:
                        context.add_init_script(WITHOUT_SHARED_WORKERS)
                    cached = load(context, base + path, throttle, in_open_tab)
                    context.close()
                print(path)
                loads = {"cold": cold, "warm": warm, "cached": cached}
                if throttle == 1 and not in_open_tab:
                    for kind in ("cold", "warm"):
                        results.setdefault((path, kind), []).append(loads[kind]["result"])
                for kind, figures in loads.items():
                    print(line(kind, figures))
                for kind, figures in loads.items():
                    print(f"         phases {kind:6} {figures['phases']}")
                print("         long tasks over 200 ms: " + ", ".join(f"{kind} {f['over']}" for kind, f in loads.items()))
                if path == pages[0] and (throttle, in_open_tab) == runs[0] and repeat == 1:
                    print("       largest files of the cold visit (MB raw / gzip):", ", ".join(
                        f"{p.relative_to(site)} {p.stat().st_size / 1e6:.2f}/{gzipped_size(p) / 1e6:.2f}"
                        for p in sorted(set(cold["sent"]), key=lambda p: -p.stat().st_size)[:10]))
        if results:
            print(f"Desktop, full speed, new tabs: median of {repeat} fresh profile(s), change to answer shown "
                  "(goals 1.5 s cold, 0.3 s warm)")
            for path in pages:
                cold, warm = (statistics.median(results[(path, kind)]) / 1000 for kind in ("cold", "warm"))
                print(f"  {path:32} cold {cold:5.2f} s ({cold / 1.5:4.2f} of the goal)  "
                      f"warm {warm:5.2f} s ({warm / 0.3:4.2f} of the goal)")
        if with_phone:
            phone(playwright, site, page_filter)
    server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=".site-test", type=Path, help="a built site (default .site-test)")
    parser.add_argument("--page", default="", help="only the calculators pages whose path contains this")
    parser.add_argument("--cpu", type=int, action="append", help="CPU throttling rate (repeatable; default 1 and 4)")
    parser.add_argument("--repeat", type=int, default=1, help="cold, warm and cached loads per page (default 1)")
    parser.add_argument("--no-open-tab", action="store_true", help="skip the loads in an open tab")
    parser.add_argument("--without-shared-workers", action="store_true",
                        help="pages start Python in a dedicated worker (as in a browser without shared workers)")
    parser.add_argument("--phone", action="store_true", help="only the phone profile")
    parser.add_argument("--no-phone", action="store_true", help="skip the phone profile")
    options = parser.parse_args()
    main(options.site, options.page, tuple(options.cpu or (1, 4)), options.repeat, not options.no_open_tab,
         not options.without_shared_workers, not options.no_phone, not options.phone)
