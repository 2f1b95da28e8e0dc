import type { EntityManager } from 'typeorm';
import type { PeppolReportEvent } from '../../events/reporting.ts';
import type { Recorded } from '../../src/platform/eventstore/port.ts';
import { defineProjector } from '../../src/platform/readmodel/projector.ts';
import { PeppolReportMonths1766500000000 } from './migration.ts';
import { PEPPOL_REPORT_MONTHS } from './queries.ts';

async function applyOne(event: Recorded<PeppolReportEvent>, tx: EntityManager): Promise<void> {
  const { month, kind } = event.data;
  const set = (assignments: string, values: unknown[]) =>
    tx.query(`UPDATE peppol_report_months SET ${assignments} WHERE month = $1 AND kind = $2`, [month, kind, ...values]);
  switch (event.type) {
    case 'PeppolReportBuilt': {
      const { valid, errors, built_at } = event.data;
      // a month is built once (the decider's rule): a replay finds its row and leaves it
      await tx.query(
        `INSERT INTO peppol_report_months (month, kind, status, valid, errors, built_at, attempts) VALUES ($1, $2, $3, $4, $5, $6, 0)
         ON CONFLICT (month, kind) DO NOTHING`,
        [month, kind, valid === true ? 'built' : 'invalid', valid, JSON.stringify(errors), built_at],
      );
      return;
    }
    case 'PeppolReportSending':
      await set(`status = 'sending', message_id = $3`, [event.data.message_id]);
      return;
    case 'PeppolReportSendFailed':
      await set(`status = $3, attempts = $4, retry_at = $5, last_error = $6`, [
        event.data.retry_at === null ? 'failed' : 'sending', event.data.attempts, event.data.retry_at, event.data.reason,
      ]);
      return;
    case 'PeppolReportSent':
      await set(`status = 'sent', retry_at = NULL, sent_at = $3`, [event.data.sent_at]);
      return;
    case 'PeppolReportMlsReceived':
      await set('mls_response_code = $3, mls_reasons = $4, mls_received_at = $5', [event.data.response_code, JSON.stringify(event.data.reasons), event.data.received_at]);
      return;
  }
}

/** Each reported month's EUSR and TSR: status, message, attempts and OpenPeppol's MLS (the admin route's list). */
export const peppolReportMonths = defineProjector<PeppolReportEvent>({
  name: PEPPOL_REPORT_MONTHS,
  handles: ['PeppolReportBuilt', 'PeppolReportSending', 'PeppolReportSendFailed', 'PeppolReportSent', 'PeppolReportMlsReceived'],
  tables: ['peppol_report_months'],
  migrations: [PeppolReportMonths1766500000000],
  async apply(events, tx) {
    for (const event of events) await applyOne(event, tx);
  },
});
