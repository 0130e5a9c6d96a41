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
 *                  {op: "snapshot", state, fromSnapshot}         the memory snapshot's fate: "restored", "fetching",
 *                                                                "stored", "none" (the build has none), "not …"
 *                  {id, ok: true, result} | {id, ok: false, error}
 * A reply carries the widget states Python changed, as [index, {key: value}] pairs (rules_lib.browser).
 * Messages are handled in the order they come: each waits for the same start-up promise.
 *
 * The memory snapshot is the build's own (tools/snapshot.py), never one the browser made. A reader's
 * first calculators page starts Python afresh, then, once the page has been quiet for 2 s, fetches the
 * snapshot (so a first visit downloads no more before it is live and answers), checks it, unzips it
 * and stores its memory in Cache
 * Storage; later pages restore that memory. Cache Storage belongs to the whole origin (on GitHub Pages,
 * to every project of the owner), so a stored memory is run only if its SHA-256 is the manifest's.
 */
const SNAPSHOT_CACHE = "rules-lib-live-snapshots";
const SHARED_IMPORTS = "import rules_lib.browser as browser\nbrowser.import_shared()";

let started = null;
const calculators = new Map();
let nextComm = 1;
// After a fresh start the snapshot is fetched for the next page once the page has sent nothing for
// a while: its calculators paired and the reader's first inputs answered, it does not hold them up.
const QUIET_BEFORE_SNAPSHOT_MS = 2000;
let snapshotForLater = null;
let quietTimer = null;

function whenQuiet() {
  clearTimeout(quietTimer);
  if (!snapshotForLater) return;
  quietTimer = setTimeout(() => {
    const store = snapshotForLater;
    snapshotForLater = null;
    store();
  }, QUIET_BEFORE_SNAPSHOT_MS);
}

function phase(name) {
  // wall-clock ms: the page turns it into ms since its own navigation
  postMessage({ op: "phase", name, at: performance.timeOrigin + performance.now() });
}

// The memory is stored without its pages of zeros (about half of it: half the bytes to read on every
// later page): a header of three 32-bit numbers (the memory's length, the page size, the number of
// pages), a byte a page (1: stored), then the stored pages.
const PAGE = 4096;
const MOST_MEMORY = 256 * 1024 * 1024; // a header asking for more is not the build's

function isZeros(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  for (let at = 0; at < words.length; at++) if (words[at] !== 0) return false;
  for (let at = words.length << 2; at < bytes.length; at++) if (bytes[at] !== 0) return false;
  return true;
}

function withoutZeroPages(memory) {
  const count = Math.ceil(memory.length / PAGE);
  const stored = new Uint8Array(count);
  const pages = [];
  for (let page = 0; page < count; page++) {
    const bytes = memory.subarray(page * PAGE, Math.min(memory.length, (page + 1) * PAGE));
    if (!isZeros(bytes)) {
      stored[page] = 1;
      pages.push(bytes);
    }
  }
  return new Blob([new Uint32Array([memory.length, PAGE, count]), stored, ...pages]);
}

function withZeroPages(packed) {
  const [length, page, count] = new Uint32Array(packed.buffer, packed.byteOffset, 3);
  if (page !== PAGE || length > MOST_MEMORY || count !== Math.ceil(length / PAGE)) throw new Error("not a stored memory");
  const stored = packed.subarray(12, 12 + count);
  const memory = new Uint8Array(length);
  let at = 12 + count;
  for (let index = 0; index < count; index++) {
    if (!stored[index]) continue;
    const size = Math.min(PAGE, length - index * PAGE);
    memory.set(packed.subarray(at, at + size), index * PAGE);
    at += size;
  }
  if (at !== packed.length) throw new Error("not a stored memory");
  return memory;
}

// the memory a page before this one stored, read as soon as the worker starts; else null
async function storedMemory(key) {
  try {
    const found = await (await caches.open(SNAPSHOT_CACHE)).match(key);
    return found ? withZeroPages(new Uint8Array(await found.arrayBuffer())) : null;
  } catch (error) {
    return null; // no Cache Storage here (an insecure origin), unreadable, or not a stored memory
  }
}

// that memory, if it is exactly the build's snapshot memory; else null (and a copy that is not, removed)
async function checkedMemory(memoryRequest, key, expected) {
  const memory = await memoryRequest;
  if (!memory) return null;
  try {
    if (hex(await crypto.subtle.digest("SHA-256", memory)) === expected) return memory;
  } catch (error) {
    return null;
  }
  caches.open(SNAPSHOT_CACHE).then((cache) => cache.delete(key), () => {});
  postMessage({ op: "snapshot", state: "not restored: the stored memory is not the build's" });
  return null;
}

async function gunzipped(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

// after a fresh start: the build's snapshot for the next page, fetched at low priority (not where
// the reader saves data), checked, unzipped and stored
async function storeSnapshotForLater(url, key, digests) {
  if (self.navigator && navigator.connection && navigator.connection.saveData) {
    postMessage({ op: "snapshot", state: "not fetched: the reader saves data" });
    return;
  }
  postMessage({ op: "snapshot", state: "fetching" });
  try {
    const memory = await gunzipped(await verified("the snapshot", download(url, { priority: "low", cache: "no-store" }),
      digests.file));
    if (hex(await crypto.subtle.digest("SHA-256", memory)) !== digests.memory) {
      throw new Error("the snapshot's memory does not match the build's digest");
    }
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const old of await cache.keys()) await cache.delete(old); // one build at a time
    await cache.put(key, new Response(withoutZeroPages(memory), { headers: { "content-type": "application/octet-stream" } }));
    postMessage({ op: "snapshot", state: "stored" });
  } catch (error) {
    postMessage({ op: "snapshot", state: `not stored: ${error.message || error}` });
  }
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// Bytes as the build made them: their SHA-256 must be the manifest's, or Python does not start.
async function verified(what, bytesRequest, expected) {
  if (!expected) throw new Error(`${what} has no digest in the build manifest`);
  if (!(self.crypto && crypto.subtle)) throw new Error("this page cannot check the runtime (not a secure context)");
  const bytes = await bytesRequest;
  if (hex(await crypto.subtle.digest("SHA-256", bytes)) !== expected) {
    throw new Error(`${what} does not match the build's digest`);
  }
  return bytes;
}

async function fetched(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url} could not be loaded (${response.status})`);
  return response;
}

async function download(url, init) {
  return (await fetched(url, init)).arrayBuffer();
}

// a file of vendor/wheels/ (a wheel, or the wheels' bytecode), checked against the manifest
function verifiedWheel(vendor, manifest, name, what = "the wheel") {
  return verified(`${what} ${name}`, download(new URL(`wheels/${name}`, vendor)), (manifest.sha256 || {})[name]);
}

// Pyodide's own files, checked before it runs them. Each is downloaded once, here, and Pyodide is
// handed those very bytes: the two modules are imported from blob URLs of the checked bytes (the
// loader as pyodide.mjs, the Emscripten module through createPyodideModule), and the files Pyodide
// fetches itself (the wasm, the standard library, the lock file) are answered from the checked bytes
// by a fetch that refuses anything else under the runtime's folder. Checking a download and then
// letting Pyodide fetch the URL again would not do: the second answer need not be the first.
const RUNTIME_MODULES = ["pyodide.mjs", "pyodide.asm.mjs"];
const RUNTIME_FETCHED = { "pyodide.asm.wasm": "application/wasm", "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json" };
const RUNTIME_WASM = "pyodide.asm.wasm";

// The wasm compiles while it downloads, from a tee of the very response whose bytes are checked (one
// body, two identical streams), instead of after the download and the check: compiling runs nothing,
// and the module is instantiated only once the digest matched. Compiled from the site's own response
// rather than from bytes in memory, the browser can keep the compiled code in its HTTP cache beside
// the file and reuse it on the next visit (V8's wasm code cache), so a warm start does not compile
// 9.6 MB again. Should streaming compilation fail (a server sending another content type), the
// checked bytes are compiled instead.
function compiledWhileDownloading(response) {
  const compiled = WebAssembly.compileStreaming(response.clone());
  compiled.catch(() => {}); // falls back to the checked bytes
  return compiled;
}

// Pyodide instantiates its wasm with WebAssembly.instantiateStreaming(fetch(url)); the fetch below
// answers it with a response of the checked bytes, recognised here, and gets the module compiled
// from the same download.
function instantiateCheckedWasm(checkedResponses, compiled, checkedBytes) {
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!checkedResponses.has(response)) return instantiateStreaming(response, imports);
    const module = await compiled.catch(() => null);
    if (!module) return WebAssembly.instantiate(checkedBytes, imports);
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
}

async function verifiedRuntime(indexURL, manifestRequest) {
  const names = [...RUNTIME_MODULES, ...Object.keys(RUNTIME_FETCHED)];
  let compiled = Promise.reject(new Error("the wasm was not downloaded"));
  compiled.catch(() => {});
  const downloads = names.map((name) => fetched(new URL(name, indexURL)).then((response) => {
    // the tee before the body is read
    if (name === RUNTIME_WASM) {
      compiled = compiledWhileDownloading(response);
      compiled.then(() => phase("wasm-compiled"), () => {});
    }
    return response.arrayBuffer();
  }));
  downloads.forEach((request) => request.catch(() => {})); // reported where verified
  const digests = (await manifestRequest).runtime || {};
  const checked = names.map((name, at) => verified(`the runtime file ${name}`, downloads[at], digests[name]));
  checked.forEach((request) => request.catch(() => {})); // reported below
  // Each module is imported as soon as it is checked, so V8 compiles Pyodide's 1.25 MB glue while
  // the wasm and the standard library still download. Importing runs only their definitions;
  // nothing of theirs is called before every file is checked (below).
  const modules = Promise.all(RUNTIME_MODULES.map(async (name) => {
    const url = URL.createObjectURL(new Blob([await checked[names.indexOf(name)]], { type: "text/javascript" }));
    try {
      return await import(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }));
  modules.catch(() => {}); // awaited once every file is checked
  const bytes = await Promise.all(checked);
  const files = Object.fromEntries(names.map((name, at) => [name, bytes[at]]));
  const checkedWasm = new WeakSet();
  instantiateCheckedWasm(checkedWasm, compiled, files[RUNTIME_WASM]);
  const pageFetch = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input, self.location.href);
    if (!url.href.startsWith(indexURL)) return pageFetch(input, init);
    const name = url.pathname.slice(new URL(indexURL).pathname.length);
    if (!(name in RUNTIME_FETCHED) || url.search) return Promise.reject(new Error(`${url.href} is not a checked runtime file`));
    const response = new Response(files[name], { headers: { "content-type": RUNTIME_FETCHED[name] } });
    if (name === RUNTIME_WASM) checkedWasm.add(response);
    return Promise.resolve(response);
  };
  const [{ loadPyodide }, emscripten] = await modules;
  return (options) => loadPyodide({ ...options, indexURL, createPyodideModule: emscripten.default });
}

async function startPython(vendorHref, pageClasses) {
  const vendor = new URL(vendorHref);
  const indexURL = new URL("pyodide/", vendor).href;
  // where a page before this one stored the snapshot's memory: read at once, checked once the manifest is in
  const memoryKey = new URL("wheels/python-snapshot-memory", vendor).href;
  const storedRequest = storedMemory(memoryKey);
  // fetched together: the manifest, the runtime (checked against it), then the wheels while Python boots
  const manifestRequest = fetch(new URL("wheels/manifest.json", vendor)).then((response) => response.json());
  const runtimeRequest = verifiedRuntime(indexURL, manifestRequest);
  const manifest = await manifestRequest;
  // a wheel only some calculators import (none at present) is fetched when first imported (rules_lib.browser.LazyWheels)
  const lazy = manifest.lazy || {};
  const onImport = Object.fromEntries(Object.entries(lazy).map(([module, name]) => [module, {
    url: new URL(`wheels/${name}`, vendor).href, sha256: (manifest.sha256 || {})[name] || "",
  }]));
  const atStart = manifest.wheels.filter((name) => !Object.values(lazy).includes(name));
  const wheelsRequest = Promise.all(atStart.map((name) => verifiedWheel(vendor, manifest, name)));
  wheelsRequest.catch(() => {}); // reported where it is awaited
  // their start-up modules compiled at build time (tools/precompile.py): Python need not compile them
  const bytecodeRequest = manifest.bytecode
    ? verifiedWheel(vendor, manifest, manifest.bytecode, "the bytecode") : Promise.resolve(null);
  bytecodeRequest.catch(() => {});
  const snapshot = manifest.snapshot; // {file, memory_sha256} or null
  const snapshotURL = snapshot ? new URL(`wheels/${snapshot.file}`, vendor).href : null;
  if (!snapshot) postMessage({ op: "snapshot", state: "none" });
  // read and checked while the runtime downloads and is checked
  const memoryRequest = snapshot ? checkedMemory(storedRequest, memoryKey, snapshot.memory_sha256) : Promise.resolve(null);
  const loadPyodide = await runtimeRequest;
  phase("loader");
  let pyodide = null;
  let fromSnapshot = false;
  let restoreFailed = false;
  const memory = await memoryRequest;
  phase("snapshot-read");
  if (memory) {
    try {
      pyodide = await loadPyodide({ _loadSnapshot: memory });
      fromSnapshot = true;
      postMessage({ op: "snapshot", state: "restored", fromSnapshot: true });
    } catch (error) {
      restoreFailed = true; // the build's own memory: fetching it again would not help
      postMessage({ op: "snapshot", state: `not restored: ${error}` });
    }
  }
  pyodide = pyodide || (await loadPyodide());
  phase("pyodide");
  // a snapshot holds memory, not files: the wheels are unpacked on every start
  for (const wheel of await wheelsRequest) pyodide.unpackArchive(wheel, "wheel");
  // a snapshot's memory holds the modules it imported: the bytecode only for a page that needs more
  const needsBytecode = !fromSnapshot
    || pyodide.pyimport("rules_lib.browser").lacks_calculator_modules(JSON.stringify(pageClasses));
  const bytecode = needsBytecode ? await bytecodeRequest : null;
  if (bytecode) pyodide.unpackArchive(bytecode, "zip");
  phase("wheels");
  if (!fromSnapshot) {
    pyodide.runPython(SHARED_IMPORTS);
    phase("shared-imports");
    // this page's calculator modules, named by the page before it has drawn
    pyodide.runPython(`browser.import_calculator_modules(${JSON.stringify(JSON.stringify(pageClasses))})`);
    phase("page-imports");
  }
  const browser = pyodide.pyimport("rules_lib.browser");
  browser.install_lazy_wheels(JSON.stringify(onImport));
  // after a restore: this page's modules too, should the snapshot lack them; and its calculators,
  // built while the page draws
  if (fromSnapshot) browser.import_calculator_modules(JSON.stringify(pageClasses));
  browser.prebuild_calculators(JSON.stringify(pageClasses));
  phase("imported");
  if (snapshot && !fromSnapshot && !restoreFailed) {
    const digests = { file: (manifest.sha256 || {})[snapshot.file], memory: snapshot.memory_sha256 };
    snapshotForLater = () => storeSnapshotForLater(snapshotURL, memoryKey, digests);
  }
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
    started.then(() => {
      postMessage({ op: "ready" });
      whenQuiet();
    }, (error) => postMessage({ op: "failed", error: String(error.message || error) }));
    return;
  }
  try {
    postMessage({ id: message.id, ok: true, result: await handle(message) });
  } catch (error) {
    postMessage({ id: message.id, ok: false, error: String(error.message || error) });
  }
  whenQuiet();
};
