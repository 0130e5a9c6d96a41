/*
 * Live calculators: the same rules_lib code as the notebooks, running in the reader's browser.
 *
 * The page first shows every widget from the state stored when the book was built. This
 * script renders that state itself (instead of nbconvert's automatic renderer) so that it
 * holds the widget models. The build puts the first widget's state and this script before it, and
 * a call to rulesLibLive.place() after each widget (tools/mkdocs_hooks.py, widgets_as_parsed): the
 * first calculator asks Python to pair it while the parser is still on the rest of the page, and is
 * drawn then too if Python is running. Python runs in a Web Worker (live-python-worker.js), started from the
 * page's <head> (a few lines the build puts there on a page with calculators, tools/mkdocs_hooks.py;
 * this script adopts that worker) so that it downloads and boots while the page loads and draws:
 * Pyodide from the site's own vendor/ folder, this project's wheel, each calculator's Python class
 * (rules_lib.browser).
 * Each calculator's widget tree is paired with the page's models; the reader's input goes to the
 * worker as a message, and the states Python changes come back as one. This thread never runs
 * Python, so the page stays responsive. Nothing is fetched from outside the site. What a reader
 * does before a calculator is live (inputs, boxes, lists, button presses) is kept in order, its
 * status line says so, and it is sent once Python has paired the calculator (connect).
 *
 * The worker restores Python from the build's memory snapshot of the page's calculators
 * (tools/snapshot.py), checked against the manifest; where it is a shared worker, the next page of
 * the same calculators finds it running (live.python "reused"). Every wheel is checked against the
 * SHA-256 digest the build wrote into the manifest.
 *
 * Dice expressions in the rule text become buttons, whether written as inline code (`3D6+3`,
 * `BB+14>54`) or in prose (2D6, 1D20+1, d20): a click rolls them with rules_lib
 * (rules_lib.browser.roll_inline) and shows the total, and for a comparison whether it succeeded
 * (hit or miss for BB). Code cells, their outputs, code blocks, links and headings are left alone.
 *
 * The regular expressions here must not backtrack catastrophically (tests/test_site_scripts.py
 * feeds them pathological strings): no quantified group whose alternatives can match the same
 * text, and bounded repeats where a group repeats.
 */
(function () {
  "use strict";
  const STATE_TYPE = "application/vnd.jupyter.widget-state+json";
  const VIEW_TYPE = "application/vnd.jupyter.widget-view+json";
  const LIVE_PREFIX = "rules-lib-live--";
  const INPUT_KEYS = ["value", "index"];

  // A whole inline code that is dice notation: at least one die (2D6, D66, 1D36) or a system command
  // (BB, BBM, GS and the charts ECHC, SDDC, ASDC, PEJC, RTJC, AARC of 000; SL<=13 of 001, AD[34(5)]R and OP5>3 of 002, VW+8@11>14 of 004 where
  // rules_lib.cli registers them). Each character is read by one alternative only (a D only before
  // a digit, the digits by the class, the letters of a command only by its token), so a failing
  // match backtracks in linear time.
  const DICE_TEXT =
    /^(?=[^A-Z]*(?:D\d|BB|GS|SL|AD|OP|VW|ECHC|SDDC|ASDC|PEJC|RTJC|AARC))(?:BBM?|GS|SL|AD|OP|VW|ECHC|SDDC|ASDC|PEJC|RTJC|AARC|D(?=\d)|[0-9+\-*/×÷()<>=UR @[\]])+$/i;
  // Dice in prose: a die with up to six added or subtracted terms and a comparison (3D6+3, 1D20＋1,
  // 2D6>=10, d20), or a BCDice command with a modifier or a target (BB+14>54, GS+3>7). Full-width
  // forms as the texts write them; never part of a longer word or sum. Group 2 is the dice (group 1
  // the character before: no lookbehind, which older Safari cannot parse). Every repeat is bounded,
  // so no start position costs more than a fixed amount of work.
  const PROSE_DICE =
    /(^|[^\w+＋\-−])((?:BBM?|GS)(?:[+＋\-−][0-9０-９]{1,3}(?:[<>＜＞]=?[0-9０-９]{1,3})?|[<>＜＞]=?[0-9０-９]{1,3})|[0-9０-９]{0,3}[DdＤ][0-9０-９]{1,3}(?:[+＋\-−](?:[0-9０-９]{1,3}[DdＤ])?[0-9０-９]{1,3}){0,6}(?:[<>＜＞]=?[0-9０-９]{1,3})?)(?![\w０-９+＋\-−])/g;
  // where prose dice are not looked for: code, links, headings, code cells and their outputs, widgets
  const NOT_PROSE = "pre, code, a, button, h1, h2, h3, h4, h5, h6, script, style, textarea, svg, " +
    ".jp-CodeCell, .jp-OutputArea, .highlight, .widget-subarea, .source-text, .rules-lib-dice, .rules-lib-roll";

  // the page's stored widget state: its first part (the first widget's models) comes before this
  // script, the rest at the end of the page (tools/mkdocs_hooks.py, widgets_as_parsed)
  const stateTag = document.querySelector(`script[type="${STATE_TYPE}"]`);
  const self = document.currentScript;
  const siteRoot = new URL("../", self.src);

  const live = (window.rulesLibLive = {
    status: stateTag ? "starting" : "static", calculators: [], error: null, phases: {}, updates: 0,
  });
  live.phases.script = Math.round(performance.now());
  let python = null; // one Python worker per page, started by the calculators or the first dice click
  let started = () => {}; // told when it starts (pythonOnFirstTouch)
  const startOnce = () => {
    if (!python) started((python = startPython()));
    return python;
  };
  // a connection that asks to save data, or a slow one (the page's <head> read it: tools/mkdocs_hooks.py)
  const savingData = window.rulesLibSavingData || null;
  // the reader's words in the page's language (<html lang>, tools/editions.py): a table here, not a
  // shared script, as this script runs from the page's <head> before the others load (widgets_as_parsed)
  const WORDS = {
    en: {
      starting: "Starting live calculators… (until then, the values shown were computed when the book was built)",
      onTouch: "Live once you use it: this connection saves data or is slow, so Python (several MB) loads " +
        "only when you first use a calculator. The values shown were computed when the book was built.",
      queued: "Your change is kept; it is answered when the calculator is live.",
      failed: (why) => `This calculator could not compute (${why}); the values shown are the last computed.`,
      live: "Live: computed in your browser by rules_lib.",
      liveAnswered: "Live: computed in your browser by rules_lib (your change is answered).",
      notStarted: (why) => `Live calculators could not start (${why}); the values shown were computed when the book was built.`,
      roll: "Roll it with rules_lib",
      rolling: " … rolling",
      notRolled: (why) => ` ✗ dice could not be rolled here (${why})`,
    },
    ja: {
      starting: "ライブ計算機を起動しています…（それまで、表示されている値は本書のビルド時に計算したものです）",
      onTouch: "使い始めるとライブになります：この接続はデータ節約中か低速のため、Python（数 MB）は計算機を初めて使ったときに" +
        "読み込みます。表示されている値は本書のビルド時に計算したものです。",
      queued: "変更は保持しています。計算機がライブになると反映します。",
      failed: (why) => `この計算機は計算できませんでした（${why}）。表示されている値は最後に計算したものです。`,
      live: "ライブ：rules_lib がブラウザー内で計算しています。",
      liveAnswered: "ライブ：rules_lib がブラウザー内で計算しています（変更を反映しました）。",
      notStarted: (why) => `ライブ計算機を起動できませんでした（${why}）。表示されている値は本書のビルド時に計算したものです。`,
      roll: "rules_lib で振る",
      rolling: " …振っています",
      notRolled: (why) => ` ✗ ここではダイスを振れませんでした（${why}）`,
    },
  }[document.documentElement.lang === "ja" ? "ja" : "en"];
  const STARTING = WORDS.starting;
  const ON_TOUCH = WORDS.onTouch;

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

  // The stored state's models, and each widget placed as the parser reaches it: on a page with widgets
  // the build puts the first widget's state and this script before it, a call to place() after each
  // widget, and the rest of the state at the end (tools/mkdocs_hooks.py), so the first calculator
  // pairs with Python while the rest of the page is still parsed. Each view gets its place and status
  // line at once, and is drawn one widget tree a task: the calculators pair with Python (which needs
  // the models, not the views) while their views are drawn. live-widgets.js draws them (no widget
  // manager: see there).
  function storedWidgets() {
    const widgets = window.rulesLibWidgets;
    const byId = new Map();
    const read = new Set();
    // the parts of the state not read yet (each one once)
    const readState = () => {
      for (const tag of document.querySelectorAll(`script[type="${STATE_TYPE}"]`)) {
        if (read.has(tag)) continue;
        read.add(tag);
        for (const model of widgets.models(JSON.parse(tag.textContent), byId)) byId.set(model.model_id, model);
      }
    };
    readState();
    live.phases.models = Math.round(performance.now());
    const placed = new Set();
    const toDraw = [];
    const found = { calculators: [], onCalculator: () => {} };
    let drawing = false;
    let parsed = false;
    let allDrawn, notDrawn;
    const drawn = new Promise((resolve, reject) => ((allDrawn = resolve), (notDrawn = reject)));
    drawn.catch(() => {}); // reported where main() awaits it
    const finished = () => {
      live.phases.rendered = Math.round(performance.now());
      allDrawn();
    };
    let drawnTrees = 0;
    // the first tree before the page is parsed only once Python is ready to pair it (a warm load):
    // on a cold load it would only show sooner, and drawn then, the theme's DOMContentLoaded work
    // laid it out too (one task of 0.2-0.3 s in 2 of 6 cold loads of verse-world)
    let firstEarly = false;
    let firstPaired;
    const pairedFirst = new Promise((resolve) => (firstPaired = resolve));
    const due = () => toDraw.length > 0 && (parsed || (firstEarly && drawnTrees === 0));
    const drawQueue = () => drawTrees().catch((error) => {
      drawing = false;
      notDrawn(error);
    });
    const drawTrees = async () => {
      drawing = true;
      // the rest once the page is parsed: drawn before then, they made the theme's DOMContentLoaded
      // work lay them out too (one task of 0.17-0.24 s on a cold load)
      while (due()) {
        // one widget tree a task, the first too (not in the task that placed it): the page stays responsive;
        // the first one after a frame of the page has been drawn, not in it (its first layout, the
        // longest task of a load, is not made longer), or 100 ms on (a tab in the background draws no
        // frame), or as soon as its calculator is paired: it is then live, where a frame and a timer
        // waited behind the page's parsing (drawn 30-100 ms after its pairing in warm loads)
        if (parsed) await new Promise((resolve) => setTimeout(resolve));
        else await Promise.race([new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))),
          new Promise((resolve) => setTimeout(resolve, 100)), pairedFirst]);
        // a reader's change to a calculator already live is answered before the next tree is drawn
        // (a bounded wait: the stored widgets are drawn even if Python never answers)
        if (live.pending) await Promise.race([live.pending, new Promise((resolve) => setTimeout(resolve, 250))]);
        const { model, area, shown } = toDraw.shift();
        area.append(widgets.view(model));
        drawnTrees += 1;
        shown();
      }
      drawing = false;
      if (parsed) finished();
    };
    // every view tag parsed so far that has no place yet, in the page's order; before the page is
    // parsed, only those whose state is read (the first): the others wait for the rest of the state
    found.place = () => {
      for (const viewTag of document.querySelectorAll(`script[type="${VIEW_TYPE}"]`)) {
        if (placed.has(viewTag)) continue;
        const { model_id: modelId } = JSON.parse(viewTag.textContent);
        const model = byId.get(modelId);
        if (!model && !parsed) break;
        placed.add(viewTag);
        if (!model || !viewTag.parentElement) continue;
        const area = document.createElement("div");
        area.className = "widget-subarea";
        viewTag.parentElement.insertBefore(area, viewTag);
        const view = { model, area };
        view.drawn = new Promise((resolve) => (view.shown = resolve));
        toDraw.push(view);
        const dotted = liveClassOf(model);
        if (dotted) {
          const status = document.createElement("p");
          status.className = "rules-lib-live-status";
          setStatus(status, "starting", savingData && !python ? ON_TOUCH : STARTING);
          area.parentElement.insertBefore(status, area);
          const entry = { model, dotted, status, drawn: view.drawn };
          found.calculators.push(entry);
          found.onCalculator(entry);
        }
      }
      if (!drawing && due()) drawQueue();
    };
    found.pythonReady = () => {
      firstEarly = true;
      if (!drawing && due()) drawQueue();
    };
    found.firstPaired = firstPaired;
    // the document is parsed: every view is placed; `drawn` once the last is drawn
    found.parsed = () => {
      readState();
      parsed = true;
      found.place();
      if (drawing) return; // the queue, drawing on, ends with `drawn`
      if (toDraw.length) drawQueue();
      else finished();
    };
    found.drawn = drawn;
    return found;
  }

  // Python runs in a Web Worker (live-python-worker.js): it boots, restores its snapshot and
  // computes there, so this thread only draws. Calls are messages modelled on Jupyter's comm
  // protocol (see the worker's header); each returns a promise of the worker's reply.
  // The memory snapshot is fetched, checked and restored in the worker.
  // the SHA-256 of the build's manifest, as the page was built with it (tools/site_policy.py)
  function builtManifest() {
    const meta = document.querySelector('meta[name="rules-lib-manifest"]');
    return meta ? meta.content : "";
  }

  // the calculator classes the stored state names (their modules can be imported before the page draws)
  function pageClasses() {
    const text = [...document.querySelectorAll(`script[type="${STATE_TYPE}"]`)].map((tag) => tag.textContent).join("");
    const found = text.match(new RegExp(`"${LIVE_PREFIX}[A-Za-z0-9_.:]{1,200}"`, "g")) || [];
    return [...new Set(found.map((quoted) => quoted.slice(LIVE_PREFIX.length + 1, -1)))];
  }

  function startPython() {
    const mark = (phase, at) => (live.phases[phase] = Math.round(at - performance.timeOrigin));
    // a page with calculators has started the worker from its <head> (tools/mkdocs_hooks.py), or
    // (on a saving connection) left that start to this first call
    if (!window.rulesLibPython && window.rulesLibStartPython) window.rulesLibStartPython();
    const early = window.rulesLibPython;
    window.rulesLibPython = null;
    // the worker's port (a shared worker's, or a dedicated worker itself) and what reports its errors
    const worker = early ? early.worker : new Worker(new URL("javascripts/live-python-worker.js", siteRoot), { type: "module" });
    const errorSource = early ? early.errorSource : worker;
    const waiting = new Map();
    let nextId = 1;
    let failed = null;
    const call = (message) => {
      if (failed) return Promise.reject(failed);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage({ ...message, id });
      });
    };
    const ready = new Promise((resolve, reject) => {
      const fail = (error) => {
        failed = failed || (error instanceof Error ? error : new Error(String(error)));
        for (const { reject: rejectCall } of waiting.values()) rejectCall(failed);
        waiting.clear();
        reject(failed);
      };
      errorSource.onerror = (event) => fail(new Error(event.message || "the Python worker could not start"));
      worker.onmessage = ({ data }) => {
        if (data.op === "phase") mark(data.name, data.at);
        else if (data.op === "snapshot") {
          live.snapshot = data.state;
          if (data.fromSnapshot) live.fromSnapshot = true;
        } else if (data.op === "deferred") live.deferred = data.state;
        else if (data.op === "ready") {
          live.python = data.reused ? "reused" : "started";
          resolve();
        }
        else if (data.op === "failed") fail(new Error(data.error));
        else if (waiting.has(data.id)) {
          const { resolve: resolveCall, reject: rejectCall } = waiting.get(data.id);
          waiting.delete(data.id);
          if (data.ok) resolveCall(data.result);
          else rejectCall(new Error(data.error));
        }
      };
    });
    ready.catch(() => {}); // reported where it is awaited
    if (early) {
      // what the worker said before this script ran, in order, before anything it says next
      early.messages.forEach((data) => worker.onmessage({ data }));
      early.errors.forEach((event) => errorSource.onerror(event));
    } else {
      worker.postMessage({ op: "start", vendor: new URL("vendor/", siteRoot).href, manifest: builtManifest(), classes: pageClasses() });
    }
    return {
      ready,
      open: (target, state) => call({ op: "comm_open", target, data: { state } }),
      update: (comm, index, state) => call({ op: "comm_msg", comm, data: { method: "update", index, state } }),
      custom: (comm, index, content) => call({ op: "comm_msg", comm, data: { method: "custom", index, content } }),
      roll: (text) => call({ op: "roll", text }),
      orphanWidgets: () => call({ op: "orphan_widgets" }),
    };
  }

  // On a saving connection: Python as the calculators call it, started at the reader's first touch of
  // one (a press, a key or the focus inside it) or a dice click; their calls wait until then.
  function pythonOnFirstTouch(statuses) {
    let touched;
    const whenStarted = new Promise((resolve) => (touched = resolve));
    started = (real) => {
      for (const type of TOUCHES) document.removeEventListener(type, onTouch, true);
      for (const status of statuses) if (status.textContent === ON_TOUCH) status.textContent = STARTING;
      live.phases.touched = Math.round(performance.now());
      touched(real);
    };
    const TOUCHES = ["pointerdown", "keydown", "focusin"];
    const onTouch = (event) => {
      if (event.target.closest && event.target.closest(".widget-subarea")) startOnce();
    };
    for (const type of TOUCHES) document.addEventListener(type, onTouch, true);
    const later = (name) => (...args) => whenStarted.then((real) => real[name](...args));
    return {
      ready: whenStarted.then((real) => real.ready),
      open: later("open"), update: later("update"), custom: later("custom"), orphanWidgets: later("orphanWidgets"),
      roll: (text) => startOnce().roll(text),
    };
  }

  async function connect(python, { model, dotted, status }) {
    const models = flatten(model);
    const stored = models.map((m) => Object.fromEntries(INPUT_KEYS.filter((k) => m.get(k) !== undefined).map((k) => [k, m.get(k)])));
    // What the reader does before the calculator is live (an input, a box ticked, a button) is kept,
    // in order, and sent once Python has paired it: the live result is for the inputs shown, not the
    // stored ones (Python pairs from those, sent before the reader could change anything).
    const queued = [];
    let comm = null;
    let applying = false;
    const keep = (item) => {
      queued.push(item);
      if (status.dataset.state === "starting") {
        setStatus(status, "queued", WORDS.queued);
      }
    };
    const report = (error) => {
      setStatus(status, "failed", WORDS.failed(error.message || error));
      console.warn("rules_lib live calculators:", error);
    };
    const answered = (promise) => (live.pending = promise.then(({ changes: delta }) => apply(delta), report));
    models.forEach((m, index) => {
      m.on("change", () => {
        if (applying) return;
        const changed = m.changedAttributes() || {};
        const inputs = Object.fromEntries(INPUT_KEYS.filter((k) => k in changed).map((k) => [k, changed[k]]));
        if (!Object.keys(inputs).length) return;
        if (comm === null) keep({ index, inputs });
        else answered(python.update(comm, index, inputs));
      });
      // the answer's promise, once live (live.click awaits it)
      m.send = (content) => (comm === null ? keep({ index, content }) : answered(python.custom(comm, index, content)));
    });
    const opened = await python.open(dotted, stored);
    const { shape, changes, preloaded } = opened;
    if (preloaded) live.preloaded = (live.preloaded || 0) + 1; // Python had loaded these inputs already
    const pageShape = models.map((m) => m.get("_model_name"));
    if (JSON.stringify(shape) !== JSON.stringify(pageShape)) {
      throw new Error(`the page's ${dotted} does not match the library's (${pageShape} vs ${shape})`);
    }
    const apply = (delta) => {
      applying = true;
      try {
        for (const [index, state] of delta) {
          const target = models[index];
          const differing = {};
          for (const [key, value] of Object.entries(state)) {
            if (JSON.stringify(target.get(key)) !== JSON.stringify(value)) differing[key] = value;
          }
          if (Object.keys(differing).length) target.set(differing);
        }
      } finally {
        applying = false;
      }
      live.updates += 1;
      live.phases.lastUpdate = Math.round(performance.now());
    };
    // the stored inputs' answer, but not over an input the reader has changed since (sent next)
    const typed = new Map();
    for (const { index, inputs } of queued) if (inputs) typed.set(index, new Set([...(typed.get(index) || []), ...Object.keys(inputs)]));
    apply(changes.map(([index, state]) => [index, Object.fromEntries(Object.entries(state).filter(([key]) => !(typed.get(index) || new Set()).has(key)))]));
    // then the reader's changes in the order made, posted before any later one (the worker answers in order)
    comm = opened.comm;
    for (const item of queued) answered(item.inputs ? python.update(comm, item.index, item.inputs) : python.custom(comm, item.index, item.content));
    setStatus(status, "live", queued.length ? WORDS.liveAnswered : WORDS.live);
    queued.length = 0;
    return comm;
  }

  // Called as soon as this script runs: the widgets parsed so far are placed at once, each one
  // after it as the parser reaches it (live.place), and the rest once the document is parsed.
  async function main() {
    let calculators = [];
    const fail = (error) => {
      if (live.status === "failed") return;
      live.status = "failed";
      live.error = String(error);
      for (const { status } of calculators) {
        setStatus(status, "failed", WORDS.notStarted(error.message || error));
      }
      console.warn("rules_lib live calculators:", error);
    };
    try {
      const stored = storedWidgets();
      calculators = stored.calculators;
      const statuses = [];
      const python = savingData ? pythonOnFirstTouch(statuses) : startOnce();
      live.savingData = savingData;
      // for tests and the curious: each calculator's class and its widgets' current state
      live.classes = [];
      live.states = (index) =>
        flatten(calculators[index].model).map((m) => ({
          _model_name: m.get("_model_name"), value: m.get("value"), index: m.get("index"),
          min: m.get("min"), max: m.get("max"), step: m.get("step"), disabled: m.get("disabled"),
        }));
      // both resolve once Python's answer is on the page
      live.setInput = (index, widget, state) => {
        live.pending = null;
        flatten(calculators[index].model)[widget].set(state);
        return live.pending;
      };
      live.click = (index, widget) => flatten(calculators[index].model)[widget].send({ event: "click" });
      // widgets open in Python that no calculator holds: 0, unless pages that left were not freed
      live.orphanWidgets = () => python.orphanWidgets();
      // each calculator is live once it is paired and drawn (a reader's input needs both): the first,
      // at the top of the page, while the page below it is still parsed and drawn; the page once all are
      const each = [];
      const asked = []; // live.ready(index) before that calculator was parsed
      live.ready = (index) =>
        index < each.length ? each[index].then(() => true) : new Promise((resolve, reject) => asked.push({ index, resolve, reject }));
      stored.onCalculator = (entry) => {
        live.classes.push(entry.dotted);
        statuses.push(entry.status);
        // asked for at once: the worker answers once its Python is ready (a reply to the page waits
        // while the page is parsed, so not waiting for the page to hear "ready" saves one such wait)
        const paired = connect(python, entry);
        const index = each.push(Promise.all([paired, entry.drawn])) - 1;
        each[index].catch(() => {}); // reported once the page is parsed (Promise.all below)
        if (index === 0) paired.then(stored.firstPaired, () => {});
        if (index === 0) each[0].then(() => (live.phases["first-live"] = live.phases["first-live"] || Math.round(performance.now())));
        for (const wanted of asked.filter((a) => a.index === index)) wanted.resolve(live.ready(index));
      };
      live.place = () => {
        try {
          stored.place();
        } catch (error) {
          fail(error);
        }
      };
      stored.place();
      python.ready.then(stored.pythonReady, () => {});
      await parsedDocument;
      live.phases.parsed = Math.round(performance.now());
      stored.parsed();
      for (const { index, reject } of asked.filter((a) => a.index >= each.length)) reject(new Error(`this page has no calculator ${index}`));
      if (!calculators.length) {
        await stored.drawn;
        if (live.status !== "failed") live.status = "static";
        return;
      }
      // a tree that cannot be drawn fails the page at once (its calculator would wait for it)
      const [paired] = await Promise.all([Promise.all(each), stored.drawn]);
      live.calculators = paired.map(([comm]) => comm);
      live.phases.live = Math.round(performance.now());
      if (live.status !== "failed") live.status = "live";
    } catch (error) {
      fail(error);
    }
    // the theme's search index may now be built (the page's <head> held it back: tools/mkdocs_hooks.py)
    window.dispatchEvent(new Event("rules-lib-live-settled"));
  }

  function makeRollable(element, text) {
    element.classList.add("rules-lib-dice");
    element.setAttribute("role", "button");
    element.setAttribute("tabindex", "0");
    element.title = WORDS.roll;
    const shown = document.createElement("span");
    shown.className = "rules-lib-roll";
    shown.setAttribute("aria-live", "polite");
    element.after(shown);
    const rollIt = async () => {
      shown.textContent = WORDS.rolling;
      delete shown.dataset.outcome;
      try {
        const result = await startOnce().roll(text.normalize("NFKC").replace(/−/g, "-"));
        // the line says the outcome of a comparison itself ("2D6>=10 = 11: success")
        shown.textContent = result.ok ? ` → ${result.line}` : ` ✗ ${result.line}`;
        shown.title = result.ok ? result.detail : "";
        shown.dataset.total = result.ok ? String(result.total) : "";
        if (result.ok && result.outcome) shown.dataset.outcome = result.outcome;
      } catch (error) {
        shown.textContent = WORDS.notRolled(error.message || error);
      }
    };
    element.addEventListener("click", rollIt);
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        rollIt();
      }
    });
  }

  function markDice() {
    const content = document.querySelector(".md-content");
    if (!content) return;
    for (const code of content.querySelectorAll("code")) {
      if (code.closest("pre, a, .highlight, .jp-CodeCell, .jp-OutputArea")) continue;
      const text = code.textContent.trim();
      if (DICE_TEXT.test(text.normalize("NFKC"))) makeRollable(code, text);
    }
    // prose: collect first, then split the text nodes (the walk must not see its own changes)
    const found = [];
    const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => (node.parentElement.closest(NOT_PROSE) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const matches = [...node.nodeValue.matchAll(PROSE_DICE)];
      if (matches.length) found.push([node, matches]);
    }
    for (const [node, matches] of found) {
      for (const match of matches.reverse()) {
        const rest = node.splitText(match.index + match[1].length);
        rest.splitText(match[2].length);
        const dice = document.createElement("span");
        dice.className = "rules-lib-dice-prose";
        rest.replaceWith(dice);
        dice.append(rest);
        makeRollable(dice, match[2]);
      }
    }
  }

  // once the document is parsed, not loaded: the dice are in the whole text, and the stored widgets
  // need no image or font to be drawn; in a task of its own, not in the theme's DOMContentLoaded one
  const parsedDocument = new Promise((resolve) => {
    const soon = () => setTimeout(resolve);
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", soon);
    else soon();
  });
  // the dice once the page is idle (a second on at most): marking them walks the whole text (5-15 ms),
  // which a first calculator's answer, due about then, would wait for
  const whenIdle = (work) => (window.requestIdleCallback ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 200));
  parsedDocument.then(() => whenIdle(markDice));
  if (stateTag) main(); // Python starts downloading and booting while the page renders
})();
