/*
 * Deep links land on their heading.
 *
 * Notebook cells off screen are not drawn (content-visibility: auto, stylesheets/book.css): until
 * drawn, each counts as a placeholder of about 120-300 px, so a link to a heading far down a long
 * battle page (page#id, or a click in the table of contents) scrolled to where the placeholders put
 * it and then, as the cells near it were drawn at their real heights, the heading moved away (up to
 * 5,700 px on the Gundam Sentinel battle, measured). The page also changes height above a heading
 * after the browser's first scroll (code hidden by code-toggle.js, stored widgets drawn).
 *
 * So before a scroll to a heading, every cell above it (and its own) is drawn, which gives them
 * their real heights; and after a deep link, the heading is kept in place while the page settles,
 * until the reader scrolls, clicks or types, or 10 s have passed.
 */
(function () {
  "use strict";
  const CELLS = ".jupyter-wrapper .jp-Cell";
  const SETTLING_MS = 10000;

  function targetOf(hash) {
    if (!hash || hash.length < 2) return null;
    try {
      return document.getElementById(decodeURIComponent(hash.slice(1)));
    } catch (error) {
      return null; // a malformed escape: no target
    }
  }

  // every cell before the element, and the one holding it, drawn at its real height
  function drawUpTo(element) {
    for (const cell of document.querySelectorAll(CELLS)) {
      const holds = cell.contains(element);
      if (!holds && !(cell.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING)) break;
      cell.style.contentVisibility = "visible";
      if (holds) break;
    }
  }

  // after a deep link: the heading scrolled to, again whenever the page's height changes, until the reader moves
  function keepInPlace(element) {
    let held = true;
    const land = () => held && element.scrollIntoView({ block: "start" });
    const release = () => {
      held = false;
      observer.disconnect();
    };
    const observer = new ResizeObserver(() => requestAnimationFrame(land));
    observer.observe(document.body);
    for (const event of ["wheel", "touchstart", "keydown", "mousedown"]) {
      window.addEventListener(event, release, { once: true, passive: true, capture: true });
    }
    setTimeout(release, SETTLING_MS);
    land();
  }

  function arrive() {
    const element = targetOf(window.location.hash);
    if (!element) return;
    drawUpTo(element);
    keepInPlace(element);
  }

  // a link to a heading of this page (the table of contents, a "see above"): the cells above it are
  // drawn before the browser scrolls, in the click's own task, so the scroll uses their real heights
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    const element = link && targetOf(link.getAttribute("href"));
    if (element) drawUpTo(element);
  }, true);
  window.addEventListener("hashchange", () => {
    const element = targetOf(window.location.hash);
    if (!element) return;
    drawUpTo(element);
    element.scrollIntoView({ block: "start" });
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", arrive);
  else arrive();
})();
