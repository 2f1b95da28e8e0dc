// Fixtures shared by the invoice decider tests: one Slovak invoice, its create command and event.
import type { InvoiceEvent } from '../../events/invoices.ts';
import type { RequestScope } from '../shared/access.ts';
import { codeLists } from './code-lists.ts';
import type { InvoiceCommand } from './decider.ts';
import type { InvoiceContent } from './model.ts';
import { computeTotals } from './totals.ts';

export const lists = codeLists({ unitCodes: ['C62', 'HUR'], vatexCodes: ['VATEX-EU-AE'], currencyCodes: ['EUR', 'CZK'], countryCodes: ['SK', 'CZ'] });
export const at = '2026-11-22T10:00:00.000Z';
/** The invoice's own company, and the scopes that see it or not (access.ts) */
export const scope: RequestScope = { organisationId: 'o1', companyId: 'c1' };
export const organisationWide: RequestScope = { organisationId: 'o1', companyId: null };
export const otherCompany: RequestScope = { organisationId: 'o1', companyId: 'c2' };
export const otherOrganisation: RequestScope = { organisationId: 'o2', companyId: null };
export const party = { name: 'Dodávateľ s.r.o.', vat_id: 'SK2020273893', ico: '35757442', dic: '2020273893', peppol_id: '9950:sk2020273893svctest', street: 'Hlavná 1', city: 'Bratislava', postal_code: '811 01', country_code: 'SK' };
export const content: InvoiceContent = {
  invoice_number: '2026000001', invoice_type: '380', issue_date: '2026-11-22', due_date: '2026-12-06', delivery_date: null, currency_code: 'EUR',
  supplier: party, buyer: { ...party, name: 'Odberateľ a.s.', vat_id: 'SK2020000004', dic: '2020000004', peppol_id: null }, customer_id: null,
  supplier_iban: 'SK3112000000198742637541', payment_means_code: '30', variable_symbol: '2026000001', note: null, buyer_reference: '2026000001',
  order_reference: null, billing_reference: null,
  lines: [{ line_number: 1, item_name: 'Konzultácia', quantity: '2', unit_code: 'HUR', unit_price: '50.00', vat_rate: '23', vat_category_code: 'S', vat_exemption_reason_code: null, discount_percentage: null, discount_amount: null }],
};
export const create: Extract<InvoiceCommand, { type: 'CreateInvoice' }> = {
  type: 'CreateInvoice', invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', created_by: 'k1', number_source: 'series',
  content, code_lists: lists, at,
};
export const created: InvoiceEvent = {
  type: 'InvoiceCreated',
  data: { invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', created_by: 'k1', number_source: 'series', content, totals: computeTotals(content), warnings: [], created_at: at },
};
