/*
 * A box that scrolls sideways can be reached, named and seen to scroll.
 *
 * Wide content (a battle's unit table, a board, a table of the theme) scrolls inside its own box
 * rather than widening the page (stylesheets/widgets.css). Such a box, while its content is wider
 * than it, is made focusable (tabindex 0: the arrow keys then scroll it), a named region ("… —
 * scrolls sideways"), and gets the class rules-lib-scrolls, which shows the same cue as text above
 * it (stylesheets/book.css). A box whose content fits again loses all three. Boxes are looked at
 * when the page is drawn, when a cell is first drawn, when one changes size, and when a live
 * calculator redraws one, and when a web font has loaded (it changes the content's width, not the
 * box's).
 *
 * The region's name is in the page's language (WORDS, keyed by <html lang>; the cue above the box
 * is book.css's, with its :lang(ja) rule).
 */
(function () {
  "use strict";
  const BOXES = [
    ".md-typeset__scrollwrap", // the theme's box around a Markdown table
    ".widget-subarea .widget-html > .widget-html-content", // a widget's result, board or log
    ".jupyter-wrapper .jp-OutputArea-output.jp-RenderedHTMLCommon", // a cell's output
    ".md-typeset pre > code", // a code block (the API reference's signatures)
  ].join(", ");
  const MARK = "rulesLibScrolls"; // data-rules-lib-scrolls: the attributes below are this script's
  const WORDS = {
    en: { cue: "scrolls sideways", table: "Wide table", code: "Code", content: "Wide content" },
    ja: { cue: "横にスクロールします", table: "幅の広い表", code: "コード", content: "幅の広い内容" },
  }[document.documentElement.lang === "ja" ? "ja" : "en"];

  function nameOf(box) {
    const caption = box.querySelector("caption");
    const text = caption ? caption.textContent.trim().replace(/\s+/g, " ").slice(0, 80) : "";
    const kind = box.querySelector("table") ? WORDS.table : box.matches("code") ? WORDS.code : WORDS.content;
    return `${text || kind} — ${WORDS.cue}`;
  }

  // a box in a cell not drawn yet (content-visibility: auto, stylesheets/book.css) is looked at once
  // the cell is drawn: measuring it now would lay out what the page saves itself laying out
  const drawn = (box) => !box.checkVisibility || box.checkVisibility({ contentVisibilityAuto: true });

  // measured without the cue: the cue's line changes how a code block's overflow is counted (its
  // right padding), so a box 10 px over would fit once marked, lose the mark, and flip every frame
  function isWide(box) {
    const marked = box.classList.contains("rules-lib-scrolls");
    if (marked) box.classList.remove("rules-lib-scrolls");
    const wide = box.scrollWidth > box.clientWidth + 1;
    if (marked) box.classList.add("rules-lib-scrolls");
    return wide;
  }

  function look(box) {
    if (!drawn(box)) return;
    const wide = isWide(box);
    if (wide && box.dataset[MARK] === undefined) {
      box.dataset[MARK] = "";
      if (!box.hasAttribute("tabindex")) box.dataset[MARK] = "tabindex";
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", nameOf(box));
      box.classList.add("rules-lib-scrolls");
    } else if (!wide && box.dataset[MARK] !== undefined) {
      if (box.dataset[MARK] === "tabindex") box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
      box.classList.remove("rules-lib-scrolls");
      delete box.dataset[MARK];
    }
  }

  const resized = new ResizeObserver((entries) => entries.forEach((entry) => look(entry.target)));
  const watched = new WeakSet();

  function watchAll(root) {
    for (const box of root.querySelectorAll(BOXES)) {
      if (!watched.has(box)) {
        watched.add(box);
        resized.observe(box); // also called once at once, and when a hidden cell is first drawn
      }
      look(box);
    }
  }

  function start() {
    watchAll(document);
    // a web font that arrives changes how wide the text is, not the box: ResizeObserver does not
    // see that, so every box is looked at again (the Japanese font comes in parts, as text needs them)
    if (document.fonts) {
      document.fonts.addEventListener("loadingdone", () => requestAnimationFrame(() => watchAll(document)));
    }
    // a cell drawn as the reader scrolls near it: its boxes are measured then
    document.addEventListener("contentvisibilityautostatechange", (event) => {
      if (!event.skipped) requestAnimationFrame(() => watchAll(event.target));
    }, true);
    // a live calculator's redraw (new HTML in a result) or widgets drawn after the page
    let pending = false;
    new MutationObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        watchAll(document);
      });
    }).observe(document.querySelector(".md-content") || document.body, { childList: true, subtree: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
