import { expect } from 'chai';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { specFor } from '../shared/given.ts';
import { codeLists } from './code-lists.ts';
import { invoiceDecider, type InvoiceCommand } from './decider.ts';
import type { InvoiceContent } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { computeTotals } from './totals.ts';

const lists = codeLists({ unitCodes: ['C62', 'HUR'], vatexCodes: ['VATEX-EU-AE'], currencyCodes: ['EUR', 'CZK'], countryCodes: ['SK', 'CZ'] });
const at = '2026-11-22T10:00:00.000Z';
const party = { name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', peppol_id: '9950:sk2020273893svctest', street: '', city: 'Bratislava', postal_code: '811 01', country_code: 'SK' };
const content: InvoiceContent = {
  invoice_number: '2026000001', invoice_type: '380', issue_date: '2026-11-22', due_date: '2026-12-06', delivery_date: null, currency_code: 'EUR',
  supplier: party, buyer: { ...party, name: 'Odberateľ a.s.', vat_id: 'SK2020000004', dic: '2020000004', peppol_id: null }, customer_id: null,
  supplier_iban: 'SK3112000000198742637541', payment_means_code: '30', variable_symbol: '2026000001', note: null, buyer_reference: '2026000001',
  order_reference: null, billing_reference: null,
  lines: [{ line_number: 1, item_name: 'Konzultácia', quantity: '2', unit_code: 'HUR', unit_price: '50.00', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, discount_percentage: null, discount_amount: null }],
};
const create: InvoiceCommand = {
  type: 'CreateInvoice', invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', created_by: 'k1', number_source: 'series',
  content, code_lists: lists, at,
};
const created: InvoiceEvent = {
  type: 'InvoiceCreated',
  data: { invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', created_by: 'k1', number_source: 'series', content, totals: computeTotals(content), warnings: [], created_at: at },
};
const validated: InvoiceEvent = { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'k1', validated_at: at } };
const given = specFor(invoiceDecider);
const update = (over: Partial<InvoiceContent> = {}, organisation_id = 'o1'): InvoiceCommand => ({
  type: 'UpdateInvoice', invoice_id: 'i1', organisation_id, updated_by: 'k1', content: { ...content, ...over }, code_lists: lists, at,
});

describe('invoices', () => {
  it('creates a draft carrying its computed totals', () => given([]).when(create).then([created]));

  it('refuses content that breaks a business rule, listing the findings', () => {
    const zeroS = { ...content, lines: [{ ...content.lines[0]!, vat_rate: '0' }] };
    let error: unknown;
    try {
      invoiceDecider.decide({ ...create, content: zeroS }, invoiceDecider.initialState);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(InvoiceRuleViolation);
    expect((error as InvoiceRuleViolation).findings.map((f) => f.rule)).to.include('BR-S-05');
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
