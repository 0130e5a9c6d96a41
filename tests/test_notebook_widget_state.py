"""Each notebook's stored widget state matches its widget outputs (issue 34, item 9).

The site draws a calculator from the state stored in the notebook's metadata. JupyterLab, saving
a notebook after Run All, gives each widget output a new model id but (unless its "Save Widget
State Automatically" setting is on) keeps the old state, or none: the page then shows no
calculator, and before this test only the site build noticed. ``tools/execute_book.py`` stores
both together, with seeded ids. This is the pre-commit check: it fails on such a save and names
the command that repairs it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[1] / "book"
NOTEBOOKS = sorted(p for p in BOOK.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
VIEW = "application/vnd.jupyter.widget-view+json"
STATE = "application/vnd.jupyter.widget-state+json"
#: how one model's state refers to another (a child, a layout, a style)
REFERENCE = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def shown_models(notebook: dict) -> list[tuple[int, str]]:
    """(cell index, model id) of every widget output."""
    return [(index, output["data"][VIEW]["model_id"])
            for index, cell in enumerate(notebook["cells"])
            for output in cell.get("outputs", [])
            if VIEW in output.get("data", {})]


def stored_models(notebook: dict) -> dict[str, dict]:
    return notebook.get("metadata", {}).get("widgets", {}).get(STATE, {}).get("state", {})


def reachable(models: dict[str, dict], roots: list[str]) -> set[str]:
    """The models the roots show, following each state's references to other models."""
    seen: set[str] = set()
    todo = [root for root in roots if root in models]
    while todo:
        model_id = todo.pop()
        if model_id in seen:
            continue
        seen.add(model_id)
        todo.extend(ref for ref in REFERENCE.findall(json.dumps(models[model_id])) if ref in models)
    return seen


def state_problems(notebook: dict) -> list[str]:
    """What does not match between the widget outputs and the stored state (empty: they match)."""
    models = stored_models(notebook)
    shown = shown_models(notebook)
    problems = [f"cell {index} shows widget model {model_id}, which the stored widget state does not hold"
                for index, model_id in shown if model_id not in models]
    leftover = set(models) - reachable(models, [model_id for _, model_id in shown])
    if leftover:
        problems.append(f"the stored widget state holds {len(leftover)} models no output shows")
    return problems


def fix_hint(path: Path) -> str:
    return (f"{path.relative_to(BOOK.parent)}: saved without its widget state (JupyterLab?): "
            f"run `.venv/bin/python tools/execute_book.py {path.relative_to(BOOK.parent)}`")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(BOOK)))
def test_every_widget_output_has_its_stored_state_and_nothing_else(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    problems = state_problems(notebook)
    assert not problems, fix_hint(path) + "\n" + "\n".join(problems)


def test_a_jupyterlab_save_after_run_all_is_caught():
    """Control: new model ids in the outputs and the old state, as JupyterLab saves them."""
    path = BOOK / "wis6" / "07-calculators.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert state_problems(notebook) == []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            if VIEW in output.get("data", {}):
                output["data"][VIEW]["model_id"] = "0" * 32
    problems = state_problems(notebook)
    assert any("does not hold" in p for p in problems) and any("no output shows" in p for p in problems)
    # and a save with no state at all
    notebook["metadata"].pop("widgets")
    assert state_problems(notebook) and "execute_book.py book/wis6/07-calculators.ipynb" in fix_hint(path)
