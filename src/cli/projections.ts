import { loadConfig } from '../platform/config.ts';
import type { ParkedEvent } from '../platform/readmodel/failures.ts';
import { openService } from '../service.ts';

const usage = 'usage: npm run cli -- projections status | rebuild [name...]';

/**
 * `projections status`: each projector's checkpoint, lag (events not yet applied) and the events
 * it parked (could not apply, went on past them: projection_failures), one line each, and the
 * reactions parked after their attempts (reactor_failures).
 * `projections rebuild [name...]`: empties the named read models (all by default) and replays
 * history into them; an event that still cannot be applied is parked again, and the rebuild
 * succeeds (exit 0) and says how many. Safe beside a running service on Postgres (runners follow each other's
 * checkpoints); on the embedded default the service must be stopped (PGlite has one owner).
 */
export async function run(args: string[]): Promise<number> {
  const [action, ...names] = args;
  if (action !== 'status' && action !== 'rebuild') {
    console.error(usage);
    return 2;
  }
  const services = await openService(loadConfig(), { runProjections: false });
  try {
    const runner = services.projections;
    const unknown = names.filter((n) => !runner.projectors.some((p) => p.name === n));
    if (unknown.length > 0) {
      console.error(`unknown projector(s): ${unknown.join(', ')}; known: ${runner.projectors.map((p) => p.name).join(', ')}`);
      return 2;
    }
    if (action === 'status') {
      const statuses = await runner.status();
      console.log('projector              lag       parked  updated_at                 position');
      for (const s of statuses) {
        const lag = `${s.lag}${s.lagCapped ? '+' : ''}`;
        console.log(`${s.name.padEnd(22)} ${lag.padEnd(9)} ${String(s.parked.length).padEnd(7)} ${(s.updatedAt?.toISOString() ?? '-').padEnd(26)} ${s.position || '(start)'}`);
      }
      const line = (f: ParkedEvent) => `${f.name} event ${f.eventId} ${f.type} stream ${f.streamId} position ${f.position} at ${f.failedAt.toISOString()}: ${f.error}`;
      const parked = statuses.flatMap((s) => s.parked);
      if (parked.length > 0) {
        console.log('\nparked events (not applied; fix the cause, then rebuild the projector):');
        for (const f of parked) console.log(line(f));
      }
      const reactions = await services.reactors.parked();
      if (reactions.length > 0) {
        console.log('\nparked reactions (gave up after their attempts; their side effect did not happen):');
        for (const f of reactions) console.log(`${line(f)} (${f.attempts} attempts)`);
      }
      return 0;
    }
    const selected = runner.projectors.filter((p) => names.length === 0 || names.includes(p.name));
    for (const projector of selected) {
      const started = performance.now();
      const events = await runner.rebuild(projector);
      const seconds = (performance.now() - started) / 1000;
      const parked = (await runner.parked([projector.name])).length;
      const note = parked > 0 ? `; ${parked} event(s) could not be applied and are parked (projections status)` : '';
      console.log(`${projector.name}: rebuilt from ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / Math.max(seconds, 1e-6))} events/s)${note}`);
    }
    return 0;
  } finally {
    await services.close();
  }
}
