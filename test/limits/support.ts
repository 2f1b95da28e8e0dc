import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { capturingLogger as captureLines } from '../api/support/http.ts';

export { listen } from '../api/support/http.ts';

/** The shared capturing logger, plus the warnings among its lines (pino level 40). */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[]; warnings(): Record<string, unknown>[] } {
  const { logger, lines } = captureLines();
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

export const hasRedisServer = () => !spawnSync('redis-server', ['--version']).error;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function answers(url: string, timeoutMs: number): Promise<boolean> {
  const probe = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 500, retryStrategy: () => null });
  probe.on('error', () => {});
  const until = Date.now() + timeoutMs;
  try {
    while (Date.now() < until) {
      try {
        if (probe.status !== 'ready') await probe.connect();
        if ((await probe.ping()) === 'PONG') return true;
      } catch {
        probe.disconnect();
        await sleep(50);
      }
    }
    return false;
  } finally {
    probe.disconnect();
  }
}

/** A redis-server of our own, which a test may stop and start again on the same port. */
export class OwnRedis {
  private child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    if (!(await answers(this.url, 10_000))) throw new Error(`redis-server on port ${this.port} did not start`);
  }

  /** SIGKILL, like a crash: no goodbye to the clients. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** Freezes or thaws the server: connections stay open but nothing is answered. */
  pause(paused: boolean): void {
    this.child?.kill(paused ? 'SIGSTOP' : 'SIGCONT');
  }
}

/** The machine's Redis (REDIS_URL or 127.0.0.1:6379); if none answers, one of our own. */
export async function sharedRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await answers(url, 1000)) return { url, stop: async () => {} };
  const own = await OwnRedis.start();
  return { url: own.url, stop: () => own.kill() };
}
