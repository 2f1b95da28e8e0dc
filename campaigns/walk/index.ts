// `npm run campaign -- walk [--db pglite,postgres]`
//
// Organisation B (the demo's second organisation) on every route of both doors, with its API key,
// a user's JWT and a SAPI token, against organisation A's resources (the demo organisation, one
// of everything made first), on a fresh database of each kind. Webhooks of both organisations
// point at loopback receivers: A's events must reach A's and never B's. The service runs in this
// process on a real socket.
import type { CampaignOptions, CampaignReport, Figure } from '../report.ts';
import { startCampaignService } from '../support/in-process-service.ts';
import { seedDemoOrganisation, seedSecondOrganisation } from '../support/world.ts';
import { WebhookReceiver } from '../../test/support/webhook-receiver.ts';
import { walkLine, walkRoutes, type WalkResult } from './walk.ts';
import { crossDeliveries } from './webhooks.ts';

export function walkFigures(result: WalkResult, hooks: { toB: number; toA: number; arrivalsAtB: number }, scope: string): Figure[] {
  const count = (verdict: string) => result.calls.filter((c) => c.verdict === verdict).length;
  const leaks = result.calls.filter((c) => c.leaked.length > 0).length;
  return [
    { scope, name: 'routes walked / registered', value: `${result.walked} / ${result.registered}`, target: 'equal', ok: result.walked === result.registered },
    { scope, name: 'routes without an id of A or a sample body', value: result.unwalked.length, target: '0', ok: result.unwalked.length === 0 },
    { scope, name: "calls aimed at A's resources", value: result.calls.filter((c) => c.aims !== '').length },
    { scope, name: 'answered 404 (SAPI-DOC-NOT-FOUND / SAPI-AUTH-PARTICIPANT)', value: count('not found') },
    { scope, name: 'answers other than 404 that a nonexistent id does not get', value: count('MISS'), target: '0', ok: count('MISS') === 0 },
    { scope, name: 'refused alike (the route refuses the credential whatever the id)', value: count('refused alike') },
    { scope, name: "B's responses carrying A's ids, numbers or VAT IDs", value: leaks, target: '0', ok: leaks === 0 },
    { scope, name: "A's events delivered to B's webhooks", value: hooks.toB, target: '0', ok: hooks.toB === 0 },
    { scope, name: "A's webhook arrivals (the events did fire)", value: hooks.toA, target: '> 0', ok: hooks.toA > 0 },
    { scope, name: 'calls to B in all', value: result.calls.length },
  ];
}

export async function run(options: CampaignOptions): Promise<CampaignReport> {
  const started = new Date();
  const figures: Figure[] = [];
  const notes: string[] = ['service in this process over a real socket (127.0.0.1); A = the demo organisation, B = its second organisation'];
  for (const database of options.databases) {
    const svc = await startCampaignService(database);
    const [hookA, hookB] = [await WebhookReceiver.start(), await WebhookReceiver.start()];
    try {
      // B's webhook first: every event A raises from here on could reach it
      const b = await seedSecondOrganisation(svc, hookB.url());
      const a = await seedDemoOrganisation(svc, hookA.url());
      console.log(`[walk ${database}] seeded A (${Object.values(a.ids).flat().length} ids) and B; walking`);
      const result = await walkRoutes(svc, a, b);
      const hooks = await crossDeliveries(svc, a, hookA, hookB);
      figures.push(...walkFigures(result, hooks, database));
      notes.push(`== ${database}`, ...result.unwalked, ...result.calls.filter((c) => c.verdict !== 'not found' || c.leaked.length > 0).map(walkLine));
    } finally {
      await hookA.close();
      await hookB.close();
      await svc.close();
    }
  }
  for (const n of notes.filter((l) => l.startsWith('==') || l.startsWith('MISS') || l.includes('LEAKED') || l.includes(': no '))) console.log(n);
  return { name: 'walk', seed: options.seed, startedAt: started.toISOString(), seconds: (Date.now() - started.getTime()) / 1000, figures, notes };
}
