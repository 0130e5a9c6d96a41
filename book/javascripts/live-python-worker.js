/*
 * The live calculators' Python, in a Web Worker: a module worker a page starts (tools/mkdocs_hooks.py,
 * live-calculators.js), shared where the browser has shared workers.
 *
 * Pyodide boots or restores a memory snapshot, and computes, here, so the page's main thread only
 * draws widgets. A shared worker is named after the build and the page's snapshot group, and asked
 * to outlive its pages for a while (`extendedLifetime`): the next page of the group a reader opens,
 * following a link or reloading, finds Python running, its calculators already built while the
 * reader read (a dedicated worker, where there are no shared ones, starts Python for each page).
 *
 * A page and this worker talk in messages modelled on the Jupyter comm protocol that JupyterLite's
 * kernels use between their worker and the page:
 *   page → worker  {op: "start", vendor, manifest, classes, stored}  boot (sent at once, while the page draws), with
 *                                                                the SHA-256 of the manifest the page was built with,
 *                                                                each calculator's stored inputs (loaded meanwhile
 *                                                                when Python is running already)
 *                  {id, op: "comm_open", target, data: {state}}  construct a calculator from the page's stored inputs
 *                  {id, op: "comm_msg", comm, data: {method: "update", index, state}}   an input changed
 *                  {id, op: "comm_msg", comm, data: {method: "custom", index, content}} a button press
 *                  {id, op: "roll", text}                        a dice expression clicked in the text
 *                  {id, op: "orphan_widgets"}                    how many open widgets no calculator holds (tests)
 *                  {op: "leave"}                                 the page is gone (its calculators are closed)
 *   worker → page  {op: "phase", name, at}                       start-up timings (ms since the page's navigation)
 *                  {op: "snapshot", state, fromSnapshot}         "restored", "none" (the build has none for the
 *                                                                page), or "not restored: …" (then Python starts afresh)
 *                  {op: "deferred", state}                       after a restore, the files it deferred: "loaded",
 *                                                                or "failed: …"
 *                  {op: "ready", reused}                         Python started (reused: it was running already)
 *                  {op: "failed", error}                         Python could not start
 *                  {id, ok: true, result} | {id, ok: false, error}
 * A reply carries the widget states Python changed, as [index, {key: value}] pairs (rules_lib.browser).
 * Messages are handled in the order they come: each waits for its page's start-up promise. A page
 * that finds Python running is first told the snapshot's and the deferred files' state.
 *
 * Every page that starts Python, on a first visit as on later ones, restores the build's memory snapshot of its
 * calculators' group (tools/snapshot.py): Python with the page's modules imported and its
 * calculators built. It is fetched like any other file (the browser's HTTP cache keeps it) and run
 * only if its SHA-256 is the manifest's. A snapshot holds memory, not files, and a restored Python
 * needs files only for what it has not imported yet; so the standard library, the wheels and their
 * bytecode (4-5 MB) are not downloaded before the page is live: they are fetched once the page has
 * been quiet for 2 s, or, should Python touch their folders first, synchronously at that moment
 * (`deferredFiles`), checked against the manifest like everything else.
 */
import { xorWithStartMemory } from "./python-memory.js";

const SHARED_IMPORTS = "import rules_lib.browser as browser\nbrowser.import_shared()";
// what a page without calculators needs: its Python starts at the reader's first dice click
// (rules_lib.browser.ROLLING_MODULE)
const ROLLING_MODULE = "rules_lib.cli";

let started = null;
// the SHA-256 of the manifest the first page was built with, which Python was started from
let startedManifest = null;
const calculators = new Map();
let nextComm = 1;
// Work that waits until the pages have sent nothing for a while, their calculators paired and the
// reader's first inputs answered: after a restore, fetching the deferred files; in a shared worker,
// building calculators for the next page. Done in the order asked, each once, and in pieces of a
// task each (nextTask), so that a reader's change made meanwhile waits for one piece at most.
const QUIET_BEFORE_DEFERRED_MS = 2000;
const whenQuietTasks = [];
let quietTimer = null;

function whenQuiet(task) {
  if (task && !whenQuietTasks.includes(task)) whenQuietTasks.push(task);
  clearTimeout(quietTimer);
  if (!whenQuietTasks.length) return;
  quietTimer = setTimeout(async () => {
    while (whenQuietTasks.length) {
      try {
        await whenQuietTasks.shift()();
      } catch (error) {
        console.warn("rules_lib live calculators:", error);
      }
    }
  }, QUIET_BEFORE_DEFERRED_MS);
}

// The pages this worker serves, each by its port: a dedicated worker serves its one page (itself the
// port); a shared worker every page of its name that is open (see the header). What it says of its
// start, every page hears; a page that comes later hears the state of the snapshot and the
// deferred files first.
const IN_SHARED_WORKER = "onconnect" in self;
const pages = new Set();
const told = {};

function tell(message) {
  if (message.op === "snapshot" || message.op === "deferred") told[message.op] = message;
  for (const port of pages) port.postMessage(message);
}

function phase(name) {
  // wall-clock ms: the page turns it into ms since its own navigation
  tell({ op: "phase", name, at: performance.timeOrigin + performance.now() });
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

const pageFetch = self.fetch.bind(self);

async function fetched(url, init) {
  const response = await pageFetch(url, init);
  if (!response.ok) throw new Error(`${url} could not be loaded (${response.status})`);
  return response;
}

async function download(url, init) {
  return (await fetched(url, init)).arrayBuffer();
}

// The build's manifest, read only if its SHA-256 is the one the page was built with (the page's
// rules-lib-manifest meta, tools/site_policy.py): a manifest forged on the way or on the server
// names forged files by their own digests, so every other check rests on this one.
async function pageManifest(vendor, expected) {
  if (!expected) throw new Error("the page names no build manifest to check");
  const bytes = await verified("the build manifest", download(new URL("wheels/manifest.json", vendor)), expected);
  return JSON.parse(new TextDecoder().decode(bytes));
}

// a file of vendor/wheels/ (a wheel, the wheels' bytecode, a snapshot), checked against the manifest
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
const STDLIB = "python_stdlib.zip";
// served gzip-compressed as name.gz (tools/vendor.py): 3.8 MB sent instead of 10.8, whatever the server
const GZIPPED = new Set(["pyodide.asm.mjs", "pyodide.asm.wasm"]);
// what Pyodide is given for the standard library while it is deferred: a zip with no files (the
// restored Python knows the real one's directory already, from its memory), replaced before use
const EMPTY_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

// The wasm compiles while it downloads and is decompressed, from a tee of the very stream whose
// bytes are checked, instead of after the download and the check: compiling runs nothing, and the
// module is instantiated only once the digest matched. (Compiled from a decompressed stream, it gets
// no code cache from the browser; measured here, compiling it again took no longer than reading the
// cached code had.) Should streaming compilation fail, the checked bytes are compiled instead.
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

// The runtime, its downloads started at once: {loader (a promise of loadPyodide), wasm (a promise of
// its checked bytes), stdlib() (a promise of the checked standard library, downloaded on the first
// call: a restore defers it, and loadPyodide gives Pyodide EMPTY_ZIP for it then)}
function verifiedRuntime(indexURL, manifestRequest) {
  const digests = manifestRequest.then((manifest) => manifest.runtime || {});
  let compiled = Promise.reject(new Error("the wasm was not downloaded"));
  compiled.catch(() => {});
  // a runtime file as served, its digest checked, then as Pyodide runs it (decompressed)
  const checkedFile = (name) => {
    const served = GZIPPED.has(name) ? `${name}.gz` : name;
    const parts = fetched(new URL(served, indexURL)).then((response) => {
      if (!GZIPPED.has(name)) {
        const bytes = response.arrayBuffer();
        return { bytes, plain: bytes };
      }
      const [kept, used] = response.body.tee();
      let plain = used.pipeThrough(new DecompressionStream("gzip"));
      if (name === RUNTIME_WASM) {
        // the tee before the body is read
        const [toCompile, toKeep] = plain.tee();
        compiled = compiledWhileDownloading(new Response(toCompile, { headers: { "content-type": "application/wasm" } }));
        compiled.then(() => phase("wasm-compiled"), () => {});
        plain = toKeep;
      }
      const decompressed = new Response(plain).arrayBuffer();
      decompressed.catch(() => {}); // not gzip: the digest check below says so
      return { bytes: new Response(kept).arrayBuffer(), plain: decompressed };
    });
    parts.catch(() => {}); // reported where verified
    const file = digests.then(async (known) => {
      const { bytes, plain } = await parts;
      await verified(`the runtime file ${served}`, bytes, known[served]);
      return plain;
    });
    file.catch(() => {}); // reported where awaited
    return file;
  };
  const names = [...RUNTIME_MODULES, ...Object.keys(RUNTIME_FETCHED).filter((name) => name !== STDLIB)];
  const checked = Object.fromEntries(names.map((name) => [name, checkedFile(name)]));
  let stdlibRequest = null;
  const stdlib = () => (stdlibRequest = stdlibRequest || checkedFile(STDLIB));
  const answers = {}; // what Pyodide's own fetches are answered with: checked bytes only
  let stdlibDeferred = false;
  // Each module is imported as soon as it is checked, so V8 compiles Pyodide's 1.25 MB glue while
  // the wasm still downloads. Importing runs only their definitions; nothing of theirs is called
  // before every file is checked (below).
  const modules = Promise.all(RUNTIME_MODULES.map(async (name) => {
    const url = URL.createObjectURL(new Blob([await checked[name]], { type: "text/javascript" }));
    try {
      return await import(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }));
  modules.catch(() => {}); // awaited once every file is checked
  const loader = (async () => {
    const fetchedNames = Object.keys(RUNTIME_FETCHED).filter((name) => name !== STDLIB);
    const bytes = await Promise.all(fetchedNames.map((name) => checked[name]));
    fetchedNames.forEach((name, at) => (answers[name] = bytes[at]));
    const checkedWasm = new WeakSet();
    instantiateCheckedWasm(checkedWasm, compiled, answers[RUNTIME_WASM]);
    self.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input, self.location.href);
      if (!url.href.startsWith(indexURL)) return pageFetch(input, init);
      const name = url.pathname.slice(new URL(indexURL).pathname.length);
      if (!(name in RUNTIME_FETCHED) || url.search) return Promise.reject(new Error(`${url.href} is not a checked runtime file`));
      const body = name === STDLIB && stdlibDeferred ? EMPTY_ZIP : answers[name];
      if (!body) return Promise.reject(new Error(`${url.href} was not checked before it was asked for`));
      const response = new Response(body, { headers: { "content-type": RUNTIME_FETCHED[name] } });
      if (name === RUNTIME_WASM) checkedWasm.add(response);
      return Promise.resolve(response);
    };
    const [{ loadPyodide }, emscripten] = await modules;
    phase("modules");
    return async (options = {}) => {
      stdlibDeferred = Boolean(options._loadSnapshot);
      if (!stdlibDeferred) answers[STDLIB] = await stdlib();
      return loadPyodide({ ...options, indexURL, createPyodideModule: emscripten.default });
    };
  })();
  return { loader, wasm: checked[RUNTIME_WASM], stdlib };
}

// the snapshot that holds every module of the page's calculators (or the dice's, for a page without
// calculators, which starts Python for a dice roll), or null
function snapshotFor(manifest, pageClasses) {
  const modules = [...new Set(pageClasses.map((dotted) => String(dotted).split(":")[0]))];
  const needed = modules.length ? modules : [ROLLING_MODULE];
  return (manifest.snapshots || []).find((snapshot) => needed.every((module) => snapshot.modules.includes(module))) || null;
}

// What a restore needs beyond Pyodide, from the site's vendor/ folder (tools/vendor.py): zstd to
// unpack the snapshot, an unzip and a SHA-256 that run synchronously (deferredFiles).
async function restoreTools(vendor) {
  const [{ ZSTDDecoder }, { unzipSync }, { sha256 }] = await Promise.all([
    import(new URL("zstddec/dist/zstddec.mjs", vendor).href),
    import(new URL("fflate/esm/browser.js", vendor).href),
    import(new URL("noble-hashes/sha2.js", vendor).href),
  ]);
  const zstd = new ZSTDDecoder();
  await zstd.init();
  return { zstd, unzipSync, sha256 };
}

// the snapshot's memory as Pyodide restores it: checked, unpacked (while the wasm may still
// download), its static data XOR-ed back
async function snapshotMemory(vendor, manifest, snapshot, wasmRequest, toolsRequest) {
  const [packed, { zstd }] = await Promise.all([verifiedWheel(vendor, manifest, snapshot.file, "the snapshot"), toolsRequest]);
  phase("snapshot-fetched");
  const memory = zstd.decode(new Uint8Array(packed));
  phase("snapshot-unpacked");
  return xorWithStartMemory(memory, new Uint8Array(await wasmRequest));
}

// A directory whose files are not there yet: the first time Python looks up a name in it that
// `wanted` accepts, or lists it, `load` writes them (and the directory's own lookups come back).
function deferDirectory(FS, path, wanted, load) {
  const node = FS.lookupPath(path).node;
  const own = node.node_ops;
  const loadFirst = () => {
    node.node_ops = own; // load writes into this very directory
    try {
      load();
    } catch (error) {
      tell({ op: "deferred", state: `failed: ${error.message || error}` });
      throw new FS.ErrnoError(29); // EIO: Python sees an I/O error, not a missing module
    }
  };
  node.node_ops = {
    ...own,
    lookup(parent, name) {
      if (!wanted(name)) return own.lookup(parent, name);
      loadFirst();
      return FS.lookupNode(parent, name);
    },
    readdir(dir) {
      loadFirst();
      return own.readdir(dir);
    },
  };
  return () => (node.node_ops = own);
}

// the next task of this worker's thread: what a page sent meanwhile is handled first
const nextTask = () => new Promise((resolve) => setTimeout(resolve));

// An archive's file names in pieces of at most UNZIP_PIECE_BYTES unzipped (a file larger is a piece
// of its own): a piece took 3-21 ms to unzip on this project's 2-core machine
const UNZIP_PIECE_BYTES = 256 * 1024;

function unzipPieces(bytes, unzipSync) {
  const pieces = [];
  let piece = new Set();
  let size = 0;
  unzipSync(bytes, {
    filter: (file) => { // lists the files without unzipping any
      if (piece.size && size + file.originalSize > UNZIP_PIECE_BYTES) {
        pieces.push(piece);
        piece = new Set();
        size = 0;
      }
      piece.add(file.name);
      size += file.originalSize;
      return false;
    },
  });
  if (piece.size) pieces.push(piece);
  return pieces;
}

// After a restore: the standard library (one zip in /lib) and the wheels with their bytecode
// (unpacked where Pyodide unpacks them, the working directory) are written when `loadInBackground`
// has fetched and checked them, or, if Python touches /lib's zip or the working directory first,
// at that moment: fetched with a synchronous request, checked with a synchronous SHA-256 and
// unzipped synchronously, since a file system call cannot wait for a promise.
function deferredFiles(pyodide, { stdlib, archives }, { unzipSync, sha256 }) {
  const FS = pyodide.FS;
  const home = FS.cwd();
  const zipName = FS.readdir("/lib").find((name) => /^python\d+\.zip$/.test(name));
  if (!zipName) throw new Error("the restored Python has no standard library zip to defer");
  const zipPath = `/lib/${zipName}`;
  FS.unlink(zipPath); // EMPTY_ZIP, which Pyodide wrote
  const done = { stdlib: false, archives: false };

  const syncChecked = ({ url, sha256: expected, what }) => {
    const request = new XMLHttpRequest();
    request.open("GET", url, false);
    request.responseType = "arraybuffer";
    request.send(null);
    if (request.status !== 200) throw new Error(`${url} could not be loaded (${request.status})`);
    const bytes = new Uint8Array(request.response);
    if (!expected || hex(sha256(bytes)) !== expected) throw new Error(`${what} does not match the build's digest`);
    return bytes;
  };
  const write = (files) => {
    for (const [name, data] of Object.entries(files)) {
      if (name.endsWith("/")) continue;
      if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`${name} is not a plain relative path`);
      const path = `${home}/${name}`;
      FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      FS.writeFile(path, data);
    }
  };
  const install = {
    stdlib: (bytes) => FS.writeFile(zipPath, bytes),
    archives: (unzipped) => unzipped.forEach(write), // each archive's files, unzipped
  };
  const release = {};
  const whenNeeded = [];
  const load = (which, bytes) => {
    if (done[which]) return;
    done[which] = true;
    release[which]();
    if (!bytes) whenNeeded.push(which === "stdlib" ? "the standard library" : "the wheels");
    install[which](bytes || (which === "stdlib" ? syncChecked(stdlib) : archives.map((archive) => unzipSync(syncChecked(archive)))));
    if (done.stdlib && done.archives) {
      tell({ op: "deferred", state: `loaded${whenNeeded.length ? `; ${whenNeeded.join(" and ")} when Python first needed them` : ""}` });
    }
  };
  release.stdlib = deferDirectory(FS, "/lib", (name) => name === zipName, () => load("stdlib"));
  release.archives = deferDirectory(FS, home, () => true, () => load("archives"));
  return {
    // fetched and checked without holding Python up, the archives unzipped a piece a task (a reader's
    // change waits for one piece at most), and written between two of Python's calls, all at once:
    // Python never sees half of them
    async loadInBackground() {
      try {
        const check = ({ url, sha256: expected, what }) => verified(what, download(url, { priority: "low" }), expected);
        const [zip, ...list] = await Promise.all([check(stdlib), ...archives.map(check)]);
        load("stdlib", new Uint8Array(zip));
        const unzipped = [];
        for (const bytes of list.map((buffer) => new Uint8Array(buffer))) {
          const files = {};
          for (const piece of unzipPieces(bytes, unzipSync)) {
            await nextTask();
            if (done.archives) return; // Python needed them first, and they were loaded then
            Object.assign(files, unzipSync(bytes, { filter: (file) => piece.has(file.name) }));
          }
          unzipped.push(files);
        }
        await nextTask();
        load("archives", unzipped);
      } catch (error) {
        tell({ op: "deferred", state: `failed: ${error.message || error}` });
      }
    },
  };
}

// where pages kept a snapshot's memory before snapshots were served as files: freed, never read
const OLD_SNAPSHOT_CACHE = "rules-lib-live-snapshots";

async function startPython(vendorHref, manifestDigest, pageClasses) {
  if (self.caches) caches.delete(OLD_SNAPSHOT_CACHE).catch(() => {});
  const vendor = new URL(vendorHref);
  const indexURL = new URL("pyodide/", vendor).href;
  // fetched together: the manifest, the runtime (checked against it), the page's snapshot
  const manifestRequest = pageManifest(vendor, manifestDigest);
  const runtime = verifiedRuntime(indexURL, manifestRequest);
  const manifest = await manifestRequest;
  // a wheel only some calculators import (none at present) is fetched when first imported (rules_lib.browser.LazyWheels)
  const lazy = manifest.lazy || {};
  const onImport = Object.fromEntries(Object.entries(lazy).map(([module, name]) => [module, {
    url: new URL(`wheels/${name}`, vendor).href, sha256: (manifest.sha256 || {})[name] || "",
  }]));
  const atStart = manifest.wheels.filter((name) => !Object.values(lazy).includes(name));
  const snapshot = snapshotFor(manifest, pageClasses);
  if (!snapshot) tell({ op: "snapshot", state: "none" });
  const tools = snapshot ? restoreTools(vendor) : null;
  const memoryRequest = snapshot ? snapshotMemory(vendor, manifest, snapshot, runtime.wasm, tools) : null;
  memoryRequest?.catch(() => {}); // reported where awaited
  // a fresh start needs the wheels, their bytecode and the standard library at once
  const fresh = {};
  const freshFiles = () => {
    fresh.wheels = fresh.wheels || Promise.all(atStart.map((name) => verifiedWheel(vendor, manifest, name)));
    fresh.bytecode = fresh.bytecode || (manifest.bytecode
      ? verifiedWheel(vendor, manifest, manifest.bytecode, "the bytecode") : Promise.resolve(null));
    runtime.stdlib().catch(() => {}); // reported where awaited (loadPyodide)
    return fresh;
  };
  if (!snapshot) freshFiles();
  const loadPyodide = await runtime.loader;
  phase("loader");
  let pyodide = null;
  let deferred = null;
  if (snapshot) {
    try {
      const memory = await memoryRequest;
      phase("snapshot-read");
      const restored = await loadPyodide({ _loadSnapshot: memory });
      const wheelFile = (name, what) => ({ url: new URL(`wheels/${name}`, vendor).href, sha256: (manifest.sha256 || {})[name], what: `${what} ${name}` });
      deferred = deferredFiles(restored, {
        stdlib: { url: new URL(STDLIB, indexURL).href, sha256: (manifest.runtime || {})[STDLIB], what: `the runtime file ${STDLIB}` },
        archives: [...atStart.map((name) => wheelFile(name, "the wheel")),
          ...(manifest.bytecode ? [wheelFile(manifest.bytecode, "the bytecode")] : [])],
      }, await tools);
      pyodide = restored;
      tell({ op: "snapshot", state: "restored", fromSnapshot: true });
    } catch (error) {
      tell({ op: "snapshot", state: `not restored: ${error.message || error}` });
    }
  }
  if (!pyodide) {
    const { wheels, bytecode } = freshFiles();
    pyodide = await loadPyodide();
    phase("pyodide");
    for (const wheel of await wheels) pyodide.unpackArchive(wheel, "wheel");
    const compiled = await bytecode;
    if (compiled) pyodide.unpackArchive(compiled, "zip");
    phase("wheels");
    pyodide.runPython(SHARED_IMPORTS);
    phase("shared-imports");
    // this page's calculator modules, named by the page before it has drawn
    pyodide.runPython(`browser.import_calculator_modules(${JSON.stringify(JSON.stringify(pageClasses))})`);
    phase("page-imports");
  } else {
    phase("pyodide");
  }
  const browser = pyodide.pyimport("rules_lib.browser");
  browser.install_lazy_wheels(JSON.stringify(onImport));
  // after a restore: this page's modules too, should the snapshot lack them; and its calculators,
  // built while the page draws (a snapshot holds those of its group built). Not loaded with the
  // page's stored inputs here: the page has drawn by now, and the first calculator is live sooner
  // when each is loaded as the page pairs it, in order; a page that finds Python running has them
  // loaded while it draws (readyFor).
  if (deferred) browser.import_calculator_modules(JSON.stringify(pageClasses));
  browser.prebuild_calculators(JSON.stringify(pageClasses));
  phase("imported");
  if (deferred) whenQuiet(() => deferred.loadInBackground());
  return browser;
}

async function handle(message, page) {
  const browser = await page.ready;
  if (message.op === "comm_open") {
    const calculator = browser.LiveCalculator(message.target);
    const comm = nextComm++;
    calculators.set(comm, calculator);
    page.comms.add(comm);
    return {
      comm, shape: calculator.shape().toJs(),
      changes: JSON.parse(calculator.load(JSON.stringify(message.data.state))),
      preloaded: calculator.answered_from_preload,
    };
  }
  if (message.op === "comm_msg") {
    const calculator = page.comms.has(message.comm) && calculators.get(message.comm);
    if (!calculator) throw new Error(`no calculator ${message.comm}`);
    const { method, index } = message.data;
    if (method === "update") return { changes: JSON.parse(calculator.set_input(index, JSON.stringify(message.data.state))) };
    if (method === "custom") return { changes: JSON.parse(calculator.click(index, JSON.stringify(message.data.content))) };
    throw new Error(`unknown comm method ${method}`);
  }
  if (message.op === "roll") return JSON.parse(browser.roll_inline(message.text));
  if (message.op === "orphan_widgets") return browser.orphan_widgets();
  throw new Error(`unknown message ${message.op}`);
}

// A page Python already serves, or served: its calculators, built again while it is quiet for the
// next page of its kind (a reader following a link, or reloading), which then pairs at once.
const pageKinds = new Set();

async function prebuildForNextPage() {
  const browser = await started;
  for (const kind of pageKinds) {
    const { classes, stored } = JSON.parse(kind);
    const storedJson = JSON.stringify(stored);
    for (const dotted of classes) {
      await nextTask(); // one calculator a task: a reader's change waits for one at most
      browser.prebuild_calculators(JSON.stringify([dotted]), storedJson);
    }
  }
}

// Python for one more page: a page after the first finds it started, and its modules are imported
// (should the snapshot lack them) and its calculators built (unless they are already).
function readyFor(port, vendor, manifest, classes, stored) {
  const first = !started;
  // a shared worker is named after its build, so its pages name one manifest; one that does not is refused
  if (!first && manifest !== startedManifest) return Promise.reject(new Error("the page was built with another manifest than the running Python"));
  startedManifest = first ? manifest : startedManifest;
  started = started || startPython(vendor, manifest, classes);
  pageKinds.add(JSON.stringify({ classes, stored }));
  // a shared worker whose Python could not start ends once its pages are told, so that the next
  // page (a reload) starts a new one rather than hearing of the old failure
  if (first && IN_SHARED_WORKER) started.catch(() => setTimeout(() => self.close(), 100));
  if (first) return started;
  return started.then((browser) => {
    port.postMessage({ op: "phase", name: "python-running", at: performance.timeOrigin + performance.now() });
    browser.import_calculator_modules(JSON.stringify(classes));
    browser.prebuild_calculators(JSON.stringify(classes), JSON.stringify(stored));
    return browser;
  });
}

function serve(port) {
  const page = { ready: null, comms: new Set() };
  pages.add(port);
  // a page going away frees its calculators (one kept in the back-forward cache keeps them)
  const leave = () => {
    pages.delete(port);
    for (const comm of page.comms) {
      const calculator = calculators.get(comm);
      calculators.delete(comm);
      if (!calculator) continue;
      try {
        calculator.close(); // its widgets, which ipywidgets would keep otherwise
      } catch (error) {
        console.warn("rules_lib: a calculator could not be closed", error);
      } finally {
        calculator.destroy(); // the proxy
      }
    }
  };
  port.onmessage = async ({ data: message }) => {
    if (message.op === "start") {
      for (const said of [told.snapshot, told.deferred]) if (said) port.postMessage(said);
      page.ready = readyFor(port, message.vendor, message.manifest, message.classes || [], message.stored || {});
      page.ready.then(() => {
        port.postMessage({ op: "ready", reused: page.ready !== started });
        whenQuiet(IN_SHARED_WORKER ? prebuildForNextPage : null);
      }, (error) => port.postMessage({ op: "failed", error: String(error.message || error) }));
      return;
    }
    if (message.op === "leave") {
      leave();
      return;
    }
    try {
      if (!page.ready) throw new Error("the page has not asked Python to start");
      port.postMessage({ id: message.id, ok: true, result: await handle(message, page) });
    } catch (error) {
      port.postMessage({ id: message.id, ok: false, error: String(error.message || error) });
    }
    whenQuiet();
  };
}

if (IN_SHARED_WORKER) self.onconnect = (event) => serve(event.ports[0]);
else serve(self);
