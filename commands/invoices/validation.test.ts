import { expect } from 'chai';
import { fold } from '../shared/decider.ts';
import { invoiceDecider, type KnownInvoice } from './decider.ts';
import type { InvoiceStreamEvent } from './state.ts';
import { at, created } from './test-fixtures.ts';
import { RECORDED_VALIDATION_ERRORS, validationFailure, type ValidationOutcome } from './validation.ts';

const known = (events: readonly InvoiceStreamEvent[]): KnownInvoice => {
  const state = fold(invoiceDecider, events);
  if (state.status === 'none') throw new Error('no invoice');
  return state;
};
const draft = known([created]);
const failing: ValidationOutcome = { business_rules_valid: true, xsd_valid: true, peppol_valid: false, slovak_valid: true };
const finding = (n: number) => ({ rule: `PEPPOL-EN16931-R${n}`, message: `finding ${n}`, location: '/Invoice' });
const input = (outcome: ValidationOutcome, errors = [finding(10)]) => ({ outcome, errors, validated_by: 'k1', at });

describe('a failed validation is recorded (invoice.validation_failed)', () => {
  it('for a draft issued here: its stages, its findings, who asked and when', () => {
    expect(validationFailure(draft, input(failing))).to.deep.equal({
      type: 'InvoiceValidationFailed',
      data: {
        invoice_id: 'i1', organisation_id: 'o1', company_id: 'c1', validated_by: 'k1', business_rules_valid: true, xsd_valid: true, peppol_valid: false,
        slovak_valid: true, error_count: 1, errors: [finding(10)], failed_at: at,
      },
    });
  });

  it('also when a stage could not run, with no finding to show', () => {
    const event = validationFailure(draft, input({ ...failing, peppol_valid: null }, []));
    expect(event?.data).to.include({ peppol_valid: null, error_count: 0 });
  });

  it('keeps the first 50 findings and counts them all', () => {
    const errors = Array.from({ length: 120 }, (_, i) => finding(i));
    const event = validationFailure(draft, input(failing, errors));
    expect(event?.data.error_count).to.equal(120);
    expect(event?.data.errors).to.deep.equal(errors.slice(0, RECORDED_VALIDATION_ERRORS));
  });

  it('never for a passing validation', () => {
    expect(validationFailure(draft, input({ business_rules_valid: true, xsd_valid: true, peppol_valid: true, slovak_valid: true }, []))).to.equal(null);
  });

  it('never for an invoice already sent: the answer is nothing to act on', () => {
    const queued = known([created, { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'k1', peppol_message_id: 'm1', receiver_participant_id: '9950:x', queued_at: at } }]);
    expect(validationFailure(queued, input(failing))).to.equal(null);
  });
});
