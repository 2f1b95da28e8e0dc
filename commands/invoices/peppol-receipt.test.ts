import { expect } from 'chai';
import type { DeliveryEvent } from '../../events/delivery.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import { fold } from '../shared/decider.ts';
import { DomainError } from '../shared/domain-error.ts';
import { invoiceDecider } from './decider.ts';
import { peppolReceiptOf } from './peppol-receipt.ts';
import type { InvoiceStreamEvent, KnownInvoice } from './state.ts';
import { at, content, created } from './test-fixtures.ts';

const buyerId = '9950:sk2020000004svctest';
const addressed = { ...created, data: { ...created.data, content: { ...content, buyer: { ...content.buyer, peppol_id: buyerId } } } } as InvoiceEvent;
const queued: DeliveryEvent = { type: 'InvoiceQueued', data: { invoice_id: 'i1', queued_by: 'k1', peppol_message_id: 'm1', receiver_participant_id: buyerId, queued_at: at } };
const as4 = { message_id: 'm1@POP000001', receipt: '<env:Envelope>…signed eb:Receipt…</env:Envelope>', receiving_ap: 'POP000002' };
const sentWith = (receipt: typeof as4 | null, message = 'm1'): DeliveryEvent => ({
  type: 'PeppolMessageSent',
  data: { invoice_id: 'i1', peppol_message_id: message, sender_participant_id: 's', receiver_participant_id: buyerId, document_type_id: 'doc', sent_at: at, as4: receipt },
});

function receiptAfter(...events: InvoiceStreamEvent[]) {
  return peppolReceiptOf(fold(invoiceDecider, events) as KnownInvoice, events);
}
function refusalAfter(...events: InvoiceStreamEvent[]): DomainError {
  try {
    receiptAfter(...events);
  } catch (error) {
    expect(error).to.be.instanceOf(DomainError);
    return error as DomainError;
  }
  return expect.fail('expected peppol_receipt_not_found');
}

describe('the AS4 receipt an auditor is shown', () => {
  it('is the one kept on the sent event of the invoice\'s Peppol message, with its message ids and time', () => {
    expect(receiptAfter(addressed, queued, sentWith(as4))).to.deep.equal({ ...as4, peppol_message_id: 'm1', sent_at: at });
  });

  it('is not found (with the leg\'s status) before the send is recorded, for a sandbox send (as4 null), or for another message', () => {
    expect(refusalAfter(addressed)).to.deep.include({ code: 'peppol_receipt_not_found', extra: { peppol_status: 'not_sent' } });
    expect(refusalAfter(addressed, queued)).to.deep.include({ code: 'peppol_receipt_not_found', extra: { peppol_status: 'queued' } });
    expect(refusalAfter(addressed, queued, sentWith(null))).to.deep.include({ code: 'peppol_receipt_not_found', extra: { peppol_status: 'sent' } });
    expect(refusalAfter(addressed, queued, sentWith(as4, 'old'))).to.include({ code: 'peppol_receipt_not_found' });
  });
});
