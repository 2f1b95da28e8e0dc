import v8 from 'node:v8';

// V8's own value (Node 20 and 22): a WebAssembly function is optimised (TurboFan) once roughly this
// many bytes of its code have run.
const V8_DEFAULT_BUDGET = 1_800_000;

/**
 * Runs `start` (PGlite's start) with V8's optimising of WebAssembly put off: Postgres's start runs
 * much code once (initialisation, the catalog), and optimising it cost ~1 s of CPU on V8's
 * background threads, competing with the service's start on two cores. Functions instantiated
 * meanwhile (PGlite's) are optimised after a budget 100 times larger: what stays hot in queries
 * still is, soon. The flag is process-wide; V8's default is back once `start` settles.
 */
export async function withWasmOptimisingPutOff<T>(start: () => Promise<T>): Promise<T> {
  v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_BUDGET * 100}`);
  try {
    return await start();
  } finally {
    v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_BUDGET}`);
  }
}
