// eslint-disable-next-line no-restricted-imports -- counts libxml2's parses by wrapping them; parses nothing itself
import { XmlDocument } from 'libxml2-wasm';
import { categorise, printTable, type Category, type Profile } from './cpu-profile.ts';

/** A send's parts, as the profile table names them (the deepest frame that names one wins). */
const SEND_PARTS: Category[] = [
  { name: 'TDD validation (XSD, rules)', frame: /tax-data-document\/(validate|xsd|findings)\.ts/ },
  { name: 'TDD build', frame: /tax-data-document\// },
  { name: 'MLS (build, read, validate, answer)', frame: /src\/modules\/(mls|delivery\/mls)\/|commands\/mls\// },
  { name: 'corner 5 (sandbox)', frame: /sandbox\/corner5\.ts/ },
  { name: 'SBDH write, read and checks', frame: /peppol\/(sbdh-[a-z]+|payload-xml)\.ts/ },
  { name: 'receiving side (inbound)', frame: /src\/modules\/delivery\/inbound(-read)?\.ts|sandbox\/peppol\.ts/ },
  { name: 'SAPI intake (auth, body, decider)', frame: /src\/modules\/sapi\/(auth|inbox)\/|outbound\/send\.ts|commands\/sapi\// },
  { name: 'SAPI status reads', frame: /outbound\/status\.ts/ },
  { name: 'sapi and delivery reactors, schedules', frame: /src\/modules\/sapi\/outbound\/|src\/modules\/delivery\/(reactors|schedule)\// },
  { name: 'validation pool hand-off', frame: /src\/platform\/validation\// },
  { name: 'event store (appends, reads)', frame: /src\/platform\/eventstore\/|src\/platform\/handling\// },
  { name: 'projection (read models)', frame: /src\/platform\/readmodel\/|\/projections\// },
  { name: 'followers, other reactors', frame: /src\/platform\/(reactors|schedule|followers)\/|src\/modules\/webhooks\// },
];
const LEAF_PARTS: Category[] = [
  { name: 'database driver (pg, typeorm)', frame: /node_modules\/(pg|pg-protocol|pg-types|pg-pool|postgres-[a-z]+|typeorm)\// },
  { name: 'XML libraries (leaf)', frame: /node_modules\/(@xmldom|libxml2-wasm|xpath|xml-crypto|fast-xml-parser|saxes)\// },
  { name: 'socket writes and reads (syscalls)', frame: /^(writev|writeBuffer|writeUtf8String|utf8Write|onStreamRead|utf8Slice) |stream_base_commons|node:net/ },
  { name: 'HTTP server (node:http, koa)', frame: /node:_http|node_modules\/(koa|@koa|koa-compose|co-body|raw-body)\// },
  { name: 'garbage collection', frame: /^\(garbage collector\)/ },
  { name: 'promises, timers', frame: /runMicrotasks|task_queues|node:internal\/timers/ },
];

const shortUrl = (url: string) => url.replace(/^file:\/\/.*?\/(node_modules|src|commands|projections|events|bench)\//, '$1/');

/** Top `n` by self time (the sample's leaf frame), keyed by `key`; ms per operation. */
function selfTop(profile: Profile, key: (node: Profile['nodes'][number]) => string, n: number): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const k = key(node);
    totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Top `n` project functions by inclusive time (each sample counted once per function on its stack). */
function inclusiveTop(profile: Profile, n: number): [string, number][] {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node || !/\/(src|commands|projections|events)\//.test(node.callFrame.url) || /node_modules/.test(node.callFrame.url)) continue;
      const k = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      totals.set(k, (totals.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Where a send's CPU goes on the service's main thread: by part, and the top functions by self and by inclusive time. */
export async function printSapiProfile(profile: Profile, sends: number): Promise<void> {
  if (process.env.BENCH_PROFILE_FILE) (await import('node:fs')).writeFileSync(process.env.BENCH_PROFILE_FILE, JSON.stringify(profile));
  printTable('where a send\'s CPU goes in the service (saturation and drain)', categorise(profile, SEND_PARTS, LEAF_PARTS), sends);
  const table = (title: string, rows: [string, number][]) => {
    console.log(`  ${title}:`);
    console.log('  | frame | CPU per send |');
    console.log('  |---|---|');
    for (const [name, ms] of rows) console.log(`  | ${name} | ${(ms / sends).toFixed(3)} ms |`);
  };
  table('top functions by self time', selfTop(profile, (node) => `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}`, 25));
  table('top files by self time', selfTop(profile, (node) => shortUrl(node.callFrame.url) || node.callFrame.functionName, 20));
  table('top project functions by inclusive time', inclusiveTop(profile, 40));
}

/** Counts XML parses on this process's main thread (libxml2's fromString and fromBuffer), from now on. */
export function countParses(): { report: (per: number, unit: string) => string } {
  let parses = 0;
  const counted = <A extends unknown[], R>(original: (...args: A) => R) => (...args: A): R => {
    parses++;
    return original(...args);
  };
  XmlDocument.fromString = counted(XmlDocument.fromString.bind(XmlDocument));
  XmlDocument.fromBuffer = counted(XmlDocument.fromBuffer.bind(XmlDocument));
  return { report: (per, unit) => `${'XML parses on the main thread'.padEnd(44)} ${(parses / Math.max(per, 1)).toFixed(1).padStart(7)} per ${unit}` };
}
