// `npm run campaign -- fuzz [--quick] [--seed N] [--db pglite,postgres] [--cases N] [--concurrency N] [--only TEXT] [--shard K/N]`
//
// Every route of both doors (native /api/v1 and /sapi, as the router holds them) fuzzed with
// seeded cases: bodies from the request schemas (fast-check and the schema walker) and mutated,
// headers and path ids fuzzed. The service runs in this process on a real socket (so prototype
// pollution is seen), without its own response check (so answers are what a deployed service
// sends), on a fresh database of each kind asked for.
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { findingLines, fuzzRoutes, refusalLine, routeLine, type FuzzRun } from '../support/fuzz/drive.ts';
import { startCampaignService } from '../support/in-process-service.ts';
import { seedDemoOrganisation } from '../support/world.ts';
import { WebhookReceiver } from '../../test/support/webhook-receiver.ts';

const FULL = 10_000;
const QUICK = 300;

function numberArg(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  const n = i >= 0 ? Number(args[i + 1]) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** `--shard K/N`: one of N runs that share the routes out (each process fuzzes on one core). */
function shardArg(args: string[]): { index: number; count: number } | undefined {
  const i = args.indexOf('--shard');
  if (i < 0) return undefined;
  const given = /^(\d+)\/(\d+)$/.exec(args[i + 1] ?? '');
  const [index, count] = [Number(given?.[1]), Number(given?.[2])];
  if (!given || index < 1 || index > count) throw new Error(`--shard takes K/N with 1 <= K <= N, not ${args[i + 1]}`);
  return { index, count };
}

/** The figures of one database's run: totals with targets, and every route that missed one. */
export function fuzzFigures(run: FuzzRun, scope: string): Figure[] {
  const sum = (bucket: keyof FuzzRun['routes'][number]['counts']) => run.routes.reduce((n, t) => n + t.counts[bucket], 0);
  const requests = run.routes.reduce((n, t) => n + t.requests, 0);
  const figures: Figure[] = [
    { scope, name: 'routes fuzzed / registered', value: `${run.routes.length} / ${run.registered}`, target: 'equal', ok: run.routes.length === run.registered },
    { scope, name: 'routes without a generator or id', value: run.uncovered.length, target: '0', ok: run.uncovered.length === 0 },
    { scope, name: 'requests', value: requests },
    { scope, name: 'requests per route', value: run.perRoute },
    { scope, name: '5xx or no answer', value: sum('5xx'), target: '0', ok: sum('5xx') === 0 },
    { scope, name: 'answers breaking their documented schema', value: sum('schema'), target: '0', ok: sum('schema') === 0 },
    { scope, name: 'prototype pollution', value: sum('pollution'), target: '0', ok: sum('pollution') === 0 },
    { scope, name: 'other findings (bad text accepted, oversized error)', value: sum('other'), target: '0', ok: sum('other') === 0 },
    { scope, name: 'events parked by a projector or reactor', value: run.followers.parked.length, target: '0', ok: run.followers.parked.length === 0 },
    { scope, name: 'followers caught up after the run', value: run.followers.caughtUp ? 'yes' : 'no', target: 'yes', ok: run.followers.caughtUp },
    { scope, name: 'seconds', value: Math.round(run.seconds) },
  ];
  for (const t of run.routes) {
    for (const [bucket, n] of Object.entries(t.counts)) {
      if (n > 0) figures.push({ scope: `${scope} ${t.label}`, name: bucket === '5xx' ? '5xx or no answer' : bucket === 'schema' ? 'schema breaks' : bucket, value: n, target: '0', ok: false });
    }
  }
  return figures;
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const started = new Date();
  const perRoute = numberArg(options.args, '--cases') ?? (options.quick ? QUICK : FULL);
  const concurrency = numberArg(options.args, '--concurrency') ?? 4;
  const onlyAt = options.args.indexOf('--only');
  const only = onlyAt >= 0 ? options.args[onlyAt + 1] : undefined;
  const shard = shardArg(options.args);
  const figures: Figure[] = [];
  const notes: string[] = [`seed ${options.seed}, ${perRoute} requests per route, ${concurrency} in flight${only ? `, only routes containing "${only}"` : ''}${shard ? `, shard ${shard.index}/${shard.count} (every ${shard.count}th route of the router's order, from its ${shard.index}th)` : ''}; service in this process over a real socket (127.0.0.1), response self-check off`];
  for (const database of options.databases) {
    const svc = await startCampaignService(database);
    const receiver = await WebhookReceiver.start({ record: false });
    try {
      const world = await seedDemoOrganisation(svc, receiver.url());
      console.log(`[fuzz ${database}] seeded; fuzzing ${perRoute} requests per route (seed ${options.seed})`);
      const result = await fuzzRoutes(svc, world, { companyId: svc.demo.second_organisation.company_id }, {
        seed: options.seed, perRoute, concurrency, only, shard,
        onRoute: (t, i, total) => console.log(`[fuzz ${database}] ${i + 1}/${total} ${routeLine(t)}`),
      });
      figures.push(...fuzzFigures(result, database));
      notes.push(`== ${database}: status histogram per route`, ...result.routes.map(routeLine));
      notes.push(`== ${database}: most frequent refusals per route`, ...result.routes.map((t) => refusalLine(t)));
      if (result.uncovered.length > 0) notes.push(`== ${database}: uncovered`, ...result.uncovered);
      const findings = findingLines(result);
      if (findings.length > 0) notes.push(`== ${database}: findings (first of each)`, ...findings);
    } finally {
      await receiver.close();
      await svc.close();
    }
  }
  for (const n of notes.filter((l) => l.startsWith('== ') || l.includes('FINDINGS') || l.includes(' · '))) console.log(n);
  return { name: 'fuzz', seed: options.seed, startedAt: started.toISOString(), seconds: (Date.now() - started.getTime()) / 1000, figures, notes };
}
