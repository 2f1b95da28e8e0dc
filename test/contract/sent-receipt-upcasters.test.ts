import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { invoiceDecider } from '../../commands/invoices/decider.ts';
import { sapiDocumentDecider } from '../../commands/sapi/document.ts';
import { fold } from '../../commands/shared/decider.ts';
import type { DeliveryEvent, PeppolMessageSent } from '../../events/delivery.ts';
import type { InvoiceEvent } from '../../events/invoices.ts';
import type { SapiDocumentEvent, SapiDocumentSent } from '../../events/sapi-documents.ts';
import type { RecordedEvent } from '../../src/platform/eventstore/port.ts';
import { EVENT_CONTRACTS, Upcasting } from '../../src/platform/eventstore/upcasting.ts';

/**
 * The sent events of both doors at version 2 keep the AS4 receipt (issue 38 item 1). One stored
 * at version 1, before the receipt was kept, reads as version 2 with `as4: null`: no receipt is
 * known for it, as for a sandbox send.
 */
interface Fixture { stream_id: string; type: string; version: number; data: Record<string, unknown> }
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/events/${name}.json`, import.meta.url), 'utf8')) as Fixture;

function recorded(f: Fixture, version?: number): RecordedEvent {
  return {
    id: 'e', streamId: f.stream_id, revision: 3, position: 'p', type: f.type, data: f.data,
    metadata: version === undefined ? { correlationId: 'c' } : { correlationId: 'c', version }, recordedAt: new Date(0),
  };
}

describe('the sent events keep the AS4 receipt: version 2 and its upcaster', () => {
  const upcasting = new Upcasting(EVENT_CONTRACTS);

  for (const type of ['PeppolMessageSent', 'SapiDocumentSent'] as const) {
    it(`${type} version 1 (no version in its metadata) reads as version 2 with as4 null, the rest as stored`, () => {
      const v1 = fixture(`${type}.v1`);
      const before = structuredClone(v1.data);
      const read = upcasting.upcast(recorded(v1));
      expect(read.metadata.version).to.equal(2);
      expect(read.data).to.deep.equal({ ...before, as4: null });
      expect(v1.data, 'the stored payload is not changed').to.deep.equal(before);
    });

    it(`${type} version 2 is read as stored`, () => {
      const event = recorded(fixture(`${type}.v2`), 2);
      expect(upcasting.upcast(event)).to.equal(event);
    });

    it(`a new ${type} is written as version 2`, () => {
      expect(upcasting.stamp({ id: 'n', type, data: {}, metadata: {} }).metadata.version).to.equal(2);
    });
  }

  it('the version 2 fixtures fold: the invoice is sent_peppol, the SAPI document SENT', () => {
    const sent = fixture('PeppolMessageSent.v2') as unknown as PeppolMessageSent;
    expect(sent.data.as4?.receipt).to.contain('eb:Receipt').and.contain(sent.data.as4?.message_id);
    const invoice = [fixture('InvoiceCreated.v1'), fixture('InvoiceQueued.v1')] as unknown as (InvoiceEvent | DeliveryEvent)[];
    expect(fold(invoiceDecider, [...invoice, { type: 'PeppolMessageSent', data: sent.data }]).status).to.equal('sent_peppol');
    const document = [fixture('SapiDocumentAccepted.v1'), fixture('SapiDocumentProcessing.v1')] as unknown as SapiDocumentEvent[];
    const sapiSent = fixture('SapiDocumentSent.v2') as unknown as SapiDocumentSent;
    expect(fold(sapiDocumentDecider, [...document, { type: 'SapiDocumentSent', data: sapiSent.data }])?.status).to.equal('SENT');
  });
});
