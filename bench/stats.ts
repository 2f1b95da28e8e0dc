import { readFileSync } from 'node:fs';

/** The p-th percentile (0-100) of ascending `sorted`, nearest rank; 0 for none. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The machine's CPU time counters (Linux /proc/stat, in clock ticks); null where there is none. */
function cpuTicks(): { busy: number; idle: number; steal: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/** CPU seconds all cores of the machine have been busy since boot (Linux, USER_HZ = 100); null where unknown. */
export function machineBusySeconds(): number | null {
  const ticks = cpuTicks();
  return ticks ? ticks.busy / 100 : null;
}

/**
 * Starts watching the machine's CPU; the returned function describes the time since: how busy it
 * was and how much the hypervisor took (steal). On a shared VM the steal explains most of the
 * spread between runs, so a figure without it says little.
 */
export function watchCpu(): () => string {
  const before = cpuTicks();
  return () => {
    const after = cpuTicks();
    if (!before || !after) return 'CPU: not measured on this system';
    const busy = after.busy - before.busy;
    const idle = after.idle - before.idle;
    const steal = after.steal - before.steal;
    const total = busy + idle + steal || 1;
    const pct = (n: number) => `${Math.round((100 * n) / total)} %`;
    return `CPU (all cores) while measuring: busy ${pct(busy)}, idle ${pct(idle)}, taken by the hypervisor (steal) ${pct(steal)}`;
  };
}

/** Resident memory of a process (Linux /proc/<pid>/status), in MB: now (VmRSS) and its peak so far (VmHWM); null elsewhere. */
export function residentMb(pid: number | 'self' = 'self'): { rss: number; peak: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    const rss = kb('VmRSS');
    const peak = kb('VmHWM');
    return Number.isNaN(rss) || Number.isNaN(peak) ? null : { rss: Math.round(rss / 1024), peak: Math.round(peak / 1024) };
  } catch {
    return null;
  }
}

/**
 * For a bench that runs the service in its own process: call when the service is ready (before the
 * load), then print what the returned function says after it. Resident memory is the whole
 * process's (every thread: validation workers, PGlite's), at rest = when the service was ready.
 */
export function watchMemory(pid: number | 'self' = 'self'): () => string {
  const rest = residentMb(pid);
  return () => {
    const now = residentMb(pid);
    if (!rest || !now) return 'resident memory: not measured on this system';
    return `resident memory of the service's process (all threads): at rest ${rest.rss} MB, peak ${now.peak} MB (VmHWM), after the load ${now.rss} MB`;
  };
}

/** For a bench that runs the service's parts in its own process (the validation pool): its resident memory now and at its peak. */
export function residentLine(pid: number | 'self' = 'self'): string {
  const now = residentMb(pid);
  return now ? `resident memory of this process (all threads): now ${now.rss} MB, peak ${now.peak} MB (VmHWM)` : 'resident memory: not measured on this system';
}
