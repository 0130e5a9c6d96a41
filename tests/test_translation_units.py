"""tools/translations.py: a translation is tied to the English it was made from, and editions share code."""

import copy
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))

import translations  # noqa: E402

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# The turn\n\nSee [odds](a.ipynb)."},
        {"cell_type": "code", "id": "check", "metadata": {}, "source": "1 + 1", "outputs": [], "execution_count": 1},
        {"cell_type": "markdown", "id": "rest", "metadata": {}, "source": "## Rest\n\nMore."},
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def translated() -> dict:
    notebook = copy.deepcopy(NOTEBOOK)
    translations.import_cells(notebook, {"intro": "# ターン\n\n[確率](a.ipynb)を見よ。"})
    return notebook


def test_an_imported_translation_is_current_and_follows_its_english_cell():
    notebook = translated()
    assert [c["id"] for c in notebook["cells"]] == ["intro", "intro-ja", "check", "rest"]
    states = {u.key: u.state for u in translations.notebook_units(Path("x.ipynb"), notebook)}
    assert states == {"intro": "current", "rest": "missing"}


def test_a_change_to_the_english_makes_its_translation_stale():
    notebook = translated()
    notebook["cells"][0]["source"] += " Changed."
    (intro, _) = translations.notebook_units(Path("x.ipynb"), notebook)
    assert intro.state == "stale"


def test_a_translation_must_keep_the_headings_and_links():
    notebook = copy.deepcopy(NOTEBOOK)
    with pytest.raises(ValueError, match="heading levels"):
        translations.import_cells(notebook, {"intro": "ターン\n\n[確率](a.ipynb)"})
    with pytest.raises(ValueError, match="link targets"):
        translations.import_cells(notebook, {"intro": "# ターン\n\n[確率](b.ipynb)"})
    with pytest.raises(ValueError, match="no English prose cell has the id check"):
        translations.import_cells(notebook, {"check": "x"})


def test_reimporting_replaces_the_earlier_translation():
    notebook = translated()
    translations.import_cells(notebook, {"intro": "# 手番\n\n[確率](a.ipynb)。"})
    ids = [c["id"] for c in notebook["cells"]]
    assert ids.count("intro-ja") == 1 and notebook["cells"][1]["source"].startswith("# 手番")


def test_editions_share_code_cells_and_swap_only_prose():
    notebook = translated()
    english, japanese = translations.edition(notebook, "en"), translations.edition(notebook, "ja")
    assert english["cells"] == NOTEBOOK["cells"]
    assert [c["id"] for c in japanese["cells"]] == ["intro", "check", "rest"]
    assert japanese["cells"][0]["source"].startswith("# ターン")
    assert japanese["cells"][1] == english["cells"][1]
    assert japanese["cells"][2] == english["cells"][2]  # not translated yet: stays English
    with pytest.raises(ValueError, match="language 'fr'"):
        translations.edition(notebook, "fr")


def test_a_japanese_cell_away_from_its_english_cell_is_refused():
    notebook = translated()
    notebook["cells"].insert(1, notebook["cells"].pop(2))  # the code cell between the pair
    with pytest.raises(ValueError, match="not right after that English cell"):
        translations.notebook_units(Path("x.ipynb"), notebook)


def test_export_and_parse_round_trip_the_english_cells():
    exported = translations.export_cells(translated())
    assert translations.parse_cells(exported) == {"intro": NOTEBOOK["cells"][0]["source"], "rest": "## Rest\n\nMore."}
