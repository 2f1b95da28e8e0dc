import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Which instance runs a follower (a projector or a reactor) when several service processes share
 * one database: the one holding the follower's lease. The others keep still for it (projectors
 * take its positions from the feed, follower-feed.ts) and try again every `retryMs`, so when the
 * holder dies another takes over within about that long.
 *
 * The lease is a session-level Postgres advisory lock (`pg_try_advisory_lock`) held on a
 * connection of its own, not a lease row with a heartbeat: Postgres ends the lock with the
 * session, so a holder killed with -9 frees its followers the moment the server sees its socket
 * close (at once on one machine; over a network, when TCP keepalive gives up), and nothing has to
 * guess from a clock whether a holder is still alive. A holder that loses its connection stops at
 * once: `held` turns false before the next batch. Two holders never run at the same time while
 * Postgres keeps the session; the only overlap is a batch already under way when the connection
 * broke, which the followers make harmless (a projector's checkpoint moves only from where it was,
 * projection-runner.ts; reactions are idempotent by event id).
 *
 * On PGlite one process owns the files, so every lease is held (`SOLE_INSTANCE`).
 */
export interface FollowerLeases {
  /** whether this instance holds the follower's lease now: ask before every batch */
  held(name: string): boolean;
  /**
   * Asks for the follower's lease (kept asking for from now on) and resolves true as soon as this
   * instance holds it, or false after `ms` (the caller checks whether it should still wait).
   */
  wait(name: string, ms: number): Promise<boolean>;
  /** what this instance holds now (status, tests) */
  holding(): string[];
  close(): Promise<void>;
}

/** One process on the database (PGlite): it holds every lease. */
export const SOLE_INSTANCE: FollowerLeases = {
  held: () => true,
  wait: async () => true,
  holding: () => [],
  close: async () => {},
};

/** The advisory-lock key space of follower leases (the first half of the two-int key); the second is hashtext(name). */
export const LEASE_LOCK_SPACE = 0x5f4c5345; // '_LSE'

interface AdvisoryLeaseOptions {
  url: string;
  log: Logger;
  /** how often a lease not held is tried again, and the holder's connection checked (default 500 ms) */
  retryMs?: number;
  /** a lease query unanswered for this long counts as a lost connection (default 5 s) */
  queryTimeoutMs?: number;
}

/**
 * Leases as advisory locks on one dedicated connection, reconnected when lost. The connection's
 * application_name is `svc-follower-leases:<pid>`, so pg_stat_activity shows which process holds
 * what (the scale campaign times a lease's move with it).
 */
export function advisoryLeases(options: AdvisoryLeaseOptions): FollowerLeases {
  const retryMs = options.retryMs ?? 500;
  const timeoutMs = options.queryTimeoutMs ?? 5_000;
  const wanted = new Set<string>();
  const held = new Set<string>();
  const waiters = new Map<string, Set<() => void>>();
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const drop = (connection: pg.Client, error?: unknown) => {
    if (client !== connection) return;
    client = null;
    if (held.size > 0) options.log.warn({ err: error, leases: [...held] }, 'follower lease connection lost: its followers stop here until a lease is held again');
    held.clear();
    void connection.end().catch(() => {});
  };

  async function connect(): Promise<pg.Client> {
    const connection = new pg.Client({ connectionString: options.url, keepAlive: true, application_name: `svc-follower-leases:${process.pid}` });
    connection.on('error', (error) => drop(connection, error));
    connection.on('end', () => drop(connection, new Error('connection ended')));
    client = connection;
    try {
      await withTimeout(connection.connect(), timeoutMs);
    } catch (error) {
      drop(connection, error);
      throw error;
    }
    return connection;
  }

  /** One round: try every lease wanted and not held (an empty try checks that the connection lives). */
  async function round(): Promise<void> {
    const connection = client ?? (await connect());
    const names = [...wanted].filter((n) => !held.has(n));
    try {
      const { rows } = await withTimeout(
        connection.query<{ name: string; ok: boolean }>('SELECT n AS name, pg_try_advisory_lock($1::int, hashtext(n)) AS ok FROM unnest($2::text[]) AS n', [LEASE_LOCK_SPACE, names]),
        timeoutMs,
      );
      if (client !== connection) return; // lost meanwhile: what it took went with the session
      for (const row of rows) {
        if (!row.ok) continue;
        held.add(row.name);
        for (const wake of waiters.get(row.name) ?? []) wake();
      }
    } catch (error) {
      drop(connection, error);
    }
  }

  let busy = false;
  let again = false;
  /** runs a round now (after the one under way, if any), then one every retryMs */
  function kick(): void {
    if (closed) return;
    if (busy) {
      again = true;
      return;
    }
    clearTimeout(timer);
    busy = true;
    running = round()
      .catch((error: unknown) => options.log.debug({ err: error }, 'follower leases: database not reachable'))
      .finally(() => {
        busy = false;
        if (closed) return;
        if (again) {
          again = false;
          kick();
        } else {
          timer = setTimeout(kick, retryMs);
          timer.unref();
        }
      });
  }
  kick();

  return {
    held: (name) => held.has(name),
    async wait(name, ms) {
      if (held.has(name)) return true;
      if (!wanted.has(name)) {
        wanted.add(name);
        kick(); // a new follower asks at once, not after the next round
      }
      return new Promise<boolean>((resolve) => {
        const set = waiters.get(name) ?? new Set();
        waiters.set(name, set);
        const done = (ok: boolean) => {
          clearTimeout(expiry);
          set.delete(wake);
          resolve(ok);
        };
        const wake = () => done(true);
        const expiry = setTimeout(() => done(held.has(name)), ms);
        set.add(wake);
      });
    },
    holding: () => [...held],
    async close() {
      closed = true;
      clearTimeout(timer);
      await running?.catch(() => {});
      const connection = client;
      client = null;
      held.clear();
      // ending the session frees every lease at once: another instance takes over in one round
      await connection?.end().catch(() => {});
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`follower lease query unanswered after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
