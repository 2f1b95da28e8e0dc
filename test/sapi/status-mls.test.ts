// Issue 39: a SAPI-SK document shows the receiving Access Point's Message Level Status beside its
// status. In the sandbox the buyer's side answers AP after PEPPOL_SANDBOX_DELIVERY_DELAY_MS, and the
// MLS comes back through the sandbox network to our sending side.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { sapiDocumentDecider } from '../../commands/sapi/document.ts';
import { mlsReceivedStream } from '../../commands/mls/received.ts';
import { fold } from '../../commands/shared/decider.ts';
import { documentIdOf, sapiDocumentStream, type SapiDocumentEvent, type SapiDocumentMlsReceived } from '../../events/sapi-documents.ts';
import type { MlsReceived } from '../../events/mls.ts';
import type { MessageLevelStatus } from '../../src/modules/mls/index.ts';
import { sapiMlsMatcher } from '../../src/modules/sapi/index.ts';
import { statusOf } from '../../src/modules/sapi/outbound/status.ts';
import { eventually } from '../support/poll.ts';
import { sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, ublBetween } from './support/send.ts';

const fixture = (type: SapiDocumentEvent['type'], version = 1) =>
  JSON.parse(readFileSync(new URL(`../fixtures/events/${type}.v${version}.json`, import.meta.url), 'utf8')) as SapiDocumentEvent;

describe('SAPI-SK status: the receiving Access Point\'s MLS', function () {
  this.timeout(600_000);

  it('shows an RE with its reasons, camelCase, beside a status it leaves SENT', () => {
    const view = fold(sapiDocumentDecider, [fixture('SapiDocumentAccepted'), fixture('SapiDocumentProcessing'), fixture('SapiDocumentSent', 2), fixture('SapiDocumentMlsReceived')]);
    const mls = (fixture('SapiDocumentMlsReceived') as SapiDocumentMlsReceived).data;
    const status = statusOf(view!, new Date('2026-11-24T15:03:00Z'));
    expect(status.status).to.equal('SENT');
    expect(status.mls).to.deep.equal({
      responseCode: 'RE', description: mls.description, receivedAt: mls.received_at,
      reasons: mls.issues.map((i) => ({ location: i.location, description: i.description, reasonCode: i.reason })),
    });
    expect(status.updatedAt).to.equal(mls.received_at);
    expect(statusOf(fold(sapiDocumentDecider, [fixture('SapiDocumentAccepted')])!, new Date()).mls).to.equal(null);
    // a view stored before the MLS was kept has no such field: shown as none
    const { mls: _none, ...older } = view!;
    expect(statusOf(older, new Date()).mls).to.equal(null);
  });

  describe('in the sandbox', () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService();
      await svc.services.validator(); // the rule sets load before any send
    });
    after(async () => svc?.close());

    it('a document sent from company 0 to company 1 gets its MLS AP back: the status shows it, and the MLS is kept as this document\'s', async () => {
      const client = await sapiTestClient(svc, 0);
      const buyer = svc.demo.companies[1]!;
      const { xml } = await ublBetween(svc, { companyId: svc.demo.companies[0]!.id }, buyer);
      const answer = await client.call('POST', '/document/send', sendRequest(xml, client.participant_id, buyer.sapi.participant_id), { 'idempotency-key': newKey() });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(202);
      const id = answer.body.providerDocumentId as string;

      const status = await eventually(async () => (await client.call('GET', `/document/status/${id}`)).body,
        (s) => s.status === 'SENT' && s.mls !== null, { what: 'SENT with its MLS', withinMs: 60_000 });
      expect(status.mls).to.deep.include({ responseCode: 'AP', description: null, reasons: [] });
      expect(Date.parse(status.mls.receivedAt)).to.be.a('number').and.not.NaN;

      const documentId = documentIdOf(id)!;
      const events = await svc.services.store.readStream(sapiDocumentStream(documentId));
      const kept = events.filter((e) => e.type === 'SapiDocumentMlsReceived').map((e) => e.data as SapiDocumentMlsReceived['data']);
      expect(kept).to.have.length(1);
      expect(kept[0]).to.include({ peppol_message_id: status.peppolMessageId, response_code: 'AP', received_at: status.mls.receivedAt });
      // our sandbox MLS travels in a message whose instance id is its own id: its MlsReceived names this document
      const [received] = await svc.services.store.readStream(mlsReceivedStream(kept[0]!.mls_id));
      expect((received?.data as MlsReceived['data']).matched).to.deep.equal({ kind: 'sapi_document', id: documentId });
      expect((received?.data as MlsReceived['data']).repeat).to.equal(false);

      // the same MLS again changes nothing (applied false); an MLS for a message no document sent is not this matcher's
      const match = sapiMlsMatcher(svc.services);
      const again: MessageLevelStatus = {
        id: kept[0]!.mls_id, issued_at: kept[0]!.received_at, sender: svc.services.ourSpis, receiver: svc.services.ourSpis, response_code: 'AP',
        description: null, referenced_instance_id: status.peppolMessageId, issues: [],
      };
      expect(await match(again, svc.services.clock.now().toISOString())).to.deep.equal({ kind: 'sapi_document', id: documentId, applied: false });
      expect(await match({ ...again, referenced_instance_id: '00000000-0000-4000-8000-000000000000' }, svc.services.clock.now().toISOString())).to.equal(null);
      const after = await client.call('GET', `/document/status/${id}`);
      expect(after.body.mls).to.deep.equal(status.mls);
    });
  });
});
