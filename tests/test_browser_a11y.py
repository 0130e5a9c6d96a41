"""axe-core on every page of the built site, at 360 and 1280 px: no serious or critical violation (issue 34).

axe-core is the pinned npm package (tools/axe.py), in each page from its context's init script;
the contexts bypass the site's Content-Security-Policy all the same. Each page
is checked as a reader first sees it: the stored widgets drawn, Python blocked (one calculators
page is checked live too), every cell drawn as for a reader who has scrolled through it.
One tab opens each page in turn: all of axe's rules at 1280 px, the rules that depend on the
width again at 360 px; the theme's header, contents and footer only on the home page.

Uses the site, server and Chromium of tests/test_browser.py; one browser for the module.
"""

from __future__ import annotations

import sys

import pytest

from tests.test_browser import (  # noqa: F401  (fixtures shared with the browser tests)
    ROOT,
    browser,
    built_site,
    draw_every_cell,
    site_url,
    with_dedicated_python,
)

sys.path.insert(0, str(ROOT / "tools"))
from axe import axe_script  # noqa: E402

pytestmark = pytest.mark.browser
WIDE, NARROW = 1280, 360
FAILING_IMPACTS = ("serious", "critical")
#: axe's rules whose result depends on the window's width (what is drawn where, over what), the
#: only ones run again at `NARROW`: the others read the page's markup, the same at any width
LAYOUT_RULES = ("color-contrast", "link-in-text-block", "scrollable-region-focusable", "target-size")
#: pages built from one template over many entries, checked on a sample: the reference pages
#: (mkdocstrings, 12 modules, up to 15,000 elements: 5-15 s of axe each on a loaded machine) and
#: the source texts (tools/citations.py, one line-numbered <ol> each, up to 2,000 lines), and the Japanese edition
SAMPLED_FOLDERS = {"reference": ("reference/rules_lib.battle/", "reference/rules_lib.dice/"),
                   "sources": ("sources/", "sources/001/"),
                   # the Japanese edition: the same templates and cells (tools/editions.py), its pages in
                   # Japanese; a chapter page is checked live at both widths in tests/test_browser_ja.py
                   "ja": ("ja/", "ja/glossary/", "ja/dice/01-dice-and-odds/", "ja/sources/000/")}
#: the theme's parts every page repeats (header with the search, the site's contents, footer): checked
#: on the home page, left out of axe's look at the others, the same markup on each
REPEATED_PARTS = (".md-header", ".md-sidebar--primary", ".md-footer")
#: the page checked once more with its calculators live (Python running)
LIVE_PAGE = "wis6/07-calculators/"

#: axe's violations of the given impacts (of the given rules, else all), one readable line per rule
#: with its first few elements
SERIOUS_VIOLATIONS = r"""
async ([impacts, rules, exclude]) => {
  const options = { resultTypes: ["violations"] };
  if (rules) options.runOnly = { type: "rule", values: rules };
  const results = await axe.run({ include: [["html"]], exclude: exclude.map((part) => [part]) }, options);
  return results.violations.filter((v) => impacts.includes(v.impact)).map((v) =>
    `${v.impact} ${v.id} (${v.help}), ${v.nodes.length} element(s): `
    + v.nodes.slice(0, 3).map((n) => n.target.join(" ") + " — " + n.failureSummary.replace(/\s+/g, " ")).join("; "));
}
"""


def _page_paths() -> list[str]:
    """Every page of the book's built site (each page of the book, the generated ones sampled)."""
    book = ROOT / "book"
    pages = [path.relative_to(book).with_suffix("").as_posix() + "/"
             for path in sorted(book.glob("**/*")) if path.suffix in (".md", ".ipynb") and not path.name.startswith("_")
             and not path.name.endswith(".ja.md")]  # the Japanese edition's pages: sampled (SAMPLED_FOLDERS)
    pages = ["" if page == "index/" else page for page in pages]
    return pages + [page for sample in SAMPLED_FOLDERS.values() for page in sample]


def _violations(page, rules: tuple[str, ...] | None = None, exclude: tuple[str, ...] = ()) -> list[str]:
    return page.evaluate(SERIOUS_VIOLATIONS, [list(FAILING_IMPACTS), list(rules) if rules else None, list(exclude)])


def _open(page, url: str) -> None:
    """The page as a reader sees it once scrolled through (axe-core is in it from its context)."""
    page.goto(url, wait_until="load")
    page.wait_for_function("window.rulesLibLive && window.rulesLibLive.status !== 'starting'", timeout=90_000)
    draw_every_cell(page)
    # the boxes of cells just drawn are measured (and a wide one made focusable: scroll-boxes.js) by a
    # ResizeObserver, which reports at the next frames, as a reader's scrolling would draw them
    page.evaluate("() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))")


def _with_axe(context):
    """The context, axe-core in each of its pages before the page's own scripts (the bypassed
    Content-Security-Policy would also let an inline script tag in)."""
    context.add_init_script(axe_script())
    return context


@pytest.fixture(scope="module")
def stored_tab(browser):  # noqa: F811
    """One tab for every page, whose pages never start Python."""
    context = _with_axe(with_dedicated_python(browser.new_context(bypass_csp=True)))
    context.route("**/vendor/pyodide/**", lambda route: route.abort())
    page = context.new_page()
    yield page
    context.close()


def test_the_pages_are_found(built_site):  # noqa: F811
    """Every page listed is built, and every built page is listed or in a sampled folder."""
    built = {path.parent.relative_to(built_site).as_posix().removeprefix(".") + "/"
             for path in built_site.glob("**/index.html")}
    listed = {page or "/" for page in _page_paths()}
    assert listed <= built, sorted(listed - built)
    unlisted = {page for page in built - listed if page.split("/")[0] not in SAMPLED_FOLDERS}
    assert len(listed) > 40 and not unlisted, sorted(unlisted)


@pytest.mark.parametrize("page_path", _page_paths())
def test_no_serious_violation(stored_tab, site_url, page_path):  # noqa: F811
    """All of axe's rules at 1280 px, then the layout rules again at 360 px."""
    stored_tab.set_viewport_size({"width": WIDE, "height": 900})
    _open(stored_tab, site_url + page_path)
    exclude = REPEATED_PARTS if page_path else ()
    found = [f"at {WIDE} px: {line}" for line in _violations(stored_tab, exclude=exclude)]
    stored_tab.set_viewport_size({"width": NARROW, "height": 900})
    # the theme's transitions after a resize (its drawer's links fade): axe reads the colours drawn
    stored_tab.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    found += [f"at {NARROW} px: {line}" for line in _violations(stored_tab, LAYOUT_RULES, exclude)]
    assert found == [], f"/{page_path}:\n" + "\n".join(found)


@pytest.mark.parametrize("width", (NARROW, WIDE))
def test_no_serious_violation_on_a_live_calculators_page(browser, site_url, width):  # noqa: F811
    context = _with_axe(browser.new_context(bypass_csp=True, viewport={"width": width, "height": 900}))
    page = context.new_page()
    _open(page, site_url + LIVE_PAGE)
    assert page.evaluate("window.rulesLibLive.status") == "live", page.evaluate("window.rulesLibLive.error")
    found = _violations(page)
    context.close()
    assert found == [], f"{LIVE_PAGE} live at {width} px:\n" + "\n".join(found)


def test_a_violation_is_reported(stored_tab, site_url):  # noqa: F811
    """The control case: an image without a text alternative, planted in the home page, is found."""
    stored_tab.set_viewport_size({"width": WIDE, "height": 900})
    _open(stored_tab, site_url)
    stored_tab.evaluate("""() => {
      const planted = document.createElement("img");
      planted.src = "data:image/gif;base64,R0lGODlhAQABAAAAACw=";
      document.querySelector(".md-content").append(planted);
    }""")
    found = _violations(stored_tab)
    assert any(line.startswith("critical image-alt ") for line in found), found
