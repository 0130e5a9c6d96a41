/*
 * Python's memory snapshot as the build ships it and the worker restores it (tools/snapshot.py,
 * live-python-worker.js): Pyodide's own snapshot (a header, then the wasm memory), with the memory
 * XOR-ed with the memory the wasm module starts with, then zstd-compressed.
 *
 * A fresh instance's memory holds the module's data segments (3.2 MB, CPython's static data); most
 * of them are still unchanged in a snapshot. XOR-ed with them, those bytes become zeros, and the
 * compressed snapshot is a quarter smaller. The same function undoes it (XOR is its own inverse),
 * here and in the build, so the two cannot disagree.
 */

// The active data segments of a wasm module: [offset in memory, start in the module, length].
// Only the form this Pyodide's main module uses is read (flag 0, an i32.const offset); any other
// is refused, so a new runtime fails loudly at build time instead of restoring wrong memory.
// an unsigned LEB128 number of at most 32 bits at ``at``: [value, the position after it]
function uleb(bytes, at) {
  let value = 0;
  let shift = 0;
  let byte;
  do {
    byte = bytes[at];
    at += 1;
    value |= (byte & 0x7f) << shift;
    shift += 7;
  } while (byte & 0x80 && shift < 35);
  return [value >>> 0, at];
}

export function dataSegments(wasm) {
  if (wasm[0] !== 0 || wasm[1] !== 0x61 || wasm[2] !== 0x73 || wasm[3] !== 0x6d) throw new Error("not a wasm module");
  let at = 8;
  while (at < wasm.length) {
    const section = wasm[at];
    const [size, body] = uleb(wasm, at + 1);
    if (section === 11) {
      const segments = [];
      let [count, next] = uleb(wasm, body);
      for (; count > 0; count--) {
        // flag 0: an active segment of memory 0; its offset an i32.const (0x41) ... end (0x0b)
        if (wasm[next] !== 0 || wasm[next + 1] !== 0x41) throw new Error("a data segment of a form the snapshot does not read");
        const [offset, afterOffset] = uleb(wasm, next + 2);
        if (wasm[afterOffset] !== 0x0b) throw new Error("a data segment offset of a form the snapshot does not read");
        const [length, start] = uleb(wasm, afterOffset + 1);
        segments.push([offset, start, length]);
        next = start + length;
      }
      if (next !== body + size) throw new Error("the data section is not as long as its segments");
      return segments;
    }
    at = body + size;
  }
  return [];
}

// XOR the memory part of a Pyodide snapshot with the wasm's data segments, in place.
export function xorWithStartMemory(snapshot, wasm) {
  const memoryAt = new DataView(snapshot.buffer, snapshot.byteOffset, 8).getUint32(4, true);
  const memory = snapshot.subarray(memoryAt);
  for (const [offset, start, length] of dataSegments(wasm)) {
    if (offset + length > memory.length) throw new Error("a data segment lies outside the snapshot's memory");
    for (let index = 0; index < length; index++) memory[offset + index] ^= wasm[start + index];
  }
  return snapshot;
}
