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
const counted = { ...reserved, data: { ...reserved.data, credit_note_id: '7c9d4e63-3d2f-4a1b-8b8d-2e3f4a5b6c7d', counted: true } };
const ROW = `SELECT version, allowance->>'creditable' AS creditable, allowance->>'refusal' AS refusal,
  allowance->>'credited_gross' AS credited, allowance->>'left_gross' = allowance->>'total_gross' AS untouched, allowance->>'left_gross' AS left
  FROM credit_note_allowances`;

describe('credit note allowance projector', function () {
  this.timeout(120_000); // a fresh database per scenario

  const given = projectorSpec(creditNoteAllowance);

  it('a draft is not creditable yet, and has everything left', async () => {
    await given(inStream(stream, created)).then(ROW, [
      { version: 0, creditable: 'false', refusal: 'the invoice is not issued yet (status draft): correct it instead', credited: '0.00', untouched: true, left: (created.data.totals as { total_gross: string }).total_gross },
    ]);
  });

  it('an issued invoice is creditable; a waiting credit note does not count, a counted one does', async () => {
    await given(inStream(stream, ...issued, reserved)).then(`SELECT allowance->>'creditable' AS creditable, allowance->>'credited_gross' AS credited FROM credit_note_allowances`, [
      { creditable: 'true', credited: '0.00' },
    ]);
    await given(inStream(stream, ...issued, reserved, counted)).then(`SELECT version, allowance->>'creditable' AS creditable, allowance->>'left_gross' AS left FROM credit_note_allowances`, [
      { version: 7, creditable: 'false', left: '0.00' },
    ]);
  });

  it('a voided invoice is not creditable', async () => {
    const issuedNote = fixture('CreditNoteIssued');
    await given(inStream(stream, ...issued, counted, issuedNote, fixture('InvoiceVoided'))).then(`SELECT allowance->>'refusal' AS refusal FROM credit_note_allowances`, [
      { refusal: 'the invoice is voided' },
    ]);
  });
});
