"""The worker stores Python's snapshot memory without its pages of zeros (live-python-worker.js);
node runs the worker's own packing functions: what is stored unpacks to exactly the memory, and a
stored entry that is not one the worker wrote is refused rather than half-read.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKER = ROOT / "book" / "javascripts" / "live-python-worker.js"
FIRST, AFTER = "const PAGE = 4096;", "// the memory a page before this one stored"

CHECKS = r"""
const page = 4096;
function memoryOf(length, filled) {
  const memory = new Uint8Array(length);
  for (const index of filled) memory.fill(index % 251 + 1, index * page, Math.min(length, (index + 1) * page));
  return memory;
}
async function packed(memory) { return new Uint8Array(await withoutZeroPages(memory).arrayBuffer()); }
function refused(bytes) { try { withZeroPages(bytes); return false; } catch (error) { return true; } }
(async () => {
  const results = {};
  const cases = {
    all_zeros: memoryOf(8 * page, []),
    no_zeros: memoryOf(3 * page, [0, 1, 2]),
    mixed: memoryOf(10 * page, [0, 3, 4, 9]),
    ragged_end: memoryOf(5 * page + 100, [1, 5]),
    one_byte: (() => { const m = new Uint8Array(2 * page); m[page + 4095] = 7; return m; })(),
  };
  for (const [name, memory] of Object.entries(cases)) {
    const bytes = await packed(memory);
    const back = withZeroPages(bytes);
    results[name] = { same: back.length === memory.length && back.every((b, i) => b === memory[i]),
                      stored: bytes.length, memory: memory.length };
  }
  const good = await packed(cases.mixed);
  const header = (length, size, count) => { const b = good.slice(); new Uint32Array(b.buffer, 0, 3).set([length, size, count]); return b; };
  results.refused = {
    truncated: refused(good.subarray(0, good.length - 1)),
    extra_byte: refused(new Uint8Array([...good, 0])),
    other_page_size: refused(header(10 * page, 8192, 5)),
    count_not_length: refused(header(10 * page, page, 11)),
    too_large: refused(header(2 ** 31, page, 2 ** 31 / page)),
    flag_without_page: refused((() => { const b = good.slice(); b[12 + 1] = 1; return b; })()),
  };
  console.log(JSON.stringify(results));
})();
"""


def _run_packing_checks() -> dict:
    node = shutil.which("node")
    assert node, "node is needed to run the worker's packing functions (Debian package nodejs)"
    source = WORKER.read_text(encoding="utf-8")
    start, end = source.index(FIRST), source.index(AFTER)
    done = subprocess.run([node, "-e", source[start:end] + CHECKS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_stored_memory_unpacks_to_exactly_the_memory_and_leaves_out_pages_of_zeros():
    results = _run_packing_checks()
    for name in ("all_zeros", "no_zeros", "mixed", "ragged_end", "one_byte"):
        assert results[name]["same"], name
    header_and_flags = lambda pages: 12 + pages  # noqa: E731
    assert results["all_zeros"]["stored"] == header_and_flags(8)
    assert results["mixed"]["stored"] == header_and_flags(10) + 4 * 4096
    assert results["ragged_end"]["stored"] == header_and_flags(6) + 4096 + 100


def test_a_stored_entry_the_worker_did_not_write_is_refused():
    refused = _run_packing_checks()["refused"]
    assert refused == {name: True for name in refused}, refused
    assert len(refused) == 6
