// What the crash-effects campaign counts once the work is done, from the service's database (the
// event store, the sandbox's raw counters, the webhook queue), the clients' log of acknowledged
// sends and the webhook receiver's raw arrivals.
import pg from 'pg';
import { legacyEventId, svcEventId } from '../../src/modules/webhooks/events/ids.ts';
import type { Figure } from '../report.ts';
import type { Ack } from './load.ts';
import type { Arrival } from './receiver.ts';

type Row = Record<string, string | number | null>;

async function rows(db: pg.Client, sql: string): Promise<Row[]> {
  return (await db.query(sql)).rows as Row[];
}

/** Work the service still owes: webhook deliveries pending, copies without an FS verdict, sends not recorded as sent or failed. */
export async function outstanding(db: pg.Client): Promise<{ webhooks: number; filings: number; sends: number }> {
  const [webhooks] = await rows(db, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending'`);
  const [filings] = await rows(db, `
    WITH docs AS (SELECT data->>'invoice_id' AS id FROM events WHERE type IN ('InvoiceQueued', 'InvoiceReceived')
                  UNION SELECT data->>'document_id' FROM events WHERE type = 'SapiDocumentSent'),
         done AS (SELECT coalesce(data->>'invoice_id', data->>'document_id') AS id FROM events
                  WHERE type IN ('FsCopyAcknowledged', 'FsCopyRejected', 'FsFilingFailed', 'SapiFsAcknowledged', 'SapiFsRejected', 'SapiFsFailed', 'PeppolDeliveryFailed', 'SapiDocumentFailed'))
    SELECT count(*)::int AS n FROM docs WHERE id NOT IN (SELECT id FROM done WHERE id IS NOT NULL)`);
  const [sends] = await rows(db, `
    SELECT count(*)::int AS n FROM events q WHERE q.type IN ('InvoiceQueued', 'SapiDocumentAccepted') AND NOT EXISTS (
      SELECT 1 FROM events o WHERE o.stream_id = q.stream_id AND o.type IN ('PeppolMessageSent', 'PeppolDeliveryFailed', 'SapiDocumentSent', 'SapiDocumentFailed'))`);
  return { webhooks: Number(webhooks?.n ?? 0), filings: Number(filings?.n ?? 0), sends: Number(sends?.n ?? 0) };
}

const figure = (scope: string, name: string, value: number, target?: number | 'reported', cmp: 'eq' | 'le' = 'eq'): Figure =>
  target === undefined || target === 'reported'
    ? { scope, name, value }
    : { scope, name, value, target: cmp === 'eq' ? String(target) : `≤ ${target}`, ok: cmp === 'eq' ? value === target : value <= target };

/** The webhook events the domain events oblige (the fan-out's own rule: ids derive from the source event and the type). */
async function expectedWebhookEvents(db: pg.Client): Promise<Set<string>> {
  const sources = await rows(db, `SELECT event_id::text AS id, type, data->>'rejected_by_receiver' AS rejected FROM events
    WHERE type IN ('InvoiceQueued', 'PeppolDeliveryConfirmed', 'InvoiceReceived', 'FsCopyAcknowledged', 'SapiFsAcknowledged', 'FsCopyRejected', 'SapiFsRejected', 'PeppolDeliveryFailed')`);
  const ids = new Set<string>();
  for (const s of sources) {
    const id = String(s.id);
    switch (s.type) {
      case 'InvoiceQueued': ids.add(svcEventId(id, 'invoice.queued')); break;
      case 'PeppolDeliveryConfirmed': ids.add(legacyEventId(id, 'invoice.delivered')); break;
      case 'InvoiceReceived': ids.add(legacyEventId(id, 'invoice.received')); break;
      case 'FsCopyAcknowledged': case 'SapiFsAcknowledged': ids.add(svcEventId(id, 'invoice.fs_acknowledged')); break;
      case 'FsCopyRejected': case 'SapiFsRejected': ids.add(svcEventId(id, 'invoice.fs_rejected')); break;
      case 'PeppolDeliveryFailed': if (s.rejected === 'true') ids.add(legacyEventId(id, 'invoice.rejected')); break;
    }
  }
  return ids;
}

export async function figures(db: pg.Client, scope: string, acks: readonly Ack[], arrivals: readonly Arrival[], endpoints: readonly string[], raced412 = 0): Promise<{ figures: Figure[]; notes: string[] }> {
  const out: Figure[] = [];
  const notes: string[] = [];
  const one = async (sql: string) => Number((await rows(db, sql))[0]?.n ?? 0);

  // Peppol: every received copy names its message id; one sent document must reach its buyer under one id only
  const perDocument = await rows(db, `SELECT count(DISTINCT data->>'peppol_message_id')::int AS ids FROM events WHERE type = 'InvoiceReceived'
    GROUP BY data->>'company_id', data->>'supplier_vat_id', data->>'invoice_number'`);
  out.push(figure(scope, 'distinct Peppol message ids per sent document (max)', Math.max(0, ...perDocument.map((r) => Number(r.ids))), 1));
  out.push(figure(scope, 'sent documents that reached their buyer under > 1 message id', perDocument.filter((r) => Number(r.ids) > 1).length, 0));
  out.push(figure(scope, 'Peppol sends recorded per message id (max PeppolMessageSent/SapiDocumentSent)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*)::int AS n FROM events WHERE type IN ('PeppolMessageSent', 'SapiDocumentSent') GROUP BY stream_id) c`), 1));
  out.push(figure(scope, 'inbound copies per message id (max)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*)::int AS n FROM events WHERE type = 'InvoiceReceived' GROUP BY data->>'peppol_message_id') c`), 1));
  out.push(figure(scope, 'SAPI inbox copies per message id (max)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*)::int AS n FROM events WHERE type = 'SapiInboxDocumentReceived' GROUP BY data->>'peppol_message_id') c`), 1));
  // every arrival must carry a message id fixed before the send (InvoiceQueued or SapiDocumentAccepted): a fresh id would be a duplicate
  out.push(figure(scope, 'Peppol arrivals under a message id no send fixed', await one(`
    SELECT count(*)::int AS n FROM peppol_sandbox_arrivals a WHERE NOT EXISTS (
      SELECT 1 FROM events e WHERE e.type IN ('InvoiceQueued', 'SapiDocumentAccepted') AND e.data->>'peppol_message_id' = a.message_id)`), 0));
  const peppolArrivals = await rows(db, 'SELECT count(*)::int AS messages, coalesce(sum(arrivals), 0)::int AS arrivals FROM peppol_sandbox_arrivals');
  const messages = Number(peppolArrivals[0]?.messages ?? 0);
  out.push(figure(scope, 'Peppol messages arrived (distinct ids)', messages, 'reported'));
  out.push(figure(scope, 'Peppol retransmissions (raw arrivals - distinct ids)', Number(peppolArrivals[0]?.arrivals ?? 0) - messages, 'reported'));

  // FS
  out.push(figure(scope, 'FS submissions per document and reporter role (max)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*)::int AS n FROM fs_sandbox_corner5 GROUP BY reported, reporter_role) c`), 1));
  const fs = await rows(db, 'SELECT count(*)::int AS submissions, coalesce(sum(arrivals), 0)::int AS arrivals FROM fs_sandbox_corner5');
  out.push(figure(scope, 'FS submissions (distinct)', Number(fs[0]?.submissions ?? 0), 'reported'));
  out.push(figure(scope, 'FS retransmissions (raw arrivals - submissions)', Number(fs[0]?.arrivals ?? 0) - Number(fs[0]?.submissions ?? 0), 'reported'));
  out.push(figure(scope, 'FS submission ids recorded per filed copy (max distinct)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(DISTINCT coalesce(data->>'fs_submission_id', '')) AS n FROM events
      WHERE type IN ('FsCopySubmitted', 'SapiFsSubmitted') GROUP BY stream_id, data->>'reporter_role') c`), 1));

  // SAPI: the campaign's clients put the Idempotency-Key in metadata.documentId, so the documents of one key are countable
  out.push(figure(scope, 'SAPI documents per client and Idempotency-Key (max)', await one(`
    SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*)::int AS n FROM events WHERE type = 'SapiDocumentAccepted'
      GROUP BY data->>'client_id', data->'metadata'->>'document_id') c`), 1));
  const sapiAcks = acks.filter((a) => a.kind === 'sapi-send');
  const accepted = await rows(db, `SELECT data->>'provider_document_id' AS id FROM events WHERE type = 'SapiDocumentAccepted'`);
  const acceptedIds = new Set(accepted.map((r) => String(r.id)));
  out.push(figure(scope, 'SAPI sends acknowledged (202)', sapiAcks.length, 'reported'));
  out.push(figure(scope, 'SAPI 202s whose providerDocumentId has no document', sapiAcks.filter((a) => !acceptedIds.has(a.provider_document_id)).length, 0));

  // quota: the month's counter against the sends the clients saw accepted
  // the counter is the month's running total after its last event (InvoiceCounted, less InvoiceCountReleased)
  const totals = await rows(db, `SELECT DISTINCT ON (stream_id) stream_id, (data->>'count')::int AS top
    FROM events WHERE type IN ('InvoiceCounted', 'InvoiceCountReleased') ORDER BY stream_id, global_position DESC`);
  const counters = await rows(db, `SELECT stream_id, count(*)::int AS events, count(DISTINCT data->>'invoice_id')::int AS docs
    FROM events WHERE type = 'InvoiceCounted' GROUP BY stream_id`);
  const counted = totals.reduce((s, r) => s + Number(r.top), 0);
  const distinctSends = new Set(acks.map((a) => (a.kind === 'sapi-send' ? a.provider_document_id : a.invoice_id))).size;
  out.push(figure(scope, 'sends acknowledged (native, credit notes, SAPI)', distinctSends, 'reported'));
  out.push(figure(scope, 'quota counter minus accepted sends', counted - distinctSends, 0));
  out.push(figure(scope, 'credit notes answered 412 and asked again (each takes its count back: test/credit-notes/quota-on-lost-race.test.ts)', raced412, 'reported'));
  out.push(figure(scope, 'documents counted twice by the quota', counters.reduce((s, r) => s + Number(r.events) - Number(r.docs), 0), 0));

  // webhooks (spec rule 5: at least once; a duplicate carries the same event id)
  const expected = await expectedWebhookEvents(db);
  const got = new Map<string, Set<string>>(endpoints.map((e) => [e, new Set<string>()]));
  for (const a of arrivals) got.get(a.endpoint)?.add(a.event_id_header);
  let missing = 0;
  for (const e of endpoints) for (const id of expected) if (!got.get(e)?.has(id)) missing++;
  out.push(figure(scope, 'webhook events owed (events × endpoints)', expected.size * endpoints.length, 'reported'));
  out.push(figure(scope, 'webhook events never delivered', missing, 0));
  const byId = new Map<string, number>();
  for (const a of arrivals) byId.set(`${a.endpoint} ${a.event_id_header}`, (byId.get(`${a.endpoint} ${a.event_id_header}`) ?? 0) + 1);
  out.push(figure(scope, 'webhook duplicate arrivals (same endpoint and event id)', [...byId.values()].reduce((s, n) => s + n - 1, 0), 'reported'));
  const idsByContent = new Map<string, Set<string>>();
  for (const a of arrivals) {
    const k = `${a.endpoint} ${a.content_key}`;
    idsByContent.set(k, (idsByContent.get(k) ?? new Set()).add(a.event_id_header));
  }
  const mismatches = arrivals.filter((a) => a.event_id_header !== a.body_id).length + [...idsByContent.values()].filter((s) => s.size > 1).length;
  out.push(figure(scope, 'duplicates under another X-Webhook-Event-Id (or header ≠ body id)', mismatches, 0));
  out.push(figure(scope, 'webhook arrivals of events no domain event obliges', arrivals.filter((a) => !expected.has(a.event_id_header)).length, 0));

  // what is left undone, and side effects given up on
  const left = await outstanding(db);
  out.push(figure(scope, 'work left undone (pending webhooks, copies without FS verdict, sends not recorded)', left.webhooks + left.filings + left.sends, 0));
  out.push(figure(scope, 'parked reactions (a side effect given up)', await one('SELECT count(*)::int AS n FROM reactor_failures'), 0));
  out.push(figure(scope, 'failed legs (Peppol or FS failed)', await one(`SELECT count(*)::int AS n FROM events WHERE type IN ('PeppolDeliveryFailed', 'FsFilingFailed', 'SapiDocumentFailed', 'SapiFsFailed')`), 0));
  notes.push(`${scope}: ${acks.filter((a) => a.kind === 'native-send').length} native sends, ${acks.filter((a) => a.kind === 'credit-note').length} credit notes, ${sapiAcks.length} SAPI sends`);
  return { figures: out, notes };
}
