// The service as its own process, the way an operator runs it: spawn, wait for health, stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../..', import.meta.url));

/** How the process is started: `npm start` (the compiled build), the build directly, or from source through tsx. */
export type Launch = 'npm-start' | 'compiled' | 'tsx';

/**
 * A port free now for a child process to listen on. Taken below Linux's ephemeral range (32768 and up), where the
 * kernel never hands a port to an outgoing connection: a port the kernel chose (listen on 0) could be given to any
 * client socket (a database connection of a parallel suite) before the child binds it, or while it restarts.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

/**
 * The embedded default in `dataDir` on 127.0.0.1:`port`, nothing else (no DATABASE_URL, no
 * EventStoreDB, whatever this shell has set); unless `env` names them itself: `DATABASE_URL` runs it
 * on Postgres (then give JWT_PRIVATE_KEY, WEBHOOK_SECRET_KEY and TOTP_SECRET_KEY too: there is no
 * embedded key store), `REDIS_URL` shares its rate-limit buckets through Redis.
 */
export function startService(launch: Launch, dataDir: string, port: number, env: NodeJS.ProcessEnv = {}): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete childEnv.DATABASE_URL;
  delete childEnv.EVENTSTORE_URL;
  Object.assign(childEnv, env);
  const options = { cwd: REPO, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] as ('ignore' | 'pipe')[], detached: true };
  switch (launch) {
    case 'npm-start':
      return spawn('npm', ['start', '--silent'], options);
    case 'compiled':
      return spawn(process.execPath, ['dist/src/main.js'], options);
    case 'tsx':
      return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], options);
  }
}

/** Milliseconds until GET /api/v1/health answers 200; throws after `withinMs` or when the process exits first. */
export async function healthy(child: ChildProcess, port: number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before it was healthy`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no healthy answer within ${withinMs} ms`);
}

/** SIGTERM to the process group (npm, its shell and node alike), then waits for the exit. */
export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}
