import { closeSync, openSync, readSync } from 'node:fs';

/** An unsigned LEB128 number at `at` in `bytes`, and how many bytes it took. */
function uleb(bytes: Uint8Array, at: number): { value: number; length: number } {
  let value = 0;
  for (let length = 0; at + length < bytes.length; length++) {
    const byte = bytes[at + length] as number;
    value += (byte & 0x7f) * 2 ** (7 * length);
    if ((byte & 0x80) === 0) return { value, length: length + 1 };
  }
  throw new Error('a WebAssembly number runs past its section');
}

/** In an export section's bytes: the index of the function exported as `name`. */
function functionExport(section: Uint8Array, name: string): number | undefined {
  const wanted = new TextEncoder().encode(name);
  const count = uleb(section, 0);
  let at = count.length;
  for (let i = 0; i < count.value; i++) {
    const size = uleb(section, at);
    const nameStart = at + size.length;
    at = nameStart + size.value;
    const kind = section[at];
    const index = uleb(section, at + 1);
    at += 1 + index.length;
    if (kind === 0 && size.value === wanted.length && wanted.every((byte, k) => section[nameStart + k] === byte)) return index.value;
  }
  return undefined;
}

/**
 * The index V8 gives the function a WebAssembly binary exports as `name` (imports counted first, as
 * in the export section), or undefined. Reads the sections' headers and the export section only,
 * not the whole file (PGlite's is 9 MB).
 */
export function exportedFunctionIndex(file: string | URL, name: string): number | undefined {
  const fd = openSync(file, 'r');
  try {
    const read = (position: number, length: number) => {
      const bytes = new Uint8Array(length);
      return bytes.subarray(0, readSync(fd, bytes, 0, length, position));
    };
    // past the magic number and the version, sections: an id, a size, the contents
    for (let position = 8; ; ) {
      const head = read(position, 6);
      if (head.length < 2) return undefined;
      const size = uleb(head, 1);
      const contents = position + 1 + size.length;
      if (head[0] === 7) return functionExport(read(contents, size.value), name);
      position = contents + size.value;
    }
  } finally {
    closeSync(fd);
  }
}
