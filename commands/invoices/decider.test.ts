import { expect } from 'chai';
import type { CreditNoteCreated } from '../../events/credit-notes.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { NotFound, type RequestScope } from '../shared/access.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { at, content, create, created, lists, organisationWide, otherCompany, otherOrganisation, scope } from './test-fixtures.ts';
import { invoiceDecider, type InvoiceCommand } from './decider.ts';
import type { InvoiceContent } from './model.ts';
import { InvoiceRuleViolation } from './rule-violation.ts';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { computeTotals } from './totals.ts';
import type { ValidationOutcome } from './validation.ts';

const validated: InvoiceEvent = { type: 'InvoiceValidated', data: { invoice_id: 'i1', validated_by: 'k1', validated_at: at } };
const given = specFor(invoiceDecider);
const invoiceNotFound = (e: NotFound) => expect(e.code).to.equal('invoice_not_found');
const update = (over: Partial<InvoiceContent> = {}, by: RequestScope = scope): InvoiceCommand => ({
  type: 'UpdateInvoice', invoice_id: 'i1', scope: by, updated_by: 'k1', content: { ...content, ...over }, code_lists: lists, at,
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

  it('a credit note made through the credit-note route is locked: a PUT is 409 locked_credit_note, even with its own content', () => {
    const creditNote: CreditNoteCreated = {
      type: 'CreditNoteCreated',
      data: {
        credit_note_id: 'i1', organisation_id: 'o1', company_id: 'c1', workspace_id: 'w1', created_by: 'k1', reason: 'partial_credit',
        credited_invoice: { invoice_id: 'i0', invoice_number: '2026000000', issue_date: '2026-11-01' },
        content: { ...content, invoice_type: '381' }, totals: computeTotals(content), warnings: [], created_at: at,
      },
    };
    given([creditNote]).when(update({}, scope)).thenThrows('locked_credit_note', { credited_invoice_id: 'i0' });
    given([creditNote]).when(update({}, otherCompany)).thenThrows(NotFound, invoiceNotFound);
  });

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

  it('an invoice of another organisation is not found', () =>
    given([created]).when(update({}, otherOrganisation)).thenThrows(NotFound, invoiceNotFound));

  it('another company of the same organisation cannot replace it: not found, as if it did not exist', () => {
    given([created]).when(update({}, otherCompany)).thenThrows(NotFound, invoiceNotFound);
    given([]).when(update()).thenThrows(NotFound, invoiceNotFound);
  });

  it('an organisation-wide scope acts on any company’s invoice of its organisation', () =>
    expect(invoiceDecider.decide(update({}, organisationWide), fold(invoiceDecider, [created]))[0]?.type).to.equal('InvoiceUpdated'));

  describe('a corrected invoice (384)', () => {
    const corrected = { ...content, invoice_type: '384' as const, billing_reference: { invoice_number: '2026000000', issue_date: '2026-11-01' } };
    const atPreceding = (e: InvalidFields) => expect(e.problems.map((p) => p.loc)).to.deep.equal([['body', 'preceding_invoice']]);

    it('is created with the invoice it corrects', () => {
      const events = invoiceDecider.decide({ ...create, content: corrected }, invoiceDecider.initialState);
      expect(events.map((e) => e.type)).to.deep.equal(['InvoiceCreated']);
      expect(events[0]?.data).to.deep.include({ content: corrected });
    });

    it('is refused without one, on create and on replace, with loc at preceding_invoice', () => {
      const bare = { ...corrected, billing_reference: null };
      given([]).when({ ...create, content: bare }).thenThrows(InvalidFields, atPreceding);
      given([]).when({ ...create, content: { ...corrected, billing_reference: { invoice_number: ' ', issue_date: null } } }).thenThrows(InvalidFields, atPreceding);
      given([created]).when(update({ invoice_type: '384', billing_reference: null })).thenThrows(InvalidFields, atPreceding);
    });

    it('another type needs none', () => given([]).when(create).then([created]));
  });

  describe('validation outcomes', () => {
    const passed: ValidationOutcome = { business_rules_valid: true, xsd_valid: true, peppol_valid: true, slovak_valid: true };
    const record = (outcome: ValidationOutcome = passed, by: RequestScope = scope): InvoiceCommand => ({
      type: 'RecordValidation', invoice_id: 'i1', scope: by, validated_by: 'k1', outcome, at,
    });

    it('a draft whose validation passed becomes validated', () => given([created]).when(record()).then([validated]));

    it('validating a validated invoice again changes nothing', () => given([created, validated]).when(record()).thenNothingHappened());

    it('a failed validation leaves the draft a draft', () => {
      for (const failed of [{ business_rules_valid: false }, { xsd_valid: false }, { peppol_valid: false }, { slovak_valid: false }]) {
        given([created]).when(record({ ...passed, ...failed })).thenNothingHappened();
      }
    });

    it('a stage that could not run (its rules not loaded) proves nothing: the draft stays a draft', () =>
      given([created]).when(record({ ...passed, peppol_valid: null })).thenNothingHappened());

    it('an invoice past validation (queued, delivered) is reported on, and changes nothing', () => {
      const marked = { type: 'InvoiceMarkedSent', data: { invoice_id: 'i1', marked_by: 'k1', delivered_at: at, note: null, at } } as const;
      given([created, marked]).when(record()).thenNothingHappened();
    });

    it('another company’s invoice is not found, another organisation’s neither', () => {
      given([created]).when(record(passed, otherCompany)).thenThrows(NotFound, invoiceNotFound);
      given([created]).when(record(passed, otherOrganisation)).thenThrows(NotFound, invoiceNotFound);
    });
  });
});
