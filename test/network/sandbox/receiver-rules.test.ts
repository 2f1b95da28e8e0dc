import { expect } from 'chai';
import { content } from '../../../commands/invoices/test-fixtures.ts';
import { computeTotals } from '../../../commands/invoices/totals.ts';
import { BILLING_PROCESS_ID, INVOICE_DOCUMENT_TYPE_ID } from '../../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../../src/modules/delivery/peppol/sbdh.ts';
import { PeppolRefusedError, PeppolRejectedError } from '../../../src/modules/delivery/peppol/peppol-network.ts';
import { SANDBOX_REJECTION_RULE, SANDBOX_REJECT_BUYER_REFERENCE, sandboxReceiverRejection } from '../../../src/modules/delivery/sandbox/receiver-rules.ts';
import { buildUbl } from '../../../src/modules/invoices/ubl/index.ts';

const envelope = (buyerReference: string | null, note: string | null = null) => {
  const document = { ...content, buyer: { ...content.buyer, peppol_id: '9950:sk2020000004svctest' }, buyer_reference: buyerReference, note };
  return wrapInSbdh({
    sender: '9950:sk2020273893svctest', receiver: '9950:sk2020000004svctest', documentTypeId: INVOICE_DOCUMENT_TYPE_ID, processId: BILLING_PROCESS_ID,
    instanceId: '4d386b06-f4a3-4d74-bfbb-31668bd153b7', createdAt: new Date('2026-11-22T10:15:30.250Z'), countryC1: 'SK',
    document: buildUbl(document, computeTotals(document)),
  });
};

describe('the sandbox receiver\'s rejection', () => {
  it('rejects a document whose buyer reference is SANDBOX-REJECT: a rejection from the receiving side, for good, with its finding', () => {
    const rejection = sandboxReceiverRejection(envelope(SANDBOX_REJECT_BUYER_REFERENCE));
    expect(rejection).to.be.instanceOf(PeppolRejectedError);
    expect(rejection).to.be.instanceOf(PeppolRefusedError); // permanent: the delivery reactor does not retry it
    expect(rejection?.findings).to.deep.equal([SANDBOX_REJECTION_RULE]);
  });

  it('takes any other document, even one that mentions the marker elsewhere', () => {
    expect(sandboxReceiverRejection(envelope('PO-4711'))).to.equal(null);
    expect(sandboxReceiverRejection(envelope(null))).to.equal(null);
    expect(sandboxReceiverRejection(envelope('PO-4711', `please do not ${SANDBOX_REJECT_BUYER_REFERENCE}`))).to.equal(null);
  });
});
