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
