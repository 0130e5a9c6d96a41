"""The Python memory snapshots the build ships (tools/snapshot.py) and how they are packed.

Uses the site in $RULES_LIB_SITE_DIR (`make test` builds it beside these tests: they wait for it),
else builds one. That a page restores its snapshot and computes as CPython does is what the browser
tests check (tests/test_browser.py, tests/hostile/test_snapshot_browser.py).
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import snapshot  # noqa: E402
from mkdocs_hooks import _LIVE_CLASS, _WIDGET_STATE  # noqa: E402
from precompile import node  # noqa: E402

from rules_lib.browser import ROLLING_MODULE, snapshot_groups  # noqa: E402

#: Pyodide's snapshot header: a magic number, then the offset of the memory (pyodide.asm.mjs, makeSnapshot)
PYODIDE_SNAPSHOT_MAGIC = 1886286592
MEMORY_JS = ROOT / "book" / "javascripts" / "python-memory.js"


def _leb(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def _sections(wasm: bytes):
    at = 8
    while at < len(wasm):
        size, body = _leb(wasm, at + 1)
        yield wasm[at], body, size
        at = body + size


def wasm_start_memory(wasm: bytes) -> int:
    """The bytes of memory a wasm module starts with (its memory section's initial pages)."""
    for section, body, _ in _sections(wasm):
        if section == 5:  # memory: count, then limits (flags, initial pages, ...)
            _, limits = _leb(wasm, body)
            return _leb(wasm, limits + 1)[0] * 65536
    raise AssertionError("the wasm declares no memory")


def data_segments(wasm: bytes) -> list[tuple[int, int, int]]:
    """[offset in memory, start in the module, length] of each active data segment, read here in Python."""
    for section, body, _ in _sections(wasm):
        if section == 11:
            count, at = _leb(wasm, body)
            segments = []
            for _ in range(count):
                assert wasm[at] == 0 and wasm[at + 1] == 0x41  # active, memory 0, i32.const
                offset, at = _leb(wasm, at + 2)
                assert wasm[at] == 0x0B
                length, at = _leb(wasm, at + 1)
                segments.append((offset, at, length))
                at += length
            return segments
    return []


def run_node(script: str, *args: str) -> str:
    executable = node()
    assert executable, "node is needed to run the site's snapshot packing (Playwright's, or Debian's nodejs)"
    done = subprocess.run([executable, "--input-type=module", "-e", script, "--", *args],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_packing_reads_the_same_data_segments_as_python_and_undoes_itself(site_dir):
    wasm_path = site_dir / "vendor" / "pyodide" / "pyodide.asm.wasm"
    shown = json.loads(run_node(f"""
        import fs from "node:fs";
        const {{ dataSegments, xorWithStartMemory }} = await import({json.dumps(MEMORY_JS.as_uri())});
        const wasm = new Uint8Array(fs.readFileSync(process.argv[1]));
        const snapshot = new Uint8Array(64 + 4 * 1024 * 1024);
        new DataView(snapshot.buffer).setUint32(4, 64, true);
        snapshot.fill(7, 64);
        const once = xorWithStartMemory(snapshot.slice(), wasm);
        const twice = xorWithStartMemory(once.slice(), wasm);
        const other = wasm.slice();
        const first = dataSegments(wasm)[0];
        let refused = false;
        other[first[1] - 3] = 0x23;  // the first segment's offset as a global.get: not read
        try {{ dataSegments(other); }} catch (error) {{ refused = true; }}
        console.log(JSON.stringify({{ segments: dataSegments(wasm), same: twice.every((b, i) => b === snapshot[i]),
                                     changed: once.some((b, i) => b !== snapshot[i]), refused }}));
    """, str(wasm_path)))
    assert [tuple(s) for s in shown["segments"]] == data_segments(wasm_path.read_bytes())
    assert shown["same"] and shown["changed"] and shown["refused"]


def test_the_manifest_names_one_checked_snapshot_a_group(site_dir):
    wheels = site_dir / "vendor" / "wheels"
    manifest = json.loads((wheels / "manifest.json").read_text())
    assert [entry["modules"] for entry in manifest["snapshots"]] == list(snapshot_groups().values())
    for entry in manifest["snapshots"]:
        packed = (wheels / entry["file"]).read_bytes()
        assert re.fullmatch(rf"{snapshot.PREFIX}[a-z0-9-]+-{hashlib.sha256(packed).hexdigest()[:16]}\.zst", entry["file"])
        assert manifest["sha256"][entry["file"]] == hashlib.sha256(packed).hexdigest()
        assert all(name.partition(":")[0] in entry["modules"] for name in entry["built"])
    # a build removes the snapshots it replaces
    assert sorted(path.name for path in wheels.glob(f"{snapshot.PREFIX}*")) == sorted(
        entry["file"] for entry in manifest["snapshots"])
    # every page with calculators has a snapshot holding all of their modules (a page without
    # calculators starts Python at a dice click: the snapshot holding the dice commands)
    pages = [path for path in site_dir.rglob("index.html") if "rules-lib-live--" in path.read_text(encoding="utf-8")]
    assert len(pages) >= 13
    for path in pages:
        state = "".join(_WIDGET_STATE.findall(path.read_text(encoding="utf-8")))  # its parts
        modules = {name.partition(":")[0] for name in _LIVE_CLASS.findall(state)}
        assert sum(modules <= set(entry["modules"]) for entry in manifest["snapshots"]) == 1, path
    assert sum(ROLLING_MODULE in entry["modules"] for entry in manifest["snapshots"]) == 1


def test_each_snapshot_is_pyodides_own_within_the_memory_its_wasm_starts_with(site_dir):
    runtime = site_dir / "vendor" / "pyodide"
    manifest = json.loads((site_dir / "vendor" / "wheels" / "manifest.json").read_text())
    files = [str(site_dir / "vendor" / "wheels" / entry["file"]) for entry in manifest["snapshots"]]
    shown = json.loads(run_node(f"""
        import fs from "node:fs";
        import zlib from "node:zlib";
        const {{ xorWithStartMemory }} = await import({json.dumps(MEMORY_JS.as_uri())});
        const [wasmPath, ...files] = process.argv.slice(1);
        const wasm = new Uint8Array(fs.readFileSync(wasmPath));
        console.log(JSON.stringify(files.map((file) => {{
            const snapshot = xorWithStartMemory(new Uint8Array(zlib.zstdDecompressSync(fs.readFileSync(file))), wasm);
            return Array.from(snapshot.subarray(0, 8)).concat([snapshot.length]);
        }})));
    """, str(runtime / "pyodide.asm.wasm"), *files))
    start_memory = wasm_start_memory((runtime / "pyodide.asm.wasm").read_bytes())
    for *head, length in shown:
        magic, header = struct.unpack("<2I", bytes(head))
        # Pyodide's own format, and no more memory than its wasm starts with (all it can restore into)
        assert magic == PYODIDE_SNAPSHOT_MAGIC and length - header == start_memory


def _runtime_not_startable(tmp_path, monkeypatch) -> Path:
    runtime = tmp_path / "pyodide"
    runtime.mkdir()
    for name in snapshot.RUNTIME_FILES:
        (runtime / name).write_bytes(b"not a runtime Node can start")
    monkeypatch.setattr(snapshot, "CACHE", tmp_path / "cache")
    return runtime


def test_without_node_there_is_no_snapshot_and_the_build_says_so(tmp_path, monkeypatch, caplog):
    runtime = _runtime_not_startable(tmp_path, monkeypatch)
    monkeypatch.setattr(snapshot, "node", lambda: None)
    with caplog.at_level(logging.WARNING):
        assert snapshot.snapshot_into(runtime, [], tmp_path) is None
    assert "no Node to make the Python snapshots" in caplog.text
    assert not list(tmp_path.glob(f"{snapshot.PREFIX}*"))


def test_a_failing_node_leaves_no_snapshot_and_says_why(tmp_path, monkeypatch, caplog):
    runtime = _runtime_not_startable(tmp_path, monkeypatch)
    with caplog.at_level(logging.WARNING):
        assert snapshot.snapshot_into(runtime, [], tmp_path) is None
    assert "making the Python snapshots failed" in caplog.text
    assert not list(tmp_path.glob(f"{snapshot.PREFIX}*")) and not list((tmp_path / "cache").rglob("*.zst"))
