import { expect } from 'chai';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { specFor } from '../shared/given.ts';
import { at, content, create, created, lists } from './test-fixtures.ts';
import { invoiceDecider, type InvoiceCommand } from './decider.ts';
import type { InvoiceContent } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { computeTotals } from './totals.ts';

const validated: InvoiceEvent = { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'k1', validated_at: at } };
const given = specFor(invoiceDecider);
const update = (over: Partial<InvoiceContent> = {}, organisation_id = 'o1'): InvoiceCommand => ({
  type: 'UpdateInvoice', invoice_id: 'i1', organisation_id, updated_by: 'k1', content: { ...content, ...over }, code_lists: lists, at,
});

describe('invoices', () => {
  it('creates a draft carrying its computed totals', () => given([]).when(create).then([created]));

  it('refuses content that breaks a business rule, listing the findings', () => {
    const zeroS = { ...content, lines: [{ ...content.lines[0]!, vat_rate: '0' }] };
    given([])
      .when({ ...create, content: zeroS })
      .thenThrows(InvoiceRuleViolation, (e) => expect(e.findings.map((f) => f.rule)).to.include('BR-S-05'));
  });

  it('refuses to create an invoice twice', () => given([created]).when(create).thenThrows('invoice_exists'));

  it('replaces the content of a draft, recomputing totals', () => {
    const changed = { ...content, note: 'zmena', lines: [{ ...content.lines[0]!, quantity: '3' }] };
    given([created]).when(update(changed)).then([
      { type: 'InvoiceUpdated', data: { invoice_id: 'i1', updated_by: 'k1', content: changed, totals: computeTotals(changed), warnings: [], updated_at: at } },
    ]);
  });

  it('a validated invoice can be replaced too (and is a draft again)', () => {
    const state = [created, validated].reduce(invoiceDecider.evolve, invoiceDecider.initialState);
    const events = invoiceDecider.decide(update(), state);
    expect(events[0]?.type).to.equal('InvoiceUpdated');
    expect(events.reduce(invoiceDecider.evolve, state)).to.include({ status: 'draft' });
  });

  it('refuses to replace an invoice that has left draft/validated with invalid_status', () => {
    for (const status of ['queued', 'sent_peppol', 'delivered', 'voided'] as const) {
      const state = { ...[created].reduce(invoiceDecider.evolve, invoiceDecider.initialState), status } as Parameters<typeof invoiceDecider.decide>[1];
      expect(() => invoiceDecider.decide(update(), state)).to.throw(/cannot be changed/);
    }
  });

  it('refuses to change the invoice number', () => given([created]).when(update({ invoice_number: 'X-1' })).thenThrows('invoice_number_immutable'));

  it('an invoice of another organisation is not found', () => given([created]).when(update({}, 'o2')).thenThrows('invoice_not_found'));

  it('validates a draft once; validating again changes nothing', () => {
    const mark = { type: 'MarkValidated', invoice_id: 'i1', organisation_id: 'o1', validated_by: 'k1', at } as const;
    given([created]).when(mark).then([validated]);
    given([created, validated]).when(mark).then([]);
  });
});
