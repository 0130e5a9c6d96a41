// Build step (tools/precompile.py): the site's Pyodide, run in Node, compiles the modules a
// calculator page starts with (tools/precompile_in_pyodide.py).
// Usage: node precompile_stdlib.mjs <runtime folder> <stdlib out> <bytecode out> <script> <lazy modules JSON> <wheel>...
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [runtime, stdlibOut, bytecodeOut, script, lazyModules, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: runtime + path.sep });
pyodide.FS.writeFile("/tmp/stdlib-in.zip", new Uint8Array(fs.readFileSync(path.join(runtime, "python_stdlib.zip"))));
// where the worker unpacks them (live-python-worker.js), so imports resolve as on the page
for (const wheel of wheels) pyodide.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel");
pyodide.globals.set("STDLIB_IN", "/tmp/stdlib-in.zip");
pyodide.globals.set("STDLIB_OUT", "/tmp/stdlib-out.zip");
pyodide.globals.set("BYTECODE_OUT", "/tmp/bytecode-out.zip");
pyodide.globals.set("LAZY_MODULES", lazyModules);
pyodide.runPython(fs.readFileSync(script, "utf8"), { filename: path.basename(script) });
fs.writeFileSync(stdlibOut, pyodide.FS.readFile("/tmp/stdlib-out.zip"));
fs.writeFileSync(bytecodeOut, pyodide.FS.readFile("/tmp/bytecode-out.zip"));
console.log(`${pyodide.globals.get("COMPILED")} start-up modules precompiled`);
