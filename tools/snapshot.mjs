// Build step (tools/snapshot.py): the site's Pyodide, run in Node, started as the page's worker
// starts it (live-python-worker.js), for one snapshot group of rules_lib.browser.snapshot_groups:
// the group's modules imported and as many of its calculators built as the memory holds; that
// memory XOR-ed with the wasm's start memory (book/javascripts/python-memory.js) and zstd-compressed.
// Usage: node snapshot.mjs <runtime folder> <out folder> <group> <wheel or bytecode archive>...
// Writes <out folder>/<group>.zst and prints, as JSON, the calculators it holds built; with the
// group "--groups", prints the groups and their modules instead.
import crypto from "node:crypto";
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import zlib from "node:zlib";

const [runtime, out, group, ...archives] = process.argv.slice(2);

// The same inputs give the same snapshot (tools/snapshot.py says why this is safe for a reader):
// what Python draws from the system's randomness while the snapshot is made (its hash secret, the
// seed of the random module, uuid4's widget ids) comes from a generator seeded with the group's
// name, and the clocks (file times, time.time, time.monotonic) start from fixed values and step one
// millisecond a reading. Set before Pyodide loads, which reads them through these very functions.
function deterministicBytes(seed) {
  let counter = 0;
  let pool = Buffer.alloc(0);
  return (view) => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    while (pool.length < bytes.length) {
      const block = crypto.createHash("sha256").update(`${seed}\0${counter++}`).digest();
      pool = Buffer.concat([pool, block]);
    }
    bytes.set(pool.subarray(0, bytes.length));
    pool = pool.subarray(bytes.length);
    return view;
  };
}
function steppingClock(start) {
  let now = start;
  return () => (now += 1);
}
const randomFill = deterministicBytes(`rules_lib snapshot ${group}`);
crypto.randomFillSync = randomFill;
Object.defineProperty(globalThis.crypto, "getRandomValues", { value: randomFill });
syncBuiltinESMExports();
// 2000-01-01T00:00:00Z in milliseconds: no build's time, and in no reader's file times either
const FIXED_EPOCH_MS = 946684800000;
Date.now = steppingClock(FIXED_EPOCH_MS);
performance.now = steppingClock(0);
const here = path.dirname(fileURLToPath(import.meta.url));
const { xorWithStartMemory } = await import(pathToFileURL(path.join(here, "..", "book", "javascripts", "python-memory.js")).href);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const wasm = new Uint8Array(fs.readFileSync(path.join(runtime, "pyodide.asm.wasm")));
// zstd's level 12: 8% more bytes than its best (19), at a sixth of the time (2 s a snapshot, not 15)
const LEVEL = 12;
if (typeof zlib.zstdCompressSync !== "function") {
  console.error(`this Node (${process.version}) cannot write zstd`);
  process.exit(2);
}

async function started() {
  const pyodide = await loadPyodide({ indexURL: runtime + path.sep, _makeSnapshot: true });
  for (const archive of archives) {
    pyodide.unpackArchive(new Uint8Array(fs.readFileSync(archive)), archive.endsWith(".whl") ? "wheel" : "zip");
  }
  pyodide.runPython("import gc, json\nimport rules_lib.browser as browser");
  return pyodide;
}

function prepared(pyodide, group) {
  return JSON.parse(pyodide.runPython(`json.dumps(browser.prepare_snapshot(${JSON.stringify(group)}))`));
}

// this Pyodide restores a snapshot only into the memory its wasm starts with: build calculators
// one at a time until one makes the memory grow, then start again and build only those before it
const build = (pyodide, name) => pyodide.runPython(`browser.prebuild_calculators(${JSON.stringify(JSON.stringify([name]))})\ngc.collect()`);

async function snapshotOf(group) {
  let pyodide = python;
  const calculators = prepared(pyodide, group);
  const startMemory = pyodide._module.HEAP8.length;
  let fitting = calculators.length;
  for (const [at, name] of calculators.entries()) {
    build(pyodide, name);
    if (pyodide._module.HEAP8.length > startMemory) {
      fitting = at;
      break;
    }
  }
  if (fitting < calculators.length) {
    pyodide = await started();
    prepared(pyodide, group);
    for (const name of calculators.slice(0, fitting)) build(pyodide, name);
  }
  if (pyodide._module.HEAP8.length > startMemory) {
    throw new Error(`the ${group} snapshot would need ${pyodide._module.HEAP8.length} bytes of memory; Pyodide restores ${startMemory}`);
  }
  const snapshot = pyodide.makeMemorySnapshot();
  const packed = zlib.zstdCompressSync(xorWithStartMemory(new Uint8Array(snapshot), wasm), {
    params: { [zlib.constants.ZSTD_c_compressionLevel]: LEVEL },
  });
  // what a page will restore: undoing both steps gives exactly this memory back
  const back = xorWithStartMemory(new Uint8Array(zlib.zstdDecompressSync(packed)), wasm);
  if (back.length !== snapshot.length || !back.every((byte, at) => byte === snapshot[at])) {
    throw new Error(`the ${group} snapshot does not survive its own packing`);
  }
  fs.writeFileSync(path.join(out, `${group}.zst`), packed);
  return { built: calculators.slice(0, fitting), of: calculators.length, bytes: packed.length };
}

const python = await started();
if (group === "--groups") {
  console.log(python.runPython("json.dumps(browser.snapshot_groups())"));
} else {
  console.log(JSON.stringify(await snapshotOf(group)));
}
