// Build step (tools/snapshot.py): the site's Pyodide, run in Node, started as the page's worker
// starts it (live-python-worker.js), every calculator module imported and as many calculators
// built as its memory holds; that memory, gzipped.
// Usage: node snapshot.mjs <runtime folder> <snapshot out> <wheel or bytecode archive>...
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const [runtime, out, ...archives] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);

async function started() {
  const pyodide = await loadPyodide({ indexURL: runtime + path.sep, _makeSnapshot: true });
  for (const archive of archives) {
    pyodide.unpackArchive(new Uint8Array(fs.readFileSync(archive)), archive.endsWith(".whl") ? "wheel" : "zip");
  }
  const calculators = JSON.parse(pyodide.runPython(
    "import gc, json\nimport rules_lib.browser as browser\njson.dumps(browser.prepare_snapshot())"));
  return { pyodide, calculators };
}

// this Pyodide restores a snapshot only into the memory its wasm starts with: build calculators
// one at a time until one makes the memory grow, then start again and build only those before it
const build = (pyodide, name) => pyodide.runPython(`browser.prebuild_calculators(${JSON.stringify(JSON.stringify([name]))})\ngc.collect()`);
let { pyodide, calculators } = await started();
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
  ({ pyodide } = await started());
  for (const name of calculators.slice(0, fitting)) build(pyodide, name);
}
if (pyodide._module.HEAP8.length > startMemory) {
  console.error(`the snapshot would need ${pyodide._module.HEAP8.length} bytes of memory; Pyodide restores ${startMemory}`);
  process.exit(2);
}
const snapshot = pyodide.makeMemorySnapshot();
fs.writeFileSync(out, zlib.gzipSync(snapshot, { level: 9 }));
console.log(`snapshot of ${snapshot.length} bytes, ${fitting} of ${calculators.length} calculators built: ` +
  calculators.slice(0, fitting).join(", "));
