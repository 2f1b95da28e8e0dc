import { postgresBackendCpu } from './postgres-cpu.ts';

/** Starts counting this process's CPU time (all its threads: the validation pool's too); the returned function gives the ms since. */
export function processCpu(): () => number {
  const before = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000;
  };
}

export interface CpuShare {
  /** this process (the service under test, all its threads), seconds */
  service: number;
  /** the Postgres backends of the bench's database, seconds (0 on PGlite, which runs inside the service) */
  postgres: number;
}

/**
 * Starts counting the CPU the service (this process) and its database's Postgres backends use
 * (`postgresUrl`: null on PGlite, whose backend is inside the service);
 * the returned function gives the seconds since. Unlike the machine's busy share, it is not
 * inflated by whatever else runs on the machine, so a figure per operation compares across runs.
 */
export async function watchServiceCpu(postgresUrl: string | null): Promise<() => Promise<CpuShare>> {
  const service = processCpu();
  const backends = postgresUrl ? await postgresBackendCpu(postgresUrl).catch(() => null) : null;
  return async () => ({ service: service() / 1000, postgres: backends ? (await backends()) / 1000 : 0 });
}
