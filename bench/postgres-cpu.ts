// The CPU time of the Postgres server processes that serve one database (its backends), read from
// /proc: on a machine shared with other work, the whole machine's busy time is not the bench's, but
// the service's process, its clients' and these backends are.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';

const LOCAL = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** utime + stime of a process in ms; null when /proc does not show it (gone, or not this machine's). */
function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ = 100
  } catch {
    return null;
  }
}

async function backends(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const rows = (await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows;
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/**
 * Starts counting the CPU of the database's backends on a Postgres server of this machine; the
 * returned function gives the ms they used since (a backend opened meanwhile counts from its start,
 * one closed meanwhile is lost). Null when the server is elsewhere or /proc cannot show it.
 */
export async function postgresBackendCpu(databaseUrl: string): Promise<(() => Promise<number>) | null> {
  if (os.platform() !== 'linux' || !LOCAL.has(new URL(databaseUrl).hostname)) return null;
  const before = new Map<number, number>();
  for (const pid of await backends(databaseUrl)) {
    const cpu = processCpuMs(pid);
    if (cpu !== null) before.set(pid, cpu);
  }
  if (before.size === 0) return null;
  return async () => {
    let used = 0;
    for (const pid of await backends(databaseUrl)) used += (processCpuMs(pid) ?? 0) - (before.get(pid) ?? 0);
    return used;
  };
}
