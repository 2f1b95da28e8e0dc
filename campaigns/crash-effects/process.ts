// The service as a separate process for the crash-effects campaign: the compiled build
// (`node dist/src/main.js`, what `npm start` runs) with the campaign's environment, restarted after every kill. A kill by the fault hook shows as an exit by
// SIGKILL; the hook's own line (FAULT_KILL_LOG) says after which effect.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  /** resolves with the signal or exit code when the process ends */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm run build` (tsc -b, incremental): a restart then compiles nothing. */
export function build(): void {
  const built = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`npm run build failed: ${built.stdout}${built.stderr}`);
}

/** The compiled CLI (`npm run cli -- …` from the build), run to its end. */
export function cli(args: string[], env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const ran = spawnSync(process.execPath, ['dist/src/cli.js', ...args], { cwd: REPO, env: childEnv, encoding: 'utf8' });
  return { status: ran.status, output: `${ran.stdout}${ran.stderr}` };
}

export function spawnService(env: NodeJS.ProcessEnv, logFile: string): ServiceProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete childEnv[k];
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: REPO, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const log: WriteStream = createWriteStream(logFile, { flags: 'a' });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => {
    log.end();
    resolve({ code, signal });
  }));
  return { child, exited };
}

/** Milliseconds until GET /api/v1/health answers 200; throws when the process exits first or after `withinMs`. */
export async function healthy(service: ServiceProcess, port: number, withinMs = 180_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (service.child.exitCode !== null || service.child.signalCode !== null) throw new Error(`the service exited (${service.child.exitCode ?? service.child.signalCode}) before it was healthy`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no healthy answer within ${withinMs} ms`);
}

/** SIGTERM to this process (ours, by its id), then waits for its exit. */
export async function stopService(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null || service.child.pid === undefined) return;
  process.kill(service.child.pid, 'SIGTERM');
  const timer = setTimeout(() => service.child.pid && process.kill(service.child.pid, 'SIGKILL'), 60_000);
  await service.exited;
  clearTimeout(timer);
}
