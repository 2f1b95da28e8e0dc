import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openEmbeddedDataDir } from '../../src/platform/db/embedded-default.ts';
import { freePort, healthy, startService, stopService } from '../e2e/support/service-process.ts';
import { eventually } from '../support/poll.ts';

type Credentials = { base_url: string; api_key: string; companies: { id: string; name: string; vat_id: string; ico: string; dic: string; peppol_id: string }[] };

/**
 * kill -9 between a side effect and the record of its outcome (the fault hook, src/platform/reactors/fault.ts),
 * on the embedded default: the service dies right after the Peppol transmission, then right after
 * an FS filing; started again, it retransmits under the same Peppol message id and files the same
 * TDD, so the buyer has one copy and FS one submission per copy and role, while the sandbox's raw
 * counters show the retransmissions.
 */
describe('a crash right after a side effect: the retransmission reuses its ids', function () {
  this.timeout(900_000);
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'svc-crash-effect-'));
    port = await freePort();
  });
  after(async () => {
    if (child) await stopService(child);
    await rm(dataDir, { recursive: true, force: true });
  });

  const killLog = () => path.join(dataDir, '..', `${path.basename(dataDir)}-kills.jsonl`);
  // the receiver's delivery status waits until the last start: a status that overtook the crash would
  // let the sender record the send without retransmitting it (also right, but not the case tested)
  const start = async (fault?: string) => {
    child = startService('tsx', dataDir, port, fault ? { FAULT_KILL_AFTER_EFFECT: fault, FAULT_KILL_LOG: killLog(), PEPPOL_SANDBOX_DELIVERY_DELAY_MS: '600000' } : {});
    await healthy(child, port, 300_000);
  };
  const killed = (c: ChildProcess) => new Promise<string | null>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve(c.signalCode) : c.once('exit', (_code, signal) => resolve(signal))));

  it('one inbound copy, one Peppol message id, one FS submission per copy and role; the raw counters show the repeats', async () => {
    await start('peppol-send:#1');
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as Credentials;
    const [seller, buyer] = credentials.companies as [Credentials['companies'][number], Credentials['companies'][number]];
    const call = async (method: string, url: string, body?: unknown) => {
      const response = await fetch(`${credentials.base_url}${url}`, {
        method, headers: { 'x-api-key': credentials.api_key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: (await response.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const customer = await call('POST', `/companies/${seller.id}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id });
    const invoice = await call('POST', `/companies/${seller.id}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer.body.id, lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(invoice.status).to.equal(201);
    const first = child!;
    expect((await call('POST', `/companies/${seller.id}/invoices/${invoice.body.id}/send`)).status).to.equal(202);
    expect(await killed(first), 'killed after the Peppol transmission').to.equal('SIGKILL');

    // the filings still to do (the buyer's C3 at least) come now, perhaps before the first health answer: it dies after one
    child = startService('tsx', dataDir, port, { FAULT_KILL_AFTER_EFFECT: 'fs-submit:#1', FAULT_KILL_LOG: killLog(), PEPPOL_SANDBOX_DELIVERY_DELAY_MS: '600000' });
    expect(await killed(child), 'killed after an FS filing').to.equal('SIGKILL');

    await start();
    // polled once a second: the demo key's plan allows 120 requests a minute, and the MLS and corner 5 take seconds
    const done = await eventually(async () => (await call('GET', `/companies/${seller.id}/invoices/${invoice.body.id}`)).body, (i) => i.status === 'fs_acknowledged', { withinMs: 300_000, everyMs: 1_000 });
    const messageId = done.peppol_message_id as string;
    expect(done.peppol_delivery, JSON.stringify(done)).to.include({ message_id: messageId, status: 'delivered' });
    const copy = await eventually(
      async () => ((await call('GET', `/companies/${buyer.id}/invoices?q=${done.invoice_number}`)).body.items as { id: string; source: string; status: string }[]).filter((i) => i.source === 'peppol'),
      (copies) => copies.length > 0 && copies.every((c) => c.status === 'fs_acknowledged'), { withinMs: 300_000, everyMs: 1_000 },
    );
    expect(copy, 'inbound copies').to.have.length(1);
    // the sender records its send once the retransmission went out (its validation may still run when FS has answered)
    const history = await eventually(
      async () => (await call('GET', `/companies/${seller.id}/invoices/${invoice.body.id}/history`)).body.events as { type: string; data: Record<string, unknown> }[],
      (events) => events.some((e) => e.type === 'PeppolMessageSent'), { withinMs: 300_000, everyMs: 1_000 },
    );
    expect(history.filter((e) => e.type === 'PeppolMessageSent').map((e) => e.data.peppol_message_id)).to.deep.equal([messageId]);
    await stopService(child!);
    child = undefined;

    const kills = (await readFile(killLog(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { after: string; detail: string });
    expect(kills.map((k) => k.after)).to.deep.equal(['peppol-send', 'fs-submit']);
    expect(kills[0]!.detail).to.equal(messageId);
    const opened = await openEmbeddedDataDir(dataDir);
    const db = new pg.Client({ connectionString: opened.connectionString });
    await db.connect();
    try {
      // the sandbox network also carries the TDDs to corner 5 and the MLS back: the invoice's message is the one counted here
      const arrivals = (await db.query('SELECT message_id, arrivals FROM peppol_sandbox_arrivals WHERE message_id = $1', [messageId])).rows as { message_id: string; arrivals: number }[];
      expect(arrivals).to.deep.equal([{ message_id: messageId, arrivals: 2 }]);
      const filed = (await db.query('SELECT submission_id, reporter_role, arrivals FROM fs_sandbox_corner5 ORDER BY reporter_role')).rows as { submission_id: string; reporter_role: string; arrivals: number }[];
      expect(filed.map((f) => f.reporter_role)).to.deep.equal(['C2', 'C3']);
      expect(filed.find((f) => f.submission_id === kills[1]!.detail)?.arrivals, 'the filing the crash cut off was filed again').to.equal(2);
      const submitted = (await db.query(`SELECT stream_id, count(DISTINCT data->>'fs_submission_id')::int AS ids FROM events WHERE type = 'FsCopySubmitted' GROUP BY stream_id`)).rows as { ids: number }[];
      expect(submitted.map((r) => r.ids)).to.deep.equal([1, 1]);
    } finally {
      await db.end();
      await opened.close();
    }
  });
});
