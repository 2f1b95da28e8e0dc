import { loadConfig } from '../config.ts';
import { openServices } from '../services.ts';

const usage = 'usage: npm run cli -- projections status | rebuild [name...]';

/**
 * `projections status`: each projector's checkpoint and lag (events not yet applied).
 * `projections rebuild [name...]`: empties the named read models (all by default) and replays
 * history into them. Safe beside a running service on Postgres (runners follow each other's
 * checkpoints); on the embedded default the service must be stopped (PGlite has one owner).
 */
export async function run(args: string[]): Promise<number> {
  const [action, ...names] = args;
  if (action !== 'status' && action !== 'rebuild') {
    console.error(usage);
    return 2;
  }
  const services = await openServices(loadConfig(), { runProjections: false });
  try {
    const runner = services.projections;
    const unknown = names.filter((n) => !runner.projectors.some((p) => p.name === n));
    if (unknown.length > 0) {
      console.error(`unknown projector(s): ${unknown.join(', ')}; known: ${runner.projectors.map((p) => p.name).join(', ')}`);
      return 2;
    }
    if (action === 'status') {
      console.log('projector              lag       updated_at                 position');
      for (const s of await runner.status()) {
        const lag = `${s.lag}${s.lagCapped ? '+' : ''}`;
        console.log(`${s.name.padEnd(22)} ${lag.padEnd(9)} ${(s.updatedAt?.toISOString() ?? '-').padEnd(26)} ${s.position || '(start)'}`);
      }
      return 0;
    }
    const selected = runner.projectors.filter((p) => names.length === 0 || names.includes(p.name));
    for (const projector of selected) {
      const started = performance.now();
      await runner.reset(projector);
      const events = await runner.catchUp(projector);
      const seconds = (performance.now() - started) / 1000;
      console.log(`${projector.name}: rebuilt from ${events} events in ${seconds.toFixed(2)} s (${Math.round(events / Math.max(seconds, 1e-6))} events/s)`);
    }
    return 0;
  } finally {
    await services.close();
  }
}
