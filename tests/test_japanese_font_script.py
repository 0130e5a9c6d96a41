"""book/javascripts/japanese-font.js in node, against a page's faces given as document.fonts: text the
page's own faces draw declares nothing; a character none of them holds declares every face, once;
and a browser without document.fonts declares every face rather than stop a calculator's update.
The same script in a real page: tests/test_browser.py (a unit sheet renamed 鬱金)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "book" / "javascripts" / "japanese-font.js"

RUN = """
const [fonts, calls] = JSON.parse(process.argv[1]);
const declared = [];
global.window = {};
global.document = {
  currentScript: { dataset: { from: "9312", all: "../vendor/noto-sans-jp/400.css" } },
  fonts: fonts === null ? undefined : fonts,
  addEventListener() {},
  createElement: () => ({}),
  head: { append: (link) => declared.push(link.href) },
};
eval(require("fs").readFileSync(process.argv[2], "utf8"));
const counts = calls.map((value) => (window.rulesLibJapaneseFont.cover(value), declared.length));
console.log(JSON.stringify({ counts, declared }));
"""

PAGE_FACES = [{"family": '"Noto Sans JP"', "unicodeRange": "U+56DE, U+907F-9081"},  # 回, 避..
              {"family": "Other", "unicodeRange": "U+9B31"}]  # 鬱 in another family does not count


def _cover(fonts, calls) -> dict:
    node = shutil.which("node")
    assert node, "node is needed (Debian package nodejs; make test installs it)"
    out = subprocess.run([node, "-e", RUN, json.dumps([fonts, calls]), str(SCRIPT)],
                         capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def test_text_the_pages_faces_draw_declares_nothing_and_other_japanese_every_face_once():
    found = _cover(PAGE_FACES, ["Attack — 12.5% × 2", "回避", {"options": ["避回", "<b>避</b>"]},
                                ["<td>鬱</td>"], "鬱金"])
    assert found == {"counts": [0, 0, 0, 1, 1], "declared": ["../vendor/noto-sans-jp/400.css"]}


def test_a_browser_without_document_fonts_declares_every_face_for_japanese_only():
    assert _cover(None, ["Latin only", "回避"])["counts"] == [0, 1]
