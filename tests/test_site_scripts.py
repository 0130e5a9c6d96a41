"""The site's own scripts: their regular expressions cannot backtrack catastrophically, and the dice
patterns of live-calculators.js find what the rule text writes.

Every regular expression literal and ``new RegExp("...")`` of ``book/javascripts/*.js`` (and the
search separator of ``mkdocs.yml``) is run by node against pathological strings: repeats of every
one- and two-character unit its own text mentions, and of units known to break dice notation
(``"D11" * 30 + "!"`` took years with the pattern issue 15 found). A pattern that backtracks
exponentially never finishes on them; linear ones take milliseconds. No time is asserted: node gets
a bound of minutes, and the test names the pattern it was running if the bound is reached.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "book" / "javascripts").glob("*.js"))
#: a repeated unit this many times: 2**30 ways for an exponential pattern, nothing for a linear one
REPEATS = 30
#: long runs for the polynomial case (a quadratic pattern takes seconds, a cubic one hours)
LONG = 20_000
BOUND_SECONDS = 300  # generous: the whole run takes about a second

_PRECEDES_REGEX = set("(,=:[!&|?{};+-*%<>~^") | {""}
_KEYWORDS_BEFORE_REGEX = {"return", "typeof", "case", "do", "else", "in", "of", "void", "yield", "await"}


def _node() -> str:
    path = shutil.which("node")
    assert path, "node is needed to test the site's scripts (Debian package nodejs)"
    return path


def _string_end(text: str, start: int) -> int:
    quote = text[start]
    i = start + 1
    while text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return i + 1


def _regex_end(text: str, start: int) -> int:
    """The index after a regex literal's flags, ``text[start]`` being its opening slash."""
    i, in_class = start + 1, False
    while True:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "\n":
            raise ValueError(f"unterminated regular expression at {start}")
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            break
        i += 1
    i += 1
    while i < len(text) and text[i].isalpha():
        i += 1
    return i


def regex_literals(source: str) -> list[tuple[int, str, str]]:
    """(line, pattern, flags) of every regex literal and ``RegExp("...")`` string of a script."""
    found = []
    i, previous, word = 0, "", ""
    while i < len(source):
        c = source[i]
        if source.startswith("//", i):
            i = source.index("\n", i) if "\n" in source[i:] else len(source)
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if c in "'\"`":
            end = _string_end(source, i)
            if re.search(r"RegExp\(\s*$", source[max(0, i - 20):i]):
                pattern = json.loads('"' + source[i + 1:end - 1].replace('\\"', '"').replace('"', '\\"') + '"') \
                    if c != "`" else source[i + 1:end - 1]
                flags = re.match(r"\s*,\s*[\"'](\w*)[\"']", source[end:])
                found.append((source.count("\n", 0, i) + 1, pattern, flags.group(1) if flags else ""))
            i, previous, word = end, "x", ""
            continue
        if c == "/" and (previous in _PRECEDES_REGEX or word in _KEYWORDS_BEFORE_REGEX):
            end = _regex_end(source, i)
            body, _, flags = source[i + 1:end].rpartition("/")
            found.append((source.count("\n", 0, i) + 1, body, flags))
            i, previous, word = end, "x", ""
            continue
        if c.isalnum() or c in "_$":
            start = i
            while i < len(source) and (source[i].isalnum() or source[i] in "_$"):
                i += 1
            word, previous = source[start:i], "x"
            continue
        if not c.isspace():
            previous, word = c, ""
        i += 1
    return found


def site_patterns() -> list[tuple[str, str, str]]:
    """(where, pattern, flags) of every regular expression the site's scripts run."""
    patterns = []
    for script in SCRIPTS:
        for line, pattern, flags in regex_literals(script.read_text(encoding="utf-8")):
            patterns.append((f"{script.relative_to(ROOT)}:{line}", pattern, flags))
    separator = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8").replace("!!python", "#"))
    for plugin in separator["plugins"]:
        if isinstance(plugin, dict) and "search" in plugin and "separator" in plugin["search"]:
            patterns.append(("mkdocs.yml search separator", plugin["search"]["separator"], "g"))
    return patterns


def _named(script: Path, name: str) -> tuple[str, str]:
    source = script.read_text(encoding="utf-8")
    start = re.search(rf"\bconst {name}\s*=\s*", source).end()
    end = _regex_end(source, start)
    body, _, flags = source[start + 1:end].rpartition("/")
    return body, flags


# Units that break dice notation and citations when repeated (issue 15: "D11" * 16 + "!" took 4.4 s)
KNOWN_UNITS = ["D11", "1D6+", "1D", "BB", "BBM", "GS+1", "d6", "11", "+1", "-1", "1-", "L1-", "§1-", "line 1, ",  # citation-format: keep (an older form the site still reads)
               "１Ｄ６＋", "１", "　", " ", "a", "aa", "\n", "()", "<=", "=1", "U", "R", "×1"]


def _pathological(pattern: str) -> list[str]:
    """Strings that make a backtracking pattern take exponential (or high polynomial) time."""
    alphabet = sorted({c for c in re.sub(r"\\[dDwWsSbB]", "", pattern) if c.isprintable()} | set("1aA -+D\u3000１"))
    units = set(KNOWN_UNITS) | set(alphabet) | {a + b for a in alphabet for b in alphabet}
    strings = []
    for unit in sorted(units):
        for tail in ("!", "\u0000", "."):
            strings.append(unit * REPEATS + tail)
    for unit in KNOWN_UNITS + alphabet[:12]:
        strings.append(unit * (LONG // len(unit)) + "!")
    return strings


_RUNNER = r"""
const lines = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
for (const line of lines) {
  const { where, pattern, flags, strings } = JSON.parse(line);
  const regex = new RegExp(pattern, flags.replace("y", ""));
  process.stdout.write(`start ${where}\n`);
  for (const s of strings) {
    regex.lastIndex = 0;
    if (flags.includes("g")) [...s.matchAll(regex)];
    else regex.test(s);
    s.split(regex);
  }
  process.stdout.write(`done ${where}\n`);
}
"""


def _run(patterns: list[tuple[str, str, str]], timeout: float) -> tuple[str | None, str]:
    """Run every pattern on its pathological strings; the pattern still running when time ran out."""
    jobs = "\n".join(json.dumps({"where": w, "pattern": p, "flags": f, "strings": _pathological(p)})
                     for w, p, f in patterns)
    process = subprocess.Popen([_node(), "-e", _RUNNER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        out, err = process.communicate(jobs, timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        started = [line[6:] for line in out.splitlines() if line.startswith("start ")]
        return (started[-1] if started else "(none)"), out
    assert process.returncode == 0, err
    return None, out


def test_every_script_pattern_is_found():
    patterns = site_patterns()
    where = [w for w, _, _ in patterns]
    assert any("live-calculators.js" in w for w in where), where
    dice = _named(ROOT / "book/javascripts/live-calculators.js", "DICE_TEXT")
    prose = _named(ROOT / "book/javascripts/live-calculators.js", "PROSE_DICE")
    assert dice in [(p, f) for _, p, f in patterns] and prose in [(p, f) for _, p, f in patterns]


def test_no_pattern_of_the_site_backtracks_catastrophically():
    patterns = site_patterns()
    hung, out = _run(patterns, BOUND_SECONDS)
    assert hung is None, f"{hung} did not finish on pathological strings in {BOUND_SECONDS} s"
    assert out.count("done ") == len(patterns)


def test_the_pathological_strings_catch_the_pattern_issue_15_found():
    """The harness itself: the old dice pattern (exponential on "D11" * n + "!") never finishes on them."""
    old = r"^(?=[^A-Z]*(?:\d*D\d|BBM?|GS))(?:BBM?|GS|\d*D\d+|[0-9+\-*/×÷()<>=UR ])+$"
    # years on these strings (56 s at 20 repeats, x16 per extra repeat): 3 s can only end one way
    hung, _ = _run([("old DICE_TEXT", old, "i")], timeout=3)
    assert hung == "old DICE_TEXT"


def _matches(name: str, texts: list[str]) -> list:
    pattern, flags = _named(ROOT / "book/javascripts/live-calculators.js", name)
    script = (
        f"const r = new RegExp({json.dumps(pattern)}, {json.dumps(flags)});"
        f"const texts = {json.dumps(texts, ensure_ascii=False)};"
        "console.log(JSON.stringify(texts.map(t => r.global ? [...t.matchAll(r)].map(m => m[2]) : r.test(t))));"
    )
    out = subprocess.run([_node(), "-e", script], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_dice_in_inline_code_are_recognised_and_nothing_else():
    texts = ["2D6", "3D6+3", "1D36", "D66", "BB+14>54", "BBM+3>45", "GS+3>7", "2D6>=10", "1D20+1", "(2D6+3)*2",
             "2d6", "SL<=13", "AD[34(5)]R", "OP5>3", "VW+8@11>14",
             "evasion", "54", "DD", "D", "3D", "x2D6", "2D6!", "rules_lib.dice", "A", "BAD", "R2"]
    assert _matches("DICE_TEXT", texts) == [True] * 15 + [False] * 11


def test_dice_in_prose_are_found_where_the_text_writes_them():
    """Group 2 of each match is the dice the page makes clickable."""
    texts = [
        "roll 2D6 and add 3D6+3, or 1D20＋1 (１Ｄ２０＋１) against 2D6>=10",
        "a d20 roll, 1D36 read as tens and units; BB+14>54 and GS+3>7 in BCDice",
        "D66 tables, 1D6+1D6-2, and 3D6+2+1+1+1+1+1+1+1 (six terms at most)",
        "not dice: 12D, SS-01, D-day, DDR, 2D6x, BB alone, 1,000, L10, §7-1, x2D6",  # citation-format: keep (not dice)
        "2D6 3D6,1D6",
    ]
    assert _matches("PROSE_DICE", texts) == [
        ["2D6", "3D6+3", "1D20＋1", "１Ｄ２０＋１", "2D6>=10"],
        ["d20", "1D36", "BB+14>54", "GS+3>7"],
        ["D66", "1D6+1D6-2"],
        [],
        ["2D6", "3D6", "1D6"],
    ]


@pytest.mark.parametrize(("expression", "dice", "line"), [
    ("2D6>=10", [4, 6], "2D6>=10 = 10: success"),
    ("2D6>=10", [4, 5], "2D6>=10 = 9: failure"),
    ("BB+14>54", [3, 6], "BB+14>54 = 62: hit"),
    ("BB+14>54", [3, 1], "BB+14>54 = 53: miss"),
    ("GS+3>7", [2, 2], "GS+3>7 = 7: failure"),
    ("3D6+3", [1, 2, 3], "3D6+3 = 9"),
])
def test_a_clicked_roll_says_its_outcome_in_the_shown_line(monkeypatch, expression, dice, line):
    """The page shows ``line`` after the arrow: a comparison's outcome is read, not hovered for."""
    from rules_lib import browser, cli

    systems = {name: (lambda text, roll=roll: roll(text, dice=dice), odds) for name, (roll, odds) in cli.SYSTEMS.items()}
    monkeypatch.setattr(cli, "SYSTEMS", systems)
    shown = json.loads(browser.roll_inline(expression))
    assert shown["ok"] and shown["line"] == line
    assert shown["outcome"] == (line.rsplit(": ", 1)[1] if ": " in line else None)


def _drawn_models() -> set[str]:
    """The widget models live-widgets.js draws (its ``VIEWS``), and the models it only reads."""
    script = (ROOT / "book/javascripts/live-widgets.js").read_text(encoding="utf-8")
    views = script[script.index("const VIEWS = {"):script.index("\n  };\n", script.index("const VIEWS = {"))]
    return set(re.findall(r"^    (\w+Model)\b", views, re.M))


def test_every_stored_widget_is_one_live_widgets_draws():
    # a notebook showing a control the script does not draw would stop its page's widgets: found here first
    drawn = _drawn_models()
    assert {"VBoxModel", "HTMLModel", "BoundedIntTextModel", "ButtonModel"} <= drawn
    read_only = re.compile(r"(Layout|Style)Model$")  # a layout or style: read by the views that use it
    stored: dict[str, str] = {}
    for notebook in sorted((ROOT / "book").glob("*/*.ipynb")):
        state = json.loads(notebook.read_text(encoding="utf-8")).get("metadata", {}).get("widgets", {})
        models = state.get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        for model in models.values():
            stored.setdefault(model["model_name"], notebook.relative_to(ROOT).as_posix())
    assert stored, "no notebook stores widget state"
    missing = {name: where for name, where in stored.items() if name not in drawn and not read_only.search(name)}
    assert missing == {}, f"add a view to book/javascripts/live-widgets.js for {missing}"
