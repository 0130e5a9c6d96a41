"""The built site's security policy (issue 33, item 6): what a page may load and run.

Every page carries a Content-Security-Policy that allows the site's own origin, its inline scripts
by hash, the worker and WebAssembly, and nothing else; every script it loads carries Subresource
Integrity; it names the digest of the manifest it was built with; it refers to no other origin.
Read from the built files here, and in Chromium under the policy (contexts that do not bypass it,
unlike the other browser tests': tests/test_browser.py): the calculators go live, a battle plays,
a sheet builder refuses bad input with a sentence and takes a later good one, and no page of any
system breaks its policy; an injected inline script, a script of another origin and a script
changed on the way are not run; URL parameters are read as text.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    _changed_input,
    browser,
    built_site,
    site_url,
)
from tools import site_policy

POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')
MANIFEST = re.compile(r'<meta name="rules-lib-manifest" content="([0-9a-f]{64})">')
SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S)
#: a page of each system with calculators (the first of each kind), the dice guide and the sheet builders
CALCULATOR_PAGES = ["dice/01-dice-and-odds/", "wis6/07-calculators/", "gundam-sentinel/07-calculators/",
                    "nemesis/07-calculators/", "verse-world/08-calculators/"]
BATTLE = "wis6/06-first-battle/"
SHEET_BUILDER = "wis6/08-table-sheet/"


def _pages(site: Path) -> list[Path]:
    return sorted(path for path in site.rglob("*.html") if "vendor" not in path.relative_to(site).parts)


def _directives(policy: str) -> dict[str, list[str]]:
    return {name: sources for name, *sources in (part.split() for part in policy.split(";"))}


def _inline_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# --- the built files ---------------------------------------------------------------------------


def test_every_page_starts_with_its_policy_and_the_policy_names_exactly_its_inline_scripts(built_site):  # noqa: F811
    pages = _pages(built_site)
    assert len(pages) > 50
    for path in pages:
        html = path.read_text(encoding="utf-8")
        found = POLICY.findall(html)
        assert len(found) == 1, f"{path}: {len(found)} policies"
        head = html[:html.index("</head>")]
        # before any script or stylesheet: a meta policy covers only what follows it
        assert head.index(found[0]) < min(head.find(tag) if tag in head else len(head) for tag in ("<script", "<link"))
        directives = _directives(found[0])
        scripts = directives["script-src"]
        assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, path
        assert directives["default-src"] == ["'self'"] and directives["object-src"] == ["'none'"]
        inline = {_inline_hash(text) for attributes, text in SCRIPT.findall(html)
                  if "src=" not in attributes and not re.search(r'type="(?!module|text/javascript)', attributes)}
        assert {source for source in scripts if source.startswith("'sha256-")} == inline, path


def test_every_script_a_page_loads_carries_the_integrity_of_the_sites_file(built_site):  # noqa: F811
    checked = 0
    for path in _pages(built_site):
        html = path.read_text(encoding="utf-8")
        assert '<script src="">' not in html, path
        for tag in re.findall(r'<script\b[^>]*\bsrc="[^"]*"[^>]*>|<link rel="preload" as="script"[^>]*>', html):
            url = re.search(r'(?:src|href)="([^"]*)"', tag).group(1)
            file = built_site / url.lstrip("/") if url.startswith("/") else (path.parent / url).resolve()
            expected = "sha384-" + base64.b64encode(hashlib.sha384(file.read_bytes()).digest()).decode()
            assert f'integrity="{expected}"' in tag, f"{path}: {tag}"
            checked += 1
    assert checked > 200


def test_every_page_names_the_digest_of_the_manifest_it_was_built_with(built_site):  # noqa: F811
    digest = hashlib.sha256((built_site / "vendor" / "wheels" / "manifest.json").read_bytes()).hexdigest()
    for path in _pages(built_site):
        assert MANIFEST.findall(path.read_text(encoding="utf-8")) == [digest], path


class _References(HTMLParser):
    """Every URL a page's markup names (links, sources, forms, inline styles)."""

    URL_ATTRIBUTES = {"src", "href", "action", "formaction", "srcset", "poster", "data", "cite", "background"}

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value and name in self.URL_ATTRIBUTES:
                self.urls += [part.split()[0] for part in value.split(",") if part.strip()] if name == "srcset" else [value]
            if value and name == "style":
                self.urls += re.findall(r"url\(\s*['\"]?([^'\")]+)", value)


#: a URL of another origin: a scheme that fetches, or a network-path reference (//host/…)
OTHER_ORIGIN = re.compile(r"^(?:https?:|wss?:|ftp:)?//", re.I)
#: in a script's text or a stored widget's HTML: a quoted URL of another origin (XML namespaces are names, not loads)
QUOTED_OTHER_ORIGIN = re.compile(r"""["'`](?:https?:)?//(?!www\.w3\.org/)[^"'`\s]+""")


def _without_comments(script: str) -> str:
    return re.sub(r"/\*.*?\*/|^\s*//.*$", "", script, flags=re.S | re.M)


def test_no_page_refers_to_another_origin(built_site):  # noqa: F811
    for path in _pages(built_site):
        html = path.read_text(encoding="utf-8")
        markup = _References()
        markup.feed(html)
        assert [url for url in markup.urls if OTHER_ORIGIN.match(url)] == [], path
        for _, text in SCRIPT.findall(html):  # inline scripts, and the widget HTML the stored state holds
            text = _without_comments(text).replace('\\"', '"').replace("\\/", "/")
            assert QUOTED_OTHER_ORIGIN.findall(text) == [], path


def test_control_the_reference_checks_see_an_off_site_link_and_a_cdn_import():
    markup = _References()
    markup.feed('<a href="https://squidfunk.github.io/mkdocs-material/">x</a><img srcset="a.png 1x, //cdn.test/b.png 2x">')
    assert [url for url in markup.urls if OTHER_ORIGIN.match(url)] == ["https://squidfunk.github.io/mkdocs-material/",
                                                                       "//cdn.test/b.png"]
    assert QUOTED_OTHER_ORIGIN.findall('await import("https://cdnjs.cloudflare.com/m.mjs")') != []
    assert QUOTED_OTHER_ORIGIN.findall('"http://www.w3.org/2000/svg"') == []


def test_a_page_loading_a_script_the_site_does_not_hold_is_refused(tmp_path):
    page = tmp_path / "index.html"
    for url in ["https://cdn.test/x.js", "//cdn.test/x.js", "missing.js"]:
        with pytest.raises(RuntimeError, match="not a file of the site"):
            site_policy.with_integrity(f'<script src="{url}"></script>', tmp_path, page)


def test_a_page_with_a_mermaid_diagram_or_another_cdn_loader_is_refused():
    loader = ('<script type="module">\n  document.addEventListener("DOMContentLoaded", async () => {\n'
              '    const diagrams = document.querySelectorAll(".jp-Mermaid > pre.mermaid");\n'
              '    await import("https://cdnjs.cloudflare.com/ajax/libs/mermaid/11.10.0/mermaid.esm.min.mjs");\n  });\n</script>')
    assert site_policy.without_mermaid_loader(f"<body>{loader}</body>") == "<body></body>"
    with pytest.raises(RuntimeError):
        site_policy.without_mermaid_loader(f'<pre class="mermaid">graph TD</pre>{loader}')
    with pytest.raises(RuntimeError):
        site_policy.without_mermaid_loader('<script>import("https://cdnjs.cloudflare.com/x.mjs")</script>')


def test_only_scripts_the_browser_runs_are_hashed_and_as_the_browser_reads_their_line_ends():
    html = ('<script type="application/vnd.jupyter.widget-state+json">{"a": 1}</script>'
            '<script type="text/x-mathjax-config">init()</script><script src="a.js"></script>'
            '<script>one()\r\ntwo()</script><script type="module">three()</script><script>one()\ntwo()</script>')
    assert site_policy.inline_script_hashes(html) == [_inline_hash("one()\ntwo()"), _inline_hash("three()")]


def test_a_page_without_a_charset_is_refused_rather_than_left_without_a_policy():
    with pytest.raises(RuntimeError, match="no security policy"):
        site_policy.with_policy("<html><head><script>x()</script></head></html>", "0" * 64)


# --- in Chromium, under the policy -------------------------------------------------------------

#: every violation of the page's policy, recorded from before the page's first script
RECORD_VIOLATIONS = """
window.rulesLibViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.rulesLibViolations.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def strict(browser):  # noqa: F811
    """A context that keeps the pages' policy (the other browser tests bypass it), recording its violations."""
    context = browser.new_context(bypass_csp=False, permissions=["clipboard-read", "clipboard-write"])
    context.add_init_script(RECORD_VIOLATIONS)
    yield context
    context.close()


def _until(page, function: str, timeout_s: float = 120, arg=None):
    """Poll ``function`` (a JavaScript function's text: run as a function, never compiled by the page,
    whose policy refuses eval and so Playwright's wait_for_function) until it is truthy."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = page.evaluate(function, arg)
        if value:
            return value
        page.wait_for_timeout(200)
    raise AssertionError(f"{function} stayed false for {timeout_s} s")


def _open_live(context, url):
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(url, wait_until="load")
    _until(page, "() => window.rulesLibLive && window.rulesLibLive.status !== 'starting'")
    assert page.evaluate("() => window.rulesLibLive.status") == "live", page.evaluate("() => window.rulesLibLive.error")
    return page, problems


def _violations(page) -> list[str]:
    return page.evaluate("() => window.rulesLibViolations")


@pytest.mark.browser
@pytest.mark.parametrize("page_path", CALCULATOR_PAGES)
def test_under_the_policy_the_calculators_go_live_and_recompute(strict, site_url, page_path):  # noqa: F811
    from rules_lib.browser import LiveCalculator

    page, problems = _open_live(strict, site_url + page_path)
    dotted = page.evaluate("() => window.rulesLibLive.classes[0]")
    before = page.evaluate("() => window.rulesLibLive.states(0)")
    position, new = _changed_input(before)
    page.evaluate("([position, value]) => window.rulesLibLive.setInput(0, position, {value})", [position, new])
    python = LiveCalculator(dotted)  # what CPython's rules_lib shows for the same inputs
    python.load(json.dumps([{k: s[k] for k in ("value", "index") if s[k] is not None} for s in before]))
    python.set_input(position, json.dumps({"value": new}))
    expected = [w.get_state().get("value") for w in python.widgets]
    assert expected != [s["value"] for s in before]
    _until(page, "(expected) => JSON.stringify(window.rulesLibLive.states(0).map((s) => s.value ?? null))"
           " === JSON.stringify(expected)", 20, expected)
    assert _violations(page) == [] and problems == []


@pytest.mark.browser
def test_under_the_policy_a_battle_plays(strict, site_url):  # noqa: F811
    page, problems = _open_live(strict, site_url + BATTLE)
    index = page.evaluate("() => window.rulesLibLive.classes.indexOf('rules_lib.widgets.wis6_battle:FirstBattle')")
    area = page.locator(".rules-lib-live-status + .widget-subarea").nth(index)
    before = page.evaluate("(i) => JSON.stringify(window.rulesLibLive.states(i))", index)
    for button in ("New battle", "Roll order"):
        area.locator("button.widget-button", has_text=button).first.click()
        page.evaluate("() => window.rulesLibLive.pending")
    assert page.evaluate("(i) => JSON.stringify(window.rulesLibLive.states(i))", index) != before
    assert _violations(page) == [] and problems == []


@pytest.mark.browser
def test_under_the_policy_a_builder_shows_a_refusal_as_a_sentence_and_a_later_good_input_clears_it(strict, site_url):  # noqa: F811
    from rules_lib import sheets

    page, problems = _open_live(strict, site_url + SHEET_BUILDER)
    toml = page.locator(".widget-textarea textarea").first
    raider = sheets.export(sheets.get("wis6", "raider"), "toml")
    for written in ("armour = [[[", raider.replace("armour = 3", "armour = -1"), "\x00" * 3 + "<script>alert(1)</script>"):
        toml.fill(written)
        toml.press("Tab")  # continuous_update is off: the change is sent on blur
        page.evaluate("() => window.rulesLibLive.pending")
        error = page.locator(".calculator-error").first
        error.wait_for(timeout=20_000)
        said = error.inner_text()
        # a sentence: words on one line, never Python's traceback or an exception's name
        assert "Traceback" not in said and 'File "' not in said and not re.search(r"\b\w+(Error|Exception)\b", said), said
        assert "\n" not in said.strip() and re.search(r"[a-z]{3,} [a-z]{2,}", said), f"not a sentence: {said!r}"
    toml.fill(raider)
    toml.press("Tab")
    page.evaluate("() => window.rulesLibLive.pending")
    page.locator(".rules-lib-sheet", has_text="Raider").first.wait_for(timeout=20_000)
    assert page.locator(".calculator-error").count() == 0, "an earlier refusal outlived a good sheet"
    # the copy buttons, whose inline handler the policy would refuse, copy the sheet
    page.locator("button.rules-lib-copy[data-copies='rules-lib-ccfolia-json']").first.click()
    _until(page, "() => document.querySelector(\"button.rules-lib-copy[data-copies='rules-lib-ccfolia-json']\")"
           ".textContent.includes('copied')", 20)
    assert json.loads(page.evaluate("() => navigator.clipboard.readText()"))["kind"] == "character"
    assert _violations(page) == [] and problems == []


@pytest.mark.browser
def test_no_page_of_any_system_breaks_its_policy(strict, site_url, built_site):  # noqa: F811
    """Each page of the book, drawn to its end (every stored widget, figure and font), breaks no rule of its policy."""
    page = strict.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    paths = [path.parent.relative_to(built_site).as_posix() for path in _pages(built_site) if path.name == "index.html"]
    paths.append("404.html")
    for path in paths:
        page.goto(site_url + (path if path.endswith(".html") else f"{path}/" if path != "." else ""), wait_until="load")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(50)
        assert _violations(page) == [], path
    assert errors == []


@pytest.mark.browser
def test_an_injected_inline_script_and_a_script_of_another_origin_are_not_run(strict, site_url):  # noqa: F811
    page = strict.new_page()
    page.goto(site_url + "index.html", wait_until="load")
    other_origin = site_url.replace("127.0.0.1", "localhost") + "javascripts/code-toggle.js"
    same_origin = site_url + "javascripts/code-toggle.js"
    ran = page.evaluate("""async ([other, same]) => {
      const inline = document.createElement("script");
      inline.textContent = "window.injectedRan = true";
      document.head.append(inline);
      const load = (src) => new Promise((done) => {
        const script = document.createElement("script");
        script.src = src;
        script.onload = () => done("loaded");
        script.onerror = () => done("refused");
        document.head.append(script);
      });
      return { inline: window.injectedRan === true, other: await load(other), same: await load(same) };
    }""", [other_origin, same_origin])
    assert ran == {"inline": False, "other": "refused", "same": "loaded"}  # the same-origin script: the control
    violations = _violations(page)
    assert any(v.startswith("script-src-elem inline") for v in violations), violations
    assert any(v.startswith(f"script-src-elem {other_origin}") for v in violations), violations


@pytest.mark.browser
def test_control_an_injected_inline_script_runs_where_the_policy_is_bypassed(browser, site_url):  # noqa: F811
    page = browser.new_page()  # as the other browser tests: bypassing the policy
    page.goto(site_url + "index.html", wait_until="load")
    assert page.evaluate("""() => {
      const inline = document.createElement("script");
      inline.textContent = "window.injectedRan = true";
      document.head.append(inline);
      return window.injectedRan === true;
    }""")
    page.close()


@pytest.mark.browser
def test_a_script_changed_on_the_way_is_not_run(strict, site_url):  # noqa: F811
    def changed(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text() + "\nwindow.tamperedRan = true;")

    strict.route("**/javascripts/code-toggle.js", changed)
    page = strict.new_page()
    page.goto(site_url + "dice/01-dice-and-odds/", wait_until="load")
    assert page.evaluate("() => window.tamperedRan === true") is False
    assert page.evaluate("() => typeof window.rulesLibLive") == "object"  # the page's other scripts ran


@pytest.mark.browser
@pytest.mark.parametrize("query", ["?h=.*", "?h=(a%2B)%2B%24", "?h=%5B", "?q=.*&h=%5C", "#%E0%A4%A", "#a[b]"])
def test_url_parameters_are_read_as_text_never_as_a_pattern(strict, site_url, query):  # noqa: F811
    """Search's highlight (``?h=``) and a deep link (``#``) read as text: ``.*`` marks no text, a
    malformed pattern or escape breaks nothing."""
    page = strict.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url + "wis6/03-attacks/" + query, wait_until="load")
    page.wait_for_timeout(300)
    # what is marked is the parameter's own text, never text a pattern matched
    written = unquote(query.partition("h=")[2])
    marked = page.evaluate("() => [...document.querySelectorAll('mark')].map((m) => m.textContent)")
    assert all(text and text in written for text in marked), marked
    assert errors == [] and _violations(page) == []


@pytest.mark.browser
def test_control_a_highlight_parameter_marks_its_word(strict, site_url):  # noqa: F811
    page = strict.new_page()
    page.goto(site_url + "wis6/03-attacks/?h=attack", wait_until="load")
    _until(page, "() => document.querySelectorAll('mark').length > 0", 10)


@pytest.mark.browser
@pytest.mark.parametrize("page_path", ["", "gundam-sentinel/07-calculators/"])
def test_under_the_policy_search_finds_a_rule_and_its_japanese_term(strict, site_url, page_path):  # noqa: F811
    """The theme's search worker, and on a calculators page the deferred one, run under the policy."""
    page = strict.new_page()
    page.goto(site_url + page_path, wait_until="load")
    page.keyboard.press("s")
    page.keyboard.type("回避値")
    page.locator(".md-search-result__item").first.wait_for(timeout=30_000)
    links = page.locator(".md-search-result__item > a").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    assert any("gundam-sentinel/03-to-hit" in link for link in links[:8]), links[:8]
    assert _violations(page) == []
