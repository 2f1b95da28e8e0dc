import { readFileSync } from 'node:fs';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { inStream, projectorSpec } from '../../test/support/projector-given.ts';
import { creditNoteAllowance } from './projector.ts';

// the stored fixtures of one invoice's stream: issued over Peppol and FS, then credited
const fixture = (type: string): DomainEvent<string, Record<string, unknown>> => {
  const f = JSON.parse(readFileSync(new URL(`../../test/fixtures/events/${type}.v1.json`, import.meta.url), 'utf8')) as { type: string; data: Record<string, unknown> };
  return { type: f.type, data: f.data };
};
const created = fixture('InvoiceCreated');
const stream = `invoice-${String(created.data.invoice_id)}`;
const issued = [created, ...['InvoiceQueued', 'PeppolMessageSent', 'PeppolDeliveryConfirmed', 'FsCopySubmitted', 'FsCopyAcknowledged'].map(fixture)];
const reserved = fixture('CreditNoteReserved'); // a void's draft: not counted
const second = { ...reserved, data: { ...reserved.data, credit_note_id: '7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c7d', credit_note_number: 'DOB-2026-000002' } };
const ENTRIES = `SELECT version, voided, jsonb_path_query_array(credit_notes, '$[*] ? (@.released == false) .credit_note_number') #>> '{}' AS open,
  jsonb_path_query_array(credit_notes, '$[*] ? (@.counted == true && @.issued == true) .credit_note_number') #>> '{}' AS issued
  FROM invoice_credit_notes`;

describe('invoice credit notes projector (the allowance read model)', function () {
  this.timeout(120_000); // a fresh database per scenario

  const given = projectorSpec(creditNoteAllowance);

  it('an invoice without credit notes has no row: creates cost it nothing', async () => {
    await given(inStream(stream, ...issued)).then('SELECT invoice_id FROM invoice_credit_notes', []);
  });

  it('folds reservations, releases, counting, issue and the void, at the stream revision of the last', async () => {
    await given(inStream(stream, ...issued, reserved, fixture('CreditNoteReleased'), second)).then(ENTRIES, [
      { version: 8, voided: false, open: '["DOB-2026-000002"]', issued: '[]' },
    ]);
    await given(inStream(stream, ...issued, reserved, fixture('CreditNoteReleased'), second, fixture('CreditNoteCounted'), fixture('CreditNoteIssued'), fixture('InvoiceVoided'))).then(ENTRIES, [
      { version: 11, voided: true, open: '["DOB-2026-000002"]', issued: '["DOB-2026-000002"]' },
    ]);
  });
});
