/*
 * Code out of the reader's way: a notebook page shows its prose and outputs, and hides the
 * code of each cell behind a small "show code" control. A switch at the top of the page shows
 * or hides all code at once and is remembered (localStorage) for every page of the book.
 *
 * Cells tagged output-only (calculators, ✓ checks; tools/tag_cells.py) and cells without output
 * get no control of their own: only the page-wide switch shows their code. Without JavaScript
 * all code stays visible.
 *
 * Its words are in the page's language (WORDS, keyed by <html lang>): a table at the top of each
 * script rather than one shared script, as the widget scripts run from the page's <head>
 * (tools/mkdocs_hooks.py, widgets_as_parsed) before the other scripts load.
 */
(function () {
  "use strict";
  const KEY = "rules-lib-show-code";
  const OPEN = "rules-lib-code-open";
  const WORDS = {
    en: { show: "show code", hide: "hide code", all: " show all code on every page" },
    ja: { show: "コードを表示", hide: "コードを隠す", all: " すべてのページでコードをすべて表示" },
  }[document.documentElement.lang === "ja" ? "ja" : "en"];

  function remembered() {
    try {
      return window.localStorage.getItem(KEY) === "1";
    } catch (error) {
      return false; // storage blocked: code hidden, the switch still works on this page
    }
  }

  function remember(on) {
    try {
      window.localStorage.setItem(KEY, on ? "1" : "0");
    } catch (error) {
      /* not remembered, nothing else lost */
    }
  }

  function label(cell, button) {
    const open = cell.classList.contains(OPEN);
    button.textContent = open ? WORDS.hide : WORDS.show;
    button.setAttribute("aria-expanded", String(open));
  }

  function setUp() {
    // nbconvert nests a code cell's div in another one (the outer carries the tags): take the outer
    const cells = Array.from(document.querySelectorAll(".jp-CodeCell")).filter(
      (cell) => !cell.parentElement.closest(".jp-CodeCell") && cell.querySelector(".jp-Cell-inputWrapper"),
    );
    if (!cells.length) return;
    const buttons = new Map();
    for (const cell of cells) {
      cell.classList.add("rules-lib-cell"); // its code is hidden until opened (book.css)
      // a cell with nothing to show but code (an assert) gets no control either: it would stand alone
      if (cell.classList.contains("celltag_output-only") || cell.classList.contains("jp-mod-noOutputs")) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "rules-lib-code-toggle";
      button.addEventListener("click", () => {
        cell.classList.toggle(OPEN);
        label(cell, button);
      });
      cell.insertBefore(button, cell.firstChild);
      buttons.set(cell, button);
    }

    const bar = document.createElement("label");
    bar.className = "rules-lib-code-switch";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.checked = remembered();
    bar.append(box, WORDS.all);
    // under the page title, else at the top of the notebook
    const title = document.querySelector(".jupyter-wrapper h1");
    const after = title ? title.closest(".jp-Cell") || title : null;
    if (after) after.after(bar);
    else cells[0].before(bar);

    function showAll(on) {
      for (const cell of cells) {
        cell.classList.toggle(OPEN, on);
        if (buttons.has(cell)) label(cell, buttons.get(cell));
      }
    }
    box.addEventListener("change", () => {
      remember(box.checked);
      showAll(box.checked);
    });
    showAll(box.checked);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
