"""The published book reads as a rules book: code out of the search index, API pages without raw roles.

Uses the site in $RULES_LIB_SITE_DIR (`make test` builds it beside these tests: they wait for it),
else builds one. The search ranking of glossary terms and the code toggle are checked in a real
browser (tests/test_browser.py).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import tag_cells  # noqa: E402
from mkdocs_hooks import (  # noqa: E402
    BUILD_PLACEHOLDER,
    CHAPTERS,
    build_id,
    declare_japanese_faces,
    exclude_code_from_search,
    japanese_subsets_shown,
    preload_japanese_fonts,
    start_python_early,
    stored_inputs,
    widgets_as_parsed,
)
from vendor import JAPANESE_FROM, japanese_font_subsets, japanese_subsets_for  # noqa: E402

RAW_ROLE = re.compile(r":(?:py:)?(?:mod|func|class|meth|attr|data|exc|obj|const):")


def test_cell_tags_are_current():
    assert tag_cells.main(["--check"]) == 0, "run: python tools/tag_cells.py"


def test_set_up_calculator_and_check_cells_get_their_tags():
    def cell(source, outputs=()):
        return {"cell_type": "code", "source": source, "metadata": {}, "outputs": list(outputs)}

    widget = {"output_type": "execute_result", "data": {tag_cells.WIDGET_VIEW: {}, "text/plain": ""}}
    shown = {"output_type": "execute_result", "data": {"text/html": "✓"}}
    assert tag_cells.wanted_tag(cell("from x import y\n\ndef f():\n    return 1\nZ = 2\n")) == "remove-cell"
    assert tag_cells.wanted_tag(cell("assert 1 + 1 == 2\n")) is None  # a check, not set-up
    assert tag_cells.wanted_tag(cell("Calculator(3)", [widget])) == "output-only"
    assert tag_cells.wanted_tag(cell('check_example("a", x=1)\ndisplay(check_example("b", y=2))', [shown])) == "output-only"
    assert tag_cells.wanted_tag(cell('r = roll("2D6")\ncheck_example("a", total=r)', [shown])) is None

    notebook = {"cells": [cell("import x"), {"cell_type": "markdown", "source": "# T", "metadata": {}}]}
    notebook["cells"][0]["metadata"]["tags"] = ["nbval-skip", "output-only"]
    assert tag_cells.retag(notebook) == [0]
    assert notebook["cells"][0]["metadata"]["tags"] == ["nbval-skip", "remove-cell"]  # hand-written tags kept
    assert tag_cells.retag(notebook) == []


def test_code_cells_become_sections_the_search_indexer_skips_whole():
    cell = ('<div class="jp-Cell jp-CodeCell jp-Notebook-cell celltag_output-only">'
            '<div class="jp-Cell jp-CodeCell jp-Notebook-cell"><div><pre>x = 1</pre></div></div></div>')
    html = f'<div class="jp-Cell jp-MarkdownCell"><p>prose</p></div>{cell}<p>after</p>'
    out = exclude_code_from_search(html)
    assert out == ('<div class="jp-Cell jp-MarkdownCell"><p>prose</p></div>'
                   '<section data-search-exclude="code" class="jp-Cell jp-CodeCell jp-Notebook-cell celltag_output-only">'
                   '<div class="jp-Cell jp-CodeCell jp-Notebook-cell"><div><pre>x = 1</pre></div></div></section><p>after</p>')
    with pytest.raises(ValueError, match="unbalanced"):
        exclude_code_from_search(cell[:-6])


def test_a_page_with_calculators_starts_their_python_from_its_head():
    state = ('<script type="application/vnd.jupyter.widget-state+json">{"a": {"_dom_classes": '
             '["rules-lib-live--rules_lib.widgets.wis6:HitOdds"]}, "b": {"_dom_classes": '
             '["rules-lib-live--rules_lib.widgets.wis6:HitOdds", "rules-lib-live--rules_lib.widgets.wis6:Growth"]}}</script>')
    page = f'<html><head><meta charset="utf-8"><link rel="stylesheet" href="x.css"></head><body>{state}</body></html>'
    started = start_python_early(page, "../..")
    head = started[:started.index("</head>")]
    # before the stylesheets, which would hold a script back; each class named once, in order
    assert head.index("new SharedWorker(") < head.index("new Worker(") < head.index('<link rel="stylesheet"')
    assert 'new URL("../../", location.href)' in head
    assert '["rules_lib.widgets.wis6:HitOdds", "rules_lib.widgets.wis6:Growth"]' in head
    # one Python for the pages of the build's snapshot group (the build's id goes in once it is made)
    assert f'name: "rules-lib-python {BUILD_PLACEHOLDER} wis6", extendedLifetime: true' in head
    # and the stored inputs of each class's first view, for Python to load while the page draws
    assert "stored: {}" in head  # (this page has no views)
    # a page without live calculators starts nothing
    assert start_python_early(page.replace("rules-lib-live--", "other--"), "..") == page.replace("rules-lib-live--", "other--")


def test_a_page_sends_its_calculators_stored_inputs_from_its_head_without_their_results():
    state = {"state": {
        "root": {"state": {"_model_name": "VBoxModel", "_dom_classes": ["rules-lib-live--m:Calc"],
                           "children": ["IPY_MODEL_input", "IPY_MODEL_result"]}},
        "input": {"state": {"_model_name": "IntSliderModel", "value": 7}},
        "result": {"state": {"_model_name": "HTMLModel", "value": "<p>a long result</p>"}},
        "again": {"state": {"_model_name": "VBoxModel", "_dom_classes": ["rules-lib-live--m:Calc"], "children": []}},
    }}
    views = "".join(f'<script type="application/vnd.jupyter.widget-view+json">{{"model_id": "{m}"}}</script>'
                    for m in ("root", "again"))
    page = f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>{views}'
    # depth-first as the page pairs it; the first view of a class
    assert stored_inputs(page) == {"m:Calc": [{}, {"value": 7}, {}]}
    assert stored_inputs("<p>no widgets</p>") == {}


SCRIPTS = ('<script src="../../javascripts/live-widgets.js"></script>'
           '<script src="../../javascripts/live-calculators.js"></script>')


def test_a_page_with_widgets_draws_each_one_as_the_parser_reaches_it():
    state = {"version_major": 2, "state": {
        "a": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_a1"], "layout": "IPY_MODEL_la"}},
        "a1": {"model_name": "HTMLModel", "state": {"value": "<p>1</p>", "layout": "IPY_MODEL_l1"}},
        "la": {"model_name": "LayoutModel", "state": {}}, "l1": {"model_name": "LayoutModel", "state": {}},
        "b": {"model_name": "HTMLModel", "state": {"value": "<p>2</p>", "layout": "IPY_MODEL_lb"}},
        "lb": {"model_name": "LayoutModel", "state": {}},
    }}
    stored = f'<script type="application/vnd.jupyter.widget-state+json">{json.dumps(state)}</script>'
    views = [f'<script type="application/vnd.jupyter.widget-view+json">{{"model_id": "{m}"}}</script>' for m in "ab"]
    page = (f'<html><head><meta charset="utf-8"></head><body><p>intro</p>{views[0]}<p>between</p>{views[1]}'
            f'{stored}<script src="../../assets/javascripts/bundle.js"></script>{SCRIPTS}</body></html>')
    out = widgets_as_parsed(page, "../..")
    tag = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', re.S)
    first, rest = (json.loads(part) for part in tag.findall(out))
    # the first widget's models (its children, layouts and theirs) before it, with the two scripts;
    # every other model where the state was: split, not copied
    assert sorted(first["state"]) == ["a", "a1", "l1", "la"] and sorted(rest["state"]) == ["b", "lb"]
    assert first["version_major"] == rest["version_major"] == 2
    assert first["state"]["a1"] == state["state"]["a1"]
    assert out.count(SCRIPTS) == 1
    assert out.index("<p>intro</p>") < out.index(SCRIPTS) < out.index(views[0])
    assert out.rindex("widget-state+json", 0, out.index(SCRIPTS)) > out.index("<p>intro</p>")
    # no text in the state ends its script early
    assert "</p>" not in out[out.index("widget-state+json"):out.index(SCRIPTS)].replace("</script>", "")
    # each widget placed as soon as it is parsed; the rest of the state, then the theme's bundle, at the end
    placed = "<script>window.rulesLibLive&&rulesLibLive.place&&rulesLibLive.place()</script>"
    assert f"{views[0]}{placed}<p>between</p>{views[1]}{placed}" in out
    assert out.index(views[1]) < out.rindex("widget-state+json") < out.index("bundle.js")
    # the parser waits for the two scripts: the head has asked for them already
    head = out[:out.index("</head>")]
    assert head.count('rel="preload" as="script"') == 2 and 'href="../../javascripts/live-calculators.js"' in head
    # a page whose one widget holds every model has one part; a page without stored widgets is left as it is
    alone = {**state, "state": {k: m for k, m in state["state"].items() if k in ("a", "a1", "la", "l1")}}
    single = page.replace(views[1], "").replace(json.dumps(state), json.dumps(alone))
    assert len(tag.findall(widgets_as_parsed(single, "../.."))) == 1
    plain = f"<html><head><meta charset=\"utf-8\"></head><body><p>text</p>{SCRIPTS}</body></html>"
    assert widgets_as_parsed(plain, "../..") == plain


def test_every_page_with_widgets_has_their_state_and_scripts_before_the_first(site_dir):
    pages = [p for p in sorted(site_dir.rglob("*.html")) if "widget-state+json" in p.read_text(encoding="utf-8")]
    assert len(pages) > 10
    tag = re.compile(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)</script>', re.S)
    for path in pages:
        html = path.read_text(encoding="utf-8")
        first_view = html.index('<script type="application/vnd.jupyter.widget-view+json">')
        scripts = re.search(r'<script src="[^"]*javascripts/live-calculators\.js"[^>]*></script>', html).start()
        assert html.index("widget-state+json") < scripts < first_view, path
        assert html.count("rulesLibLive.place()") == html.count("widget-view+json"), path
        # every view's model is in one part of the state, and no model in two
        parts = [json.loads(text)["state"] for text in tag.findall(html)]
        assert sum(len(part) for part in parts) == len({key for part in parts for key in part}), path
        for view in re.findall(r'<script type="application/vnd\.jupyter\.widget-view\+json">(.*?)</script>', html, re.S):
            assert any(json.loads(view)["model_id"] in part for part in parts), path


def test_every_calculators_page_names_its_python_after_the_build_and_its_snapshot_group(site_dir):
    build = build_id(site_dir)
    groups = {}
    for path in sorted(site_dir.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        assert BUILD_PLACEHOLDER not in html, path
        for group in re.findall(rf'name: "rules-lib-python {build} ([a-z0-9_]+)"', html):
            groups.setdefault(group, []).append(path.relative_to(site_dir).parent.as_posix())
    # a group a system (its chapters with calculators), the sheets, the dice; none a page of its own
    assert sorted(groups) == ["dice_odds", "gundam_sentinel", "nemesis", "sheets", "verse_world", "wis6"]
    assert "gundam-sentinel/07-calculators" in groups["gundam_sentinel"]
    assert "gundam-sentinel/06-first-battle" in groups["gundam_sentinel"]


def test_a_page_asks_for_the_japanese_font_subsets_of_its_text_and_widgets_first():
    state = ('<script type="application/vnd.jupyter.widget-state+json">'
             '{"a": {"description": "\\u56de\\u907f\\u5024"}}</script>')  # 回避値, as the JSON escapes it
    script = '<script>var entities = "♠♣♦◊";</script><style>p::before { content: "☆"; }</style>'
    page = (f'<html><head><meta charset="utf-8"><link rel="stylesheet" href="x.css">{script}</head>'
            f'<body><p>Attack (攻撃) &amp; ガンダム</p>{state}</body></html>')
    out = preload_japanese_fonts(page, "../..")
    head = out[:out.index("</head>")]
    links = re.findall(r'<link rel="preload" as="font" type="font/woff2" crossorigin href="([^"]+)">', head)
    assert links == [f"../../vendor/{path}" for path in japanese_subsets_for("攻撃ガンダム回避値")]
    assert links and head.index('rel="preload"') < head.index('rel="stylesheet"')
    # a script's or a stylesheet's characters are never shown: their subsets are not asked for
    assert not set(japanese_subsets_for("♠♣♦◊☆")) & set(japanese_subsets_for("攻撃ガンダム回避値"))
    assert preload_japanese_fonts(page.replace("攻撃", "").replace("ガンダム", "").replace(state, ""), "..").count(
        'rel="preload"') == 0


def test_the_calculators_pages_preload_every_font_subset_they_show(site_dir):
    for path in sorted(site_dir.glob("*/[0-9]*-calculators/index.html")):
        html = path.read_text(encoding="utf-8")
        preloaded = re.findall(r'rel="preload" as="font"[^>]*href="[./]*/vendor/([^"]+)"', html)
        assert preloaded, path
        assert all((site_dir / "vendor" / name).is_file() for name in preloaded), path


_FACE = re.compile(r'@font-face\{font-family:"Noto Sans JP";[^}]*src:url\("([^"]+)"\) format\("woff2"\);unicode-range:([^}]+)\}')


def test_a_page_declares_the_japanese_faces_of_its_own_text_only_and_how_to_declare_the_rest():
    state = ('<script type="application/vnd.jupyter.widget-state+json">'
             '{"a": {"description": "\\u56de\\u907f\\u5024"}}</script>')  # 回避値, as the JSON escapes it
    page = (f'<html><head><meta charset="utf-8"><link rel="stylesheet" href="x.css"><script>"♠";</script></head>'
            f'<body><p>Attack (攻撃) &amp; ガンダム</p>{state}</body></html>')
    out = declare_japanese_faces(page, "../..")
    head = out[:out.index("</head>")]
    faces = _FACE.findall(head)
    wanted = japanese_subsets_for("攻撃ガンダム回避値")
    assert [url for url, _ in faces] == [f"../../vendor/{path}" for path in wanted] and faces
    # each face as the site's copy of the font's CSS declares it: the same ranges
    ranges = dict(japanese_font_subsets())
    for (_, declared), path in zip(faces, wanted, strict=True):
        assert declared == ",".join(f"U+{a:X}" + (f"-{b:X}" if b != a else "") for a, b in ranges[path])
    assert head.index("@font-face") < head.index('rel="stylesheet"')  # before the stylesheets that use them
    script = re.search(r'<script data-all="([^"]+)" data-from="(\d+)">', head)
    assert script.groups() == ("../../vendor/noto-sans-jp/400.css", str(JAPANESE_FROM))
    # no Japanese shown: no faces, still the script (a search result may need them)
    bare = declare_japanese_faces(page.replace("攻撃", "").replace("ガンダム", "").replace(state, ""), "..")
    assert "@font-face" not in bare and 'data-all="../vendor/noto-sans-jp/400.css"' in bare


def test_every_page_declares_a_face_for_each_japanese_character_it_shows_and_no_page_all(site_dir):
    assert "@import" not in (site_dir / "stylesheets" / "fonts.css").read_text(encoding="utf-8")
    assert (site_dir / "vendor" / "noto-sans-jp" / "400.css").is_file()  # what japanese-font.js declares
    pages = sorted(site_dir.rglob("*.html"))
    assert len(pages) > 40 and site_dir / "404.html" in pages
    for path in pages:
        html = path.read_text(encoding="utf-8")
        declared = {url.split("/vendor/", 1)[1] for url, _ in _FACE.findall(html)}
        assert declared == set(japanese_subsets_shown(html)), path
        assert len(declared) < len(japanese_font_subsets()), path
        assert all((site_dir / "vendor" / name).is_file() for name in declared), path
        assert 'data-all="' in html, path


def test_notebook_pages_load_no_widget_manager(site_dir):
    # live-widgets.js draws the stored widgets: no require.js, no html-manager bundle, no CDN
    page = (site_dir / "gundam-sentinel/07-calculators/index.html").read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" in page
    assert "addWidgetsRenderer" not in page and "require.js" not in page and "embed-amd" not in page
    assert not (site_dir / "vendor/html-manager").exists()
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts.index("../../javascripts/live-widgets.js") < scripts.index("../../javascripts/live-calculators.js")


def test_the_hook_refuses_a_widget_manager_it_does_not_know():
    from mkdocs_hooks import without_widget_manager

    with pytest.raises(RuntimeError, match="_WIDGET_MANAGER"):
        without_widget_manager('<script src="https://unpkg.com/@jupyter-widgets/html-manager@*/dist/embed-amd.js"></script>')


@pytest.mark.parametrize("edition", ["", "ja/"])
def test_search_index_holds_prose_not_code(site_dir, edition):
    docs = json.loads((site_dir / edition / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    notebook_docs = [d for d in docs if d["location"].removeprefix(edition).split("/")[0] in CHAPTERS]
    assert len(notebook_docs) > 100
    with_code = [d["location"] for d in docs if "<pre>" in d["text"] or "Copied!" in d["text"]]
    assert with_code == []
    # a line of code every set-up cell has is nowhere in the index
    assert not [d["location"] for d in docs if "from rules_lib" in d["text"]]


def test_api_pages_show_no_sphinx_roles_and_link_their_cross_references(site_dir):
    pages = sorted((site_dir / "reference").glob("*/index.html"))
    assert len(pages) >= 9
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not RAW_ROLE.search(html), f"{page.parent.name}: {RAW_ROLE.search(html).group(0)}"
    wis6 = (site_dir / "reference/rules_lib.wis6/index.html").read_text(encoding="utf-8")
    # `:class:`IllegalStep`` in a docstring is now a link to the class
    assert re.search(r'<a class="autorefs autorefs-(internal|external)"[^>]*href="[^"]*#rules_lib\.[\w.]*IllegalStep"', wis6)


def test_notebook_pages_have_no_prompts_and_no_set_up_cells(site_dir):
    html = (site_dir / "gundam-sentinel/01-combat-round/index.html").read_text(encoding="utf-8")
    assert "In&nbsp;[" not in html and "Out[" not in html
    assert "from rules_lib" not in html


@pytest.mark.parametrize("edition", ["", "ja/"])
def test_each_glossary_row_is_a_search_entry_at_the_section_it_names(site_dir, edition):
    """In each edition's index, at that edition's page (a Japanese heading keeps the English id)."""
    from mkdocs_hooks import glossary_rows

    index = site_dir / edition / "search/search_index.json"
    docs = {d["location"]: d for d in json.loads(index.read_text(encoding="utf-8"))["docs"]}
    rows = glossary_rows()
    assert len(rows) > 200
    for row in rows:
        entry = docs[f"{edition}{row.page}#{row.anchor}"]
        assert set(row.terms[0].split()) <= set(entry["tags"]), row
        assert ("用語集より" if edition else "in the glossary") in entry["text"]
        html = (site_dir / edition / row.page / "index.html").read_text(encoding="utf-8")
        # the term's anchor sits just before the heading the glossary links to
        heading = re.escape(row.heading) if row.heading else '[^"]+'
        assert re.search(rf'<span id="{row.anchor}"></span>(?:<span id="term-[^"]+"></span>)*<h[1-6][^>]*id="{heading}"', html), row
    evasion = [r for r in rows if "回避値" in r.terms and r.page == "gundam-sentinel/03-to-hit/"]
    assert evasion and "回避値" in docs[f"{edition}{evasion[0].page}#{evasion[0].anchor}"]["tags"]


def test_the_search_worker_segments_a_kanji_query_to_its_end(site_dir):
    from mkdocs_hooks import _SEGMENTER_FIX

    (worker,) = (site_dir / "assets/javascripts/workers").glob("search.*.min.js")
    code = worker.read_text(encoding="utf-8")
    assert all(new in code for new in _SEGMENTER_FIX.values())
    assert not any(old in code for old in _SEGMENTER_FIX)


def test_the_notebook_stylesheet_keeps_only_the_rules_a_page_may_use():
    from unused_css import SiteNames, used_rules

    names = SiteNames(['<div class="jp-Cell shown"><pre id="out">x</pre></div>'],
                      ["el.classList.add(`mod-${style}`); el.className = 'jp-added';"])
    css = ("@font-face { font-family: x; }\n"
           ".jp-Cell { a: 1 }\n.jp-Absent { b: 2 }\n.jp-Absent, .shown pre { c: 3 }\n"
           ".jp-Cell:not(.jp-mod-absent) { d: 4 }\n:is(.jp-Absent) { e: 5 }\n#out { f: 6 }\n#gone { g: 7 }\n"
           "table.jp-Cell { h: 8 }\n.jp-added, .mod-danger { i: 9 }\n.x\\:y { j: 10 }\n"
           "@media (max-width: 9px) { .jp-Absent { k: 11 } .jp-Cell { l: 12 } }\n@media print { .jp-Absent { m: 13 } }\n")
    kept = used_rules(css, names)
    for present in ("font-family", "a: 1", "c: 3", "d: 4", "e: 5", "f: 6", "i: 9", "j: 10", "l: 12"):
        assert present in kept, present
    for dropped in ("b: 2", "g: 7", "h: 8", "k: 11", "m: 13", "@media print"):
        assert dropped not in kept, dropped


def test_notebook_pages_link_the_cut_stylesheet_and_every_stylesheet_they_link_exists(site_dir):
    sheets = sorted((site_dir / "assets" / "stylesheets").glob("notebook-*.css"))
    assert sheets and max(path.stat().st_size for path in sheets) < 200_000  # JupyterLab's whole is 575 KB
    for page in [site_dir / "gundam-sentinel" / "07-calculators" / "index.html", site_dir / "index.html"]:
        for href in re.findall(r'<link rel="stylesheet" href="([^"]+)"', page.read_text(encoding="utf-8")):
            assert (page.parent / href).resolve().is_file(), (page, href)


def test_a_chapter_title_names_its_system_unless_it_already_does():
    from mkdocs_hooks import page_title

    chapters = {"wis6": "WIS6", "nemesis": "Nemesis"}
    assert page_title("A first battle", "wis6/06-first-battle.ipynb", chapters) == "A first battle · WIS6"
    assert page_title("WIS6 at a glance", "wis6/00-glance.ipynb", chapters) == "WIS6 at a glance"
    assert page_title("Glossary", "glossary.md", chapters) == "Glossary"
    # the Japanese edition names the system in Japanese
    japanese = {"gundam-sentinel": "Gundam Sentinel"}
    assert page_title("はじめての戦闘", "ja/gundam-sentinel/06-first-battle.ipynb", japanese) == "はじめての戦闘 · ガンダム・センチネル"


def test_no_two_pages_share_a_title(site_dir):
    titles: dict[str, list[str]] = {}
    for page in sorted(site_dir.rglob("*.html")):
        found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
        if found and page.name != "404.html":
            titles.setdefault(found.group(1).strip(), []).append(str(page.relative_to(site_dir)))
    shared = {title: pages for title, pages in titles.items() if len(pages) > 1}
    assert not shared, shared
