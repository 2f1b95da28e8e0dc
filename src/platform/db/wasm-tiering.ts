import v8 from 'node:v8';

// The budget after PGlite's start: a WebAssembly function is optimised (TurboFan) once roughly this
// many bytes of its code have run. It is Node 20's default; Node 24's is 13,000,000 (`node
// --v8-options`), which made in-memory PGlite creates ~6 % costlier in one short bench: kept until
// a longer run says which serves a long-lived service better.
const V8_DEFAULT_BUDGET = 1_800_000;

/**
 * Runs `start` (PGlite's start) with V8's optimising of WebAssembly put off: Postgres's start runs
 * much code once (initialisation, the catalog), and optimising it cost ~1 s of CPU on V8's
 * background threads, competing with the service's start on two cores. Functions instantiated
 * meanwhile (PGlite's) are optimised after a budget 100 times larger: what stays hot in queries
 * still is, soon. The flag is process-wide; the budget above is set once `start` settles.
 */
export async function withWasmOptimisingPutOff<T>(start: () => Promise<T>): Promise<T> {
  v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_BUDGET * 100}`);
  try {
    return await start();
  } finally {
    v8.setFlagsFromString(`--wasm-tiering-budget=${V8_DEFAULT_BUDGET}`);
  }
}

/**
 * Runs `run` with every WebAssembly function V8 compiles meanwhile, except `spared` (an index in
 * that function's module), kept on its baseline code (Liftoff) for good. V8 compiles a function at
 * its first call, and Liftoff code counts towards optimising (TurboFan) only if it was compiled while
 * --wasm-tier-up-filter was unset or named it; with no `spared` it names function 0 (an import in
 * PGlite's module, never compiled). For Postgres's SQL parser (src/platform/db/embedded-server.ts).
 * The flag is process-wide, so `run` is one short statement.
 */
export async function withWasmTierUpOnlyFor<T>(spared: number | undefined, run: () => Promise<T>): Promise<T> {
  v8.setFlagsFromString(`--wasm-tier-up-filter=${spared ?? 0}`);
  try {
    return await run();
  } finally {
    v8.setFlagsFromString('--wasm-tier-up-filter=-1');
  }
}
