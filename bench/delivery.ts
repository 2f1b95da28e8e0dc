import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from '../src/platform/config.ts';
import { createDemo } from '../src/demo/bootstrap.ts';
import { createApp } from '../src/doors/native/app.ts';
import { openService } from '../src/service.ts';
import { onEmbedded, onFreshPostgres } from './databases.ts';
import { percentile } from './stats.ts';

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/**
 * Sends `count` invoices at once from demo company 0 to demo company 1 in the sandbox (delays 0)
 * and measures, per invoice, the time from its send request to the delivered and to the
 * fs_acknowledged event of the sender's copy.
 */
async function benchOne(label: string, databaseUrl: string, count: number): Promise<void> {
  // defaults, not this shell's settings, but for where the official validation artifacts are
  const defaults = loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR });
  // the limiter would refuse a burst of 1,000 from one key; its cost is what `bench auth` measures
  const config = { ...defaults, databaseUrl, identity: { ...defaults.identity, rateLimit: false }, delivery: { ...defaults.delivery, sandboxDeliveryStatusDelayMs: 0, fsSandboxDelayMs: 0 } };
  const services = await openService(config, { log: pino({ level: 'silent' }) });
  const server = createServer(createApp(services).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  try {
    await (await services.validator()).validate('<x/>'); // compile or load the rules before the clock starts
    const demo = await createDemo(services, api);
    const [from, to] = demo.companies;
    if (!from || !to) throw new Error('demo companies missing');
    const headers = { 'x-api-key': demo.api_key, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${api}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    const customer = (await call('POST', `/companies/${from.id}/customers`, { name: to.name, vat_id: to.vat_id, ico: to.ico, dic: to.dic, peppol_id: to.peppol_id })).body.id as string;
    const lines = Array.from({ length: 10 }, (_, i) => ({ item_name: `Položka ${i + 1}`, quantity: String(i + 1), unit_price: `${(i + 1) * 7}.35`, vat_rate: ['23', '19', '5'][i % 3] }));
    const ids: string[] = [];
    for (let created = 0; created < count; created += 16) {
      const batch = await Promise.all(Array.from({ length: Math.min(16, count - created) }, () =>
        call('POST', `/companies/${from.id}/invoices`, { issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer, lines })));
      ids.push(...batch.map((r) => r.body.id as string));
    }

    const sentAt = new Map<string, number>();
    const started = Date.now();
    const answers = await Promise.all(ids.map(async (id) => {
      sentAt.set(id, Date.now());
      return (await call('POST', `/companies/${from.id}/invoices/${id}/send`)).status;
    }));
    const accepted = answers.filter((s) => s === 202).length;
    const sendSeconds = (Date.now() - started) / 1000;

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const deadline = Date.now() + 600_000;
    let done = 0;
    while (Date.now() < deadline) {
      const rows = await db.query(`SELECT count(*)::int AS n FROM invoices WHERE company_id = $1 AND status IN ('fs_acknowledged', 'failed', 'rejected')`, [from.id]);
      done = rows.rows[0].n;
      if (done >= count) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const events = await db.query(
      `SELECT data->>'invoice_id' AS id, type, recorded_at FROM events WHERE type IN ('PeppolDeliveryConfirmed', 'FsCopyAcknowledged') AND data->>'invoice_id' = ANY($1)`,
      [ids],
    );
    await db.end();
    const toDelivered: number[] = [];
    const toAcknowledged: number[] = [];
    for (const row of events.rows as { id: string; type: string; recorded_at: Date }[]) {
      const ms = row.recorded_at.getTime() - (sentAt.get(row.id) ?? 0);
      (row.type === 'PeppolDeliveryConfirmed' ? toDelivered : toAcknowledged).push(ms);
    }
    toDelivered.sort((a, b) => a - b);
    toAcknowledged.sort((a, b) => a - b);
    console.log(`\n${label}`);
    console.log(`  ${count} invoices sent at once: ${accepted} accepted (202) in ${sendSeconds.toFixed(1)} s; ${done} settled`);
    console.log(`  send → delivered:       median ${fmt(percentile(toDelivered, 50))}   p99 ${fmt(percentile(toDelivered, 99))}   (${toDelivered.length} delivered)`);
    console.log(`  send → fs_acknowledged: median ${fmt(percentile(toAcknowledged, 50))}   p99 ${fmt(percentile(toAcknowledged, 99))}   (${toAcknowledged.length} acknowledged)`);
  } finally {
    server.closeAllConnections();
    server.close();
    await services.close();
  }
}

/**
 * `npm run bench -- delivery [count]`: `count` (default 1,000) invoices sent at once in the
 * sandbox, delays 0, on the embedded PGlite and on Postgres (DATABASE_URL or the local server),
 * each in a fresh database. Prints median and p99 from send to delivered and to fs_acknowledged.
 */
export async function main(args: string[]): Promise<void> {
  const count = Number(args[0] ?? 1000);
  await onEmbedded((url) => benchOne('PGlite (embedded, in memory)', url, count));
  await onFreshPostgres((url, host) => benchOne(`Postgres (${host}, fresh database)`, url, count));
}
