/*
 * Live calculators: the same rules_lib code as the notebooks, running in the reader's browser.
 *
 * The page first shows every widget from the state stored when the book was built. This
 * script renders that state itself (instead of nbconvert's automatic renderer) so that it
 * holds the widget models, then starts Pyodide from the site's own vendor/ folder, installs
 * this project's wheel, constructs each calculator's Python class (rules_lib.browser) and
 * pairs its widget tree with the page's models: the reader's input goes to Python, and the
 * states Python changes come back. Nothing is fetched from outside the site.
 *
 * After the first visit, Python starts from a memory snapshot kept in the browser (see startPython).
 *
 * Dice expressions written as inline code in the rule text (`3D6+3`, `1D36`, `BB+14>54`) become
 * buttons: a click rolls them with rules_lib (rules_lib.browser.roll_inline) and shows the dice.
 */
(function () {
  "use strict";
  const STATE_TYPE = "application/vnd.jupyter.widget-state+json";
  const VIEW_TYPE = "application/vnd.jupyter.widget-view+json";
  const LIVE_PREFIX = "rules-lib-live--";
  const INPUT_KEYS = ["value", "index"];

  // dice notation of the texts: at least one die (2D6, D66, 1D36) or a system command (BB, BBM, GS;
  // SL<=13 of WIS6, AD, AD[34(5)]R and OP5>3 of Nemesis, VW+8@11>14 of Verse World)
  const DICE_TEXT = /^(?=[^A-Z]*(?:\d*D\d|BBM?|GS|SL|AD|OP|VW))(?:BBM?|GS|SL|AD|OP|VW|\d*D\d+|[0-9+\-*/×÷()<>=UR @[\]])+$/i;

  const stateTag = document.querySelector(`script[type="${STATE_TYPE}"]`);
  if (stateTag) {
    // take the state from nbconvert's automatic renderer: this script renders it instead
    stateTag.type = "application/x-rules-lib-widget-state+json";
  }
  const self = document.currentScript;
  const siteRoot = new URL("../", self.src);

  const live = (window.rulesLibLive = {
    status: stateTag ? "starting" : "static", calculators: [], error: null, phases: {},
  });
  live.phases.script = Math.round(performance.now());
  let python = null; // one Pyodide per page, started by the calculators or the first dice click
  const startOnce = () => (python = python || startPython());

  function flatten(model) {
    const children = model.get("children") || [];
    return [model].concat(...children.map(flatten));
  }

  function liveClassOf(model) {
    const found = (model.get("_dom_classes") || []).find((c) => c.startsWith(LIVE_PREFIX));
    return found ? found.slice(LIVE_PREFIX.length) : null;
  }

  function setStatus(el, state, text) {
    el.dataset.state = state;
    el.textContent = text;
  }

  async function renderStoredState() {
    const [htmlManager, embed] = await new Promise((resolve, reject) =>
      window.require(
        ["@jupyter-widgets/html-manager", "@jupyter-widgets/html-manager/dist/libembed-amd"],
        (...modules) => resolve(modules),
        reject,
      ),
    );
    const manager = new htmlManager.HTMLManager({ loader: embed.requireLoader });
    const models = await manager.set_state(JSON.parse(stateTag.textContent));
    const shown = [];
    for (const viewTag of document.querySelectorAll(`script[type="${VIEW_TYPE}"]`)) {
      const { model_id: modelId } = JSON.parse(viewTag.textContent);
      const model = models.find((m) => m.model_id === modelId);
      if (!model || !viewTag.parentElement) continue;
      const area = document.createElement("div");
      area.className = "widget-subarea";
      viewTag.parentElement.insertBefore(area, viewTag);
      await manager.display_view(await manager.create_view(model), area);
      const dotted = liveClassOf(model);
      if (dotted) {
        const status = document.createElement("p");
        status.className = "rules-lib-live-status";
        setStatus(status, "starting", "Starting live calculators… (until then, the values shown were computed when the book was built)");
        area.parentElement.insertBefore(status, area);
        shown.push({ model, dotted, status });
      }
    }
    return shown;
  }

  // A memory snapshot of Python after the shared imports, kept in the browser's Cache Storage:
  // a later visit boots from it in a fraction of the time. Keyed by the build, so a new build
  // never restores an old image; any failure falls back to a plain start.
  const SNAPSHOT_CACHE = "rules-lib-live-snapshots";
  const SHARED_IMPORTS = [
    "import rules_lib.browser as browser",
    "browser.install_ipython_stand_in()",
    "import ipywidgets, icepool, rules_lib.dice, rules_lib.widgets",
  ].join("\n");

  async function readSnapshot(key) {
    try {
      const found = await (await caches.open(SNAPSHOT_CACHE)).match(key);
      return found ? new Uint8Array(await found.arrayBuffer()) : null;
    } catch (error) {
      return null; // no Cache Storage here (an insecure origin) or it is unreadable
    }
  }

  async function saveSnapshot(key, snapshot) {
    live.snapshot = "saving";
    try {
      const cache = await caches.open(SNAPSHOT_CACHE);
      for (const old of await cache.keys()) await cache.delete(old); // one build at a time
      await cache.put(key, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
      live.snapshot = "saved";
    } catch (error) {
      live.snapshot = `not stored: ${error}`;
      console.info("rules_lib live calculators: snapshot not stored:", error);
    }
  }

  async function startPython() {
    const vendor = new URL("vendor/", siteRoot);
    const mark = (phase) => (live.phases[phase] = Math.round(performance.now()));
    // the ES-module loader: no clash with the page's require.js
    const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", vendor).href);
    mark("loader");
    const manifest = await (await fetch(new URL("wheels/manifest.json", vendor))).json();
    const wheelsRequest = Promise.all(
      manifest.wheels.map(async (name) => (await fetch(new URL(`wheels/${name}`, vendor))).arrayBuffer()),
    );
    const indexURL = new URL("pyodide/", vendor).href;
    const key = new URL(`snapshot-${manifest.build}`, vendor).href;
    let pyodide = null;
    const snapshot = manifest.build ? await readSnapshot(key) : null;
    mark("snapshot-read");
    if (snapshot) {
      try {
        pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
        live.fromSnapshot = true;
      } catch (error) {
        console.info("rules_lib live calculators: snapshot not usable, starting afresh:", error);
        caches.open(SNAPSHOT_CACHE).then((cache) => cache.delete(key));
      }
    }
    pyodide = pyodide || (await loadPyodide({ indexURL, _makeSnapshot: Boolean(manifest.build) }));
    mark("pyodide");
    // a snapshot holds memory, not files: the wheels are unpacked on every start
    for (const wheel of await wheelsRequest) pyodide.unpackArchive(wheel, "wheel");
    mark("wheels");
    if (!live.fromSnapshot) {
      pyodide.runPython(SHARED_IMPORTS);
      if (manifest.build && typeof pyodide.makeMemorySnapshot === "function") {
        // before any JavaScript object crosses into Python, as a snapshot requires
        try {
          saveSnapshot(key, pyodide.makeMemorySnapshot());
        } catch (error) {
          console.info("rules_lib live calculators: no snapshot taken:", error);
        }
      }
    }
    mark("imported");
    return pyodide.pyimport("rules_lib.browser");
  }

  function connect(browser, { model, dotted, status }) {
    const calculator = browser.LiveCalculator(dotted);
    const models = flatten(model);
    const shape = calculator.shape().toJs();
    const pageShape = models.map((m) => m.get("_model_name"));
    if (JSON.stringify(shape) !== JSON.stringify(pageShape)) {
      throw new Error(`the page's ${dotted} does not match the library's (${pageShape} vs ${shape})`);
    }
    let applying = false;
    const apply = (changesJson) => {
      applying = true;
      try {
        for (const [index, delta] of JSON.parse(changesJson)) {
          const target = models[index];
          const differing = {};
          for (const [key, value] of Object.entries(delta)) {
            if (JSON.stringify(target.get(key)) !== JSON.stringify(value)) differing[key] = value;
          }
          if (Object.keys(differing).length) target.set(differing);
        }
      } finally {
        applying = false;
      }
    };
    const stored = models.map((m) => Object.fromEntries(INPUT_KEYS.filter((k) => m.get(k) !== undefined).map((k) => [k, m.get(k)])));
    apply(calculator.load(JSON.stringify(stored)));
    models.forEach((m, index) => {
      m.on("change", () => {
        if (applying) return;
        const changed = m.changedAttributes() || {};
        const inputs = Object.fromEntries(INPUT_KEYS.filter((k) => k in changed).map((k) => [k, changed[k]]));
        if (Object.keys(inputs).length) apply(calculator.set_input(index, JSON.stringify(inputs)));
      });
      m.send = (content) => apply(calculator.click(index, JSON.stringify(content)));
    });
    setStatus(status, "live", "Live: computed in your browser by rules_lib.");
    return calculator;
  }

  async function main() {
    let shown = [];
    try {
      shown = await renderStoredState();
      live.phases.rendered = Math.round(performance.now());
      if (!shown.length) {
        live.status = "static";
        return;
      }
      const browser = await startOnce();
      live.calculators = shown.map((entry) => connect(browser, entry));
      // for tests and the curious: each calculator's class and its widgets' current state
      live.classes = shown.map((entry) => entry.dotted);
      live.states = (index) =>
        flatten(shown[index].model).map((m) => ({
          _model_name: m.get("_model_name"), value: m.get("value"), index: m.get("index"),
          min: m.get("min"), max: m.get("max"), step: m.get("step"), disabled: m.get("disabled"),
        }));
      live.setInput = (index, widget, state) => flatten(shown[index].model)[widget].set(state);
      live.click = (index, widget) => flatten(shown[index].model)[widget].send({ event: "click" });
      live.phases.live = Math.round(performance.now());
      live.status = "live";
    } catch (error) {
      live.status = "failed";
      live.error = String(error);
      for (const { status } of shown) {
        setStatus(status, "failed", `Live calculators could not start (${error.message || error}); the values shown were computed when the book was built.`);
      }
      console.warn("rules_lib live calculators:", error);
    }
  }

  function markDice() {
    const codes = document.querySelectorAll(".md-content code");
    for (const code of codes) {
      if (code.closest("pre, .highlight, .jp-CodeCell .jp-InputArea, .jp-OutputArea")) continue;
      const text = code.textContent.trim();
      if (!DICE_TEXT.test(text.normalize("NFKC"))) continue;
      code.classList.add("rules-lib-dice");
      code.setAttribute("role", "button");
      code.setAttribute("tabindex", "0");
      code.title = "Roll it with rules_lib";
      const shown = document.createElement("span");
      shown.className = "rules-lib-roll";
      shown.setAttribute("aria-live", "polite");
      code.after(shown);
      const rollIt = async () => {
        shown.textContent = " … rolling";
        try {
          const browser = await startOnce();
          const result = JSON.parse(browser.roll_inline(text));
          shown.textContent = result.ok ? ` → ${result.line}` : ` ✗ ${result.line}`;
          shown.title = result.ok ? result.detail : "";
          shown.dataset.total = result.ok ? String(result.total) : "";
        } catch (error) {
          shown.textContent = ` ✗ dice could not be rolled here (${error.message || error})`;
        }
      };
      code.addEventListener("click", rollIt);
      code.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          rollIt();
        }
      });
    }
  }

  markDice();
  if (stateTag) {
    startOnce(); // start downloading and booting Python while the page renders
    window.addEventListener("load", main);
  }
})();
