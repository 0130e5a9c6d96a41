/*
 * The live calculators' Python, in a Web Worker (a module worker started by live-calculators.js).
 *
 * Pyodide boots, restores its snapshot, unpacks the wheels and computes here, so the page's main
 * thread only draws widgets. The page and this worker talk in messages modelled on the Jupyter comm
 * protocol that JupyterLite's kernels use between their worker and the page:
 *   page → worker  {op: "start", vendor, classes}                boot (sent at once, while the page draws)
 *                  {id, op: "comm_open", target, data: {state}}  construct a calculator from the page's stored inputs
 *                  {id, op: "comm_msg", comm, data: {method: "update", index, state}}   an input changed
 *                  {id, op: "comm_msg", comm, data: {method: "custom", index, content}} a button press
 *                  {id, op: "roll", text}                        a dice expression clicked in the text
 *   worker → page  {op: "phase", name, at}                       start-up timings (ms since the page's navigation)
 *                  {op: "snapshot", state, fromSnapshot}         the memory snapshot's fate
 *                  {id, ok: true, result} | {id, ok: false, error}
 * A reply carries the widget states Python changed, as [index, {key: value}] pairs (rules_lib.browser).
 * Messages are handled in the order they come: each waits for the same start-up promise.
 *
 * The memory snapshot follows the page's design (see live-calculators.js): used only where the build's
 * manifest says the origin is the book's own (RULES_LIB_SNAPSHOT=on); otherwise neither read nor written.
 */
const SNAPSHOT_CACHE = "rules-lib-live-snapshots";
const SHARED_IMPORTS = [
  "import rules_lib.browser as browser",
  "browser.install_ipython_stand_in()",
  "import ipywidgets, rules_lib.dice, rules_lib.widgets",
].join("\n");

let started = null;
const calculators = new Map();
let nextComm = 1;

function phase(name) {
  // wall-clock ms: the page turns it into ms since its own navigation
  postMessage({ op: "phase", name, at: performance.timeOrigin + performance.now() });
}

async function readSnapshot(key) {
  try {
    const found = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (error) {
    return null; // no Cache Storage here (an insecure origin) or it is unreadable
  }
}

async function saveSnapshot(key, snapshot) {
  postMessage({ op: "snapshot", state: "saving" });
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old); // one build at a time
    await cache.put(key, new Response(snapshot, { headers: { "content-type": "application/octet-stream" } }));
    postMessage({ op: "snapshot", state: "saved" });
  } catch (error) {
    postMessage({ op: "snapshot", state: `not stored: ${error}` });
  }
}

// A wheel as the build made it: its SHA-256 must be the manifest's, or Python does not start.
async function verifiedWheel(vendor, manifest, name) {
  const expected = (manifest.sha256 || {})[name];
  if (!expected) throw new Error(`the wheel ${name} has no digest in the build manifest`);
  if (!(self.crypto && crypto.subtle)) throw new Error("this page cannot check the wheels (not a secure context)");
  const bytes = await (await fetch(new URL(`wheels/${name}`, vendor))).arrayBuffer();
  const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)),
    (byte) => byte.toString(16).padStart(2, "0")).join("");
  if (digest !== expected) throw new Error(`the wheel ${name} does not match the build's digest`);
  return bytes;
}

async function startPython(vendorHref, pageClasses) {
  const vendor = new URL(vendorHref);
  const indexURL = new URL("pyodide/", vendor).href;
  // fetched together: the runtime's loader, the manifest, then the wheels while Python boots
  const [{ loadPyodide }, manifest] = await Promise.all([
    import(new URL("pyodide.mjs", indexURL).href),
    fetch(new URL("wheels/manifest.json", vendor)).then((response) => response.json()),
  ]);
  phase("loader");
  // a wheel only some calculators import (icepool) is fetched when first imported (rules_lib.browser.LazyWheels)
  const lazy = manifest.lazy || {};
  const onImport = Object.fromEntries(Object.entries(lazy).map(([module, name]) => [module, {
    url: new URL(`wheels/${name}`, vendor).href, sha256: (manifest.sha256 || {})[name] || "",
  }]));
  const atStart = manifest.wheels.filter((name) => !Object.values(lazy).includes(name));
  const wheelsRequest = Promise.all(atStart.map((name) => verifiedWheel(vendor, manifest, name)));
  wheelsRequest.catch(() => {}); // reported where it is awaited
  const key = new URL(`snapshot-${manifest.build}`, vendor).href;
  const snapshots = manifest.snapshot === "on" && Boolean(manifest.build);
  if (!snapshots) postMessage({ op: "snapshot", state: "off" });
  let pyodide = null;
  let fromSnapshot = false;
  const snapshot = snapshots ? await readSnapshot(key) : null;
  phase("snapshot-read");
  if (snapshot) {
    try {
      pyodide = await loadPyodide({ indexURL, _loadSnapshot: snapshot });
      fromSnapshot = true;
      postMessage({ op: "snapshot", state: "restored", fromSnapshot: true });
    } catch (error) {
      caches.open(SNAPSHOT_CACHE).then((cache) => cache.delete(key));
    }
  }
  pyodide = pyodide || (await loadPyodide({ indexURL, _makeSnapshot: snapshots }));
  phase("pyodide");
  // a snapshot holds memory, not files: the wheels are unpacked on every start
  for (const wheel of await wheelsRequest) pyodide.unpackArchive(wheel, "wheel");
  phase("wheels");
  if (!fromSnapshot) {
    pyodide.runPython(SHARED_IMPORTS);
    // this page's calculator modules, named by the page before it has drawn (a snapshot then holds them)
    pyodide.runPython(`browser.import_calculator_modules(${JSON.stringify(JSON.stringify(pageClasses))})`);
    if (snapshots && typeof pyodide.makeMemorySnapshot === "function") {
      try {
        // before any JavaScript object crosses into Python, as a snapshot requires
        saveSnapshot(key, pyodide.makeMemorySnapshot());
      } catch (error) {
        postMessage({ op: "snapshot", state: `not taken: ${error}` });
      }
    }
  }
  const browser = pyodide.pyimport("rules_lib.browser");
  browser.install_lazy_wheels(JSON.stringify(onImport));
  // after a snapshot of another page: this page's modules too, while the page draws
  if (fromSnapshot) browser.import_calculator_modules(JSON.stringify(pageClasses));
  phase("imported");
  return browser;
}

async function handle(message) {
  const browser = await started;
  if (message.op === "comm_open") {
    const calculator = browser.LiveCalculator(message.target);
    const comm = nextComm++;
    calculators.set(comm, calculator);
    return {
      comm, shape: calculator.shape().toJs(),
      changes: JSON.parse(calculator.load(JSON.stringify(message.data.state))),
    };
  }
  if (message.op === "comm_msg") {
    const calculator = calculators.get(message.comm);
    if (!calculator) throw new Error(`no calculator ${message.comm}`);
    const { method, index } = message.data;
    if (method === "update") return { changes: JSON.parse(calculator.set_input(index, JSON.stringify(message.data.state))) };
    if (method === "custom") return { changes: JSON.parse(calculator.click(index, JSON.stringify(message.data.content))) };
    throw new Error(`unknown comm method ${method}`);
  }
  if (message.op === "roll") return JSON.parse(browser.roll_inline(message.text));
  throw new Error(`unknown message ${message.op}`);
}

self.onmessage = async ({ data: message }) => {
  if (message.op === "start") {
    started = started || startPython(message.vendor, message.classes || []);
    started.then(() => postMessage({ op: "ready" }), (error) => postMessage({ op: "failed", error: String(error.message || error) }));
    return;
  }
  try {
    postMessage({ id: message.id, ok: true, result: await handle(message) });
  } catch (error) {
    postMessage({ id: message.id, ok: false, error: String(error.message || error) });
  }
};
