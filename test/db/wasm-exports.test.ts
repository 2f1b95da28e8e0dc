import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGLITE_WASM } from '../../src/platform/db/embedded-server.ts';
import { exportedFunctionIndex } from '../../src/platform/db/wasm-exports.ts';

// (module (import "m" "f" (func)) (func (export "first")) (func (export "second"))), assembled by hand:
// an imported function takes index 0, so the defined ones are 1 and 2
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // types: () -> ()
  0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x66, 0x00, 0x00, // import m.f
  0x03, 0x03, 0x02, 0x00, 0x00, // two functions
  0x07, 0x12, 0x02, 0x05, ...new TextEncoder().encode('first'), 0x00, 0x01, 0x06, ...new TextEncoder().encode('second'), 0x00, 0x02,
  0x0a, 0x07, 0x02, 0x02, 0x00, 0x0b, 0x02, 0x00, 0x0b, // two empty bodies
]);

describe('exportedFunctionIndex (a WebAssembly export section read from the file)', () => {
  let dir: string;
  let file: string;
  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'wasm-exports-'));
    file = path.join(dir, 'module.wasm');
    await writeFile(file, MODULE);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('gives the index V8 gives the exported function, imports counted first', () => {
    expect(WebAssembly.validate(MODULE)).to.equal(true);
    expect(exportedFunctionIndex(file, 'first')).to.equal(1);
    expect(exportedFunctionIndex(file, 'second')).to.equal(2);
  });

  it('gives nothing for a name not exported', () => {
    expect(exportedFunctionIndex(file, 'third')).to.equal(undefined);
    expect(exportedFunctionIndex(file, 'firs')).to.equal(undefined);
  });

  it("finds PGlite's scanner, the function embedded-server.ts spares", () => {
    expect(exportedFunctionIndex(PGLITE_WASM, 'core_yylex')).to.be.a('number');
  });
});
