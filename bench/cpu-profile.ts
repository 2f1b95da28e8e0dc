import { Session } from 'node:inspector/promises';

/** A V8 CPU profile as the inspector gives it (the parts read here). */
export interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Where a sample's time goes: the deepest frame on its stack that one of `owners` names (a part of
 * the request's own work, e.g. the decider), else what its leaf frame is (driver, sockets, GC).
 * Async work loses its caller in a CPU profile: a driver parsing a query's answer runs from the
 * socket, not from the command that asked, so that time shows under the driver, not the command.
 */
export interface Category {
  name: string;
  /** matched against `functionName url` of a frame */
  frame: RegExp;
}

const frameText = (node: Profile['nodes'][number]) => `${node.callFrame.functionName} ${node.callFrame.url}`;

/** Milliseconds of CPU per category (and 'idle', which also takes the profiler's own work, and 'other'), from a profile. */
export function categorise(profile: Profile, owners: readonly Category[], leaves: readonly Category[]): Map<string, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const categoryOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = categoryOf.get(id);
    if (known) return known;
    const leaf = byId.get(id);
    let found: string | undefined;
    for (let at: number | undefined = id; at !== undefined && !found; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) found = owners.find((c) => c.frame.test(frameText(node)))?.name;
    }
    if (!found && leaf) {
      const text = frameText(leaf);
      found = text.startsWith('(idle)') ? 'idle' : (leaves.find((c) => c.frame.test(text))?.name ?? 'other');
    }
    // the profiler's own work (stopping it serialises the profile) is not the service's
    for (let at: number | undefined = id; at !== undefined && found !== 'idle'; at = parent.get(at)) {
      if (byId.get(at)?.callFrame.url === 'node:inspector') found = 'idle';
    }
    categoryOf.set(id, found ?? 'other');
    return found ?? 'other';
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = classify(id);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

/** Profiles this process's main thread while `work` runs. */
export async function profiled<T>(work: () => Promise<T>): Promise<{ result: T; profile: Profile }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const result = await work();
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    return { result, profile };
  } finally {
    session.disconnect();
  }
}

/** The table: each category's CPU per operation and its share of the busy time, busiest first. */
export function printTable(title: string, totals: Map<string, number>, operations: number): void {
  const busy = [...totals].filter(([name]) => name !== 'idle').reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`  ${title} (main thread, ${operations} operations, ${(busy / operations).toFixed(3)} ms busy per operation):`);
  console.log('  | part | CPU per operation | share |');
  console.log('  |---|---|---|');
  for (const [name, ms] of [...totals].filter(([n]) => n !== 'idle').sort((a, b) => b[1] - a[1])) {
    console.log(`  | ${name} | ${(ms / operations).toFixed(3)} ms | ${((100 * ms) / busy).toFixed(1)} % |`);
  }
}
