/*
 * The Japanese font's faces for text that is not the page's own. The build declares, in each page's
 * <head>, only the faces of the font subsets whose characters the page shows (tools/mkdocs_hooks.py,
 * declare_japanese_faces, which inlines this script after them). A value from Python, a reader's
 * typing or a search result can hold a character none of them draws: then every face is declared
 * (vendor/noto-sans-jp/400.css), once, and the browser fetches the subsets that text needs.
 *
 * window.rulesLibJapaneseFont = { cover(value), declareAll() }: cover looks through a string, or
 * the strings in an object or array, for such a character.
 */
(function () {
  "use strict";
  const script = document.currentScript;
  const from = Number(script.dataset.from); // below this, the reader's own fonts draw the text
  let all = false;
  let drawn = null; // the page's faces' code points, as sorted disjoint [first, last] ranges
  const drawnSeen = new Set(); // code points found in them so far (a calculator repeats its terms)

  function declareAll() {
    if (all) return;
    all = true;
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = script.dataset.all;
    document.head.append(link);
  }

  function pageRanges() {
    const ranges = [];
    for (const face of document.fonts || []) {
      if (face.family.replace(/["']/g, "") !== "Noto Sans JP") continue;
      for (const part of face.unicodeRange.split(",")) {
        const [first, last] = part.trim().replace(/^u\+/i, "").split("-");
        ranges.push([parseInt(first, 16), parseInt(last || first, 16)]);
      }
    }
    ranges.sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const range of ranges) {
      const previous = merged[merged.length - 1];
      if (previous && range[0] <= previous[1] + 1) previous[1] = Math.max(previous[1], range[1]);
      else merged.push(range);
    }
    return merged;
  }

  function isDrawn(code) {
    drawn = drawn || pageRanges();
    let low = 0;
    let high = drawn.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (code < drawn[middle][0]) high = middle - 1;
      else if (code > drawn[middle][1]) low = middle + 1;
      else return true;
    }
    return false;
  }

  // a failure here must never stop a calculator's update: it declares every face instead
  function cover(value) {
    try {
      look(value);
    } catch (error) {
      declareAll();
    }
  }

  function look(value) {
    if (all) return;
    if (typeof value === "string") {
      for (const character of value) {
        const code = character.codePointAt(0);
        if (code < from || drawnSeen.has(code)) continue;
        if (!isDrawn(code)) return declareAll();
        drawnSeen.add(code);
      }
    } else if (value && typeof value === "object") {
      for (const item of Object.values(value)) look(item);
    }
  }

  // a reader's typing; the search, whose results are other pages' text
  document.addEventListener("input", (event) => cover(event.target.value));
  document.addEventListener("focusin", (event) => {
    if (event.target.closest && event.target.closest(".md-search")) declareAll();
  });
  window.rulesLibJapaneseFont = { cover, declareAll };
})();
