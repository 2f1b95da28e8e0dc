import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat; 0 when it is gone. */
function procCpuSeconds(pid: string): number {
  try {
    // the command name (field 2) may hold spaces: the fields after it start past the last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in USER_HZ (100)
  } catch {
    return 0;
  }
}

/** The Postgres backends serving `database` now (their process titles name it). */
function backendsOf(database: string): string[] {
  const pids: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.split(' ').includes(database)) pids.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface CpuShare {
  /** this process (the service under test, all its threads) */
  service: number;
  /** the Postgres backends connected to the bench's database (0 on PGlite, which runs inside the service) */
  postgres: number;
}

/**
 * Starts counting the CPU the service (this process) and its database's Postgres backends use;
 * the returned function gives the seconds since. Unlike the machine's busy share, it is not
 * inflated by whatever else runs on the machine, so a figure per operation compares across runs.
 */
export function watchServiceCpu(databaseUrl: string): () => CpuShare {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  const self = process.cpuUsage();
  const backends = new Map(backendsOf(database).map((pid) => [pid, procCpuSeconds(pid)]));
  return () => {
    const used = process.cpuUsage(self);
    let postgres = 0;
    for (const pid of new Set([...backends.keys(), ...backendsOf(database)])) postgres += procCpuSeconds(pid) - (backends.get(pid) ?? 0);
    return { service: (used.user + used.system) / 1e6, postgres };
  };
}
