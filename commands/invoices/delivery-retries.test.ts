import { expect } from 'chai';
import type { DeliveryEvent } from '../../events/delivery.ts';
import { fold } from '../shared/decider.ts';
import { specFor } from '../shared/given.ts';
import { invoiceDecider, type InvoiceCommand } from './decider.ts';
import { fsVerdictDeadline, nextAttemptAt } from './delivery-retries.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { at, content, created } from './test-fixtures.ts';

const buyerId = '9950:sk2020000004svctest';
const addressed = { ...created, data: { ...created.data, content: { ...content, buyer: { ...content.buyer, peppol_id: buyerId } } } } as InvoiceEvent;
const queued: DeliveryEvent = { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'k1', peppol_message_id: 'm1', receiver_participant_id: buyerId, queued_at: at } };
const history = [addressed, queued];
const given = specFor(invoiceDecider);
const policy = { maxAttempts: 3, retryBaseMs: 5_000 };
const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
const failed = (leg: 'peppol' | 'fs', failure: Extract<InvoiceCommand, { type: 'RecordDeliveryAttemptFailed' }>['failure'], when = at): InvoiceCommand => ({
  type: 'RecordDeliveryAttemptFailed', invoice_id: 'i1', leg, reason: 'no answer', failure, policy, at: when,
});
const attemptFailed = (leg: 'peppol' | 'fs', attempt: number, failedAt: string, retryAt: string | null): DeliveryEvent => ({
  type: 'DeliveryAttemptFailed', data: { invoice_id: 'i1', leg, attempt, reason: 'no answer', retry_at: retryAt, failed_at: failedAt },
});

describe('delivery retries (the rule the delivery worker carries out)', () => {
  it('waits base × 5^(n-1) after attempt n, and has no attempt after the last', () => {
    expect(nextAttemptAt(policy, 1, at)).to.equal(later(5_000));
    expect(nextAttemptAt(policy, 2, at)).to.equal(later(25_000));
    expect(nextAttemptAt(policy, 3, at)).to.equal(null);
    expect(nextAttemptAt({ maxAttempts: 5, retryBaseMs: 5_000 }, 4, at)).to.equal(later(625_000));
  });

  it('records a transport failure with the time of the next attempt, which the leg then shows as due', () => {
    given(history).when(failed('peppol', { kind: 'transport' })).then([attemptFailed('peppol', 1, at, later(5_000))]);
    const state = fold(invoiceDecider, [...history, attemptFailed('peppol', 1, at, later(5_000))]);
    expect(state.status === 'none' ? null : state.delivery.peppol).to.include({ status: 'queued', attempts: 1, next_attempt_at: later(5_000) });
  });

  it('gives the leg up in the same decision as its last failed attempt', () => {
    const before = [...history, attemptFailed('peppol', 1, at, later(5_000)), attemptFailed('peppol', 2, later(5_000), later(30_000))];
    given(before).when(failed('peppol', { kind: 'transport' }, later(30_000))).then([
      attemptFailed('peppol', 3, later(30_000), null),
      {
        type: 'PeppolDeliveryFailed',
        data: { invoice_id: 'i1', peppol_message_id: 'm1', reason: 'gave up after 3 attempts: no answer', findings: [], attempts: 3, failed_at: later(30_000) },
      },
    ]);
    const fsBefore = [...history, attemptFailed('fs', 1, at, later(5_000)), attemptFailed('fs', 2, at, later(25_000))];
    given(fsBefore).when(failed('fs', { kind: 'transport' })).then([
      attemptFailed('fs', 3, at, null),
      { type: 'FsFilingFailed', data: { invoice_id: 'i1', reason: 'gave up after 3 attempts: no answer', attempts: 3, failed_at: at } },
    ]);
  });

  it('ends the leg at once on a refusal, never retried; the receiver’s own refusal is marked as a rejection', () => {
    given(history).when(failed('peppol', { kind: 'refused' })).then([
      { type: 'PeppolDeliveryFailed', data: { invoice_id: 'i1', peppol_message_id: 'm1', reason: 'no answer', findings: [], attempts: 0, failed_at: at } },
    ]);
    const findings = [{ rule: 'R1', message: 'no' }];
    given(history).when(failed('peppol', { kind: 'rejected', findings })).then([
      { type: 'PeppolDeliveryFailed', data: { invoice_id: 'i1', peppol_message_id: 'm1', reason: 'no answer', findings, attempts: 0, failed_at: at, rejected_by_receiver: true } },
    ]);
    given(history).when(failed('fs', { kind: 'refused' })).then([{ type: 'FsFilingFailed', data: { invoice_id: 'i1', reason: 'no answer', attempts: 0, failed_at: at } }]);
  });

  describe('the FS verdict', () => {
    const submitted: DeliveryEvent = { type: 'FsCopySubmitted', data: { invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', reporter_role: 'C2', submitted_at: at } };
    const day = 86_400_000;
    const overdue = (when: string, submission = 's1'): InvoiceCommand => ({ type: 'RecordFsVerdictOverdue', invoice_id: 'i1', fs_submission_id: submission, deadline_ms: 3 * day, at: when });

    it('is waited for until the deadline, and then the leg fails with the reason', () => {
      expect(fsVerdictDeadline(at, 3 * day)).to.equal(later(3 * day));
      given([...history, submitted]).when(overdue(later(3 * day - 1))).then([]);
      given([...history, submitted]).when(overdue(later(3 * day))).then([
        {
          type: 'FsFilingFailed',
          data: {
            invoice_id: 'i1', attempts: 0, failed_at: later(3 * day),
            reason: `FS gave no verdict on submission s1 within 72 h of filing (until ${later(3 * day)}); ask FS about it or file it again`,
          },
        },
      ]);
    });

    it('decides nothing once a verdict is in, or for another submission', () => {
      const acked: DeliveryEvent = { type: 'FsCopyAcknowledged', data: { invoice_id: 'i1', fs_submission_id: 's1', tdd_uuid: 't1', mls_response_code: 'AP', acknowledged_at: at } };
      given([...history, submitted, acked]).when(overdue(later(4 * day))).then([]);
      given([...history, submitted]).when(overdue(later(4 * day), 's2')).then([]);
    });
  });
});
