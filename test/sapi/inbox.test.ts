// The SAPI-SK inbox over real HTTP: what our Access Point receives for a company with a SAPI
// client is listed (oldest first, keyset pages), shown byte for byte, and acknowledged once.
// Messages enter where the sandbox network delivers them (receivePeppolMessage), with an SBDH
// envelope as another Access Point would send it.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { computeTotals } from '../../commands/invoices/totals.ts';
import type { InvoiceReceived } from '../../events/delivery.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { receivePeppolMessage } from '../../src/modules/delivery/inbound.ts';
import { registerCompany } from '../../src/modules/tenancy/tenancy.ts';
import { systemMetadata } from '../../src/modules/invoices/invoice-commands.ts';
import { randomSandboxIdentity } from '../../src/demo/identifiers.ts';
import { BILLING_PROCESS_ID, documentTypeFor } from '../../src/modules/delivery/peppol/identifiers.ts';
import { wrapInSbdh } from '../../src/modules/delivery/peppol/sbdh.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { eventually } from '../support/poll.ts';
import { sapiError, sapiTestClient, type SapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { generateInvoice } from '../ubl/support/generate.ts';
import { SEED } from '../ubl/support/matrix.ts';

const HANDLE = /^svc_sapi_in_[0-9a-f]{32}$/;

describe('SAPI-SK inbox (/sapi/document/receive)', function () {
  this.timeout(180_000);
  let svc: TestService;
  let receiver: SapiTestClient;
  let other: SapiTestClient;
  let sent = 0;

  before(async () => {
    svc = await startTestService();
    receiver = await sapiTestClient(svc, 1);
    other = await sapiTestClient(svc, 0);
  });
  after(async () => svc?.close());

  /** A UBL invoice from company 0 to `to`, as this service builds them; `tweak` may rewrite its text. */
  function ubl(to: string, tweak: (xml: string) => string = (x) => x, seedIndex = 0): { xml: string; number: string } {
    const content = generateInvoice(SEED, seedIndex);
    const number = `IN-${++sent}-${randomUUID().slice(0, 8)}`;
    const c = { ...content, invoice_number: number, supplier: { ...content.supplier, peppol_id: svc.demo.companies[0]!.peppol_id }, buyer: { ...content.buyer, peppol_id: to } };
    return { xml: tweak(buildUbl(c, computeTotals(c))), number };
  }

  /** Delivers a message to our Access Point as the sandbox network does; returns the message id. */
  async function deliver(to: string, document: string, messageId: string = randomUUID()): Promise<{ messageId: string; invoice_id: string; provider_document_id: string | null }> {
    const documentTypeId = documentTypeFor(document.includes('<CreditNote ') ? 'CreditNote' : 'Invoice');
    const envelope = wrapInSbdh({
      sender: svc.demo.companies[0]!.peppol_id, receiver: to, documentTypeId, processId: BILLING_PROCESS_ID,
      instanceId: messageId, createdAt: new Date('2026-11-24T08:30:00.125Z'), countryC1: 'SK', document,
    });
    const received = await receivePeppolMessage(svc.services, {
      message_id: messageId, sender_participant_id: svc.demo.companies[0]!.peppol_id, receiver_participant_id: to, document_type_id: documentTypeId,
      process_id: BILLING_PROCESS_ID, envelope, sending_ap: null,
    });
    if (!received.invoice_id) throw new Error(`the received document was refused (${received.response_code})`);
    return { messageId, invoice_id: received.invoice_id, provider_document_id: received.provider_document_id };
  }

  const list = (client: SapiTestClient, query = '') => client.call('GET', `/document/receive${query}`);
  /** Waits until the inbox shows `documentId` (its read model follows the append). */
  const listed = (client: SapiTestClient, documentId: string, status = 'RECEIVED') =>
    eventually(async () => (await client.call('GET', `/document/receive/${documentId}`)), (r) => r.status === 200 && r.body.status === status);
  /** Every document of one status, page by page. */
  async function all(client: SapiTestClient, status: string, limit = 100): Promise<{ documentId: string }[]> {
    const documents: { documentId: string }[] = [];
    let token: string | null = null;
    do {
      const page = await list(client, `?status=${status}&limit=${limit}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      documents.push(...page.body.documents);
      token = page.body.nextPageToken;
    } while (token);
    return documents;
  }

  describe('receiving', () => {
    it('gives a message for a company with a SAPI client an inbox handle from the company and the message id, and names it on the native invoice', async () => {
      const { xml } = ubl(receiver.participant_id);
      const got = await deliver(receiver.participant_id, xml);
      expect(got.provider_document_id).to.match(HANDLE);
      const events = await svc.services.store.readStream(invoiceStream(got.invoice_id));
      const invoiceReceived = events.find((e) => e.type === 'InvoiceReceived')!.data as InvoiceReceived['data'];
      expect(invoiceReceived.provider_document_id).to.equal(got.provider_document_id);
      await listed(receiver, got.provider_document_id!);
      // native invoice (source peppol) is there too, with its handle
      const native = await eventually(async () => svc.call('GET', `/companies/${receiver.company_id}/invoices/${got.invoice_id}`), (r) => r.status === 200);
      expect(native.body.source).to.equal('peppol');
    });

    it('keeps a repeated receipt of the same message as one document', async () => {
      const { xml } = ubl(receiver.participant_id);
      const first = await deliver(receiver.participant_id, xml);
      const again = await deliver(receiver.participant_id, xml, first.messageId);
      expect(again).to.deep.equal(first);
      await listed(receiver, first.provider_document_id!);
      const ids = (await all(receiver, 'RECEIVED')).map((d) => d.documentId);
      expect(ids.filter((id) => id === first.provider_document_id)).to.have.length(1);
      expect((await svc.services.store.readStream(`sapi_inbox-${first.provider_document_id}`)).map((e) => e.type)).to.deep.equal(['SapiInboxDocumentReceived']);
      expect((await svc.services.store.readStream(invoiceStream(first.invoice_id))).filter((e) => e.type === 'InvoiceReceived')).to.have.length(1);
    });

    it('keeps the same message received at the same time as one document (the loser of the append decides again)', async () => {
      const { xml } = ubl(receiver.participant_id);
      const messageId = randomUUID();
      const answers = await Promise.all([1, 2, 3, 4].map(() => deliver(receiver.participant_id, xml, messageId)));
      expect(new Set(answers.map((a) => a.provider_document_id)).size).to.equal(1);
      const handle = answers[0]!.provider_document_id!;
      expect((await svc.services.store.readStream(`sapi_inbox-${handle}`)).map((e) => e.type)).to.deep.equal(['SapiInboxDocumentReceived']);
      expect((await svc.services.store.readStream(invoiceStream(answers[0]!.invoice_id))).filter((e) => e.type === 'InvoiceReceived')).to.have.length(1);
    });

    it('names no handle (provider_document_id null) and keeps no copy for a company without a SAPI client', async () => {
      const identity = randomSandboxIdentity();
      const company = await registerCompany(svc.services, {
        organisationId: svc.demo.organisation_id, workspaceId: svc.demo.workspace_id, fields: { name: 'Bez konektora s.r.o.', ...identity },
      }, systemMetadata('test'));
      await svc.services.projections.shown([company.position], 30_000);
      const got = await deliver(identity.peppol_id, ubl(identity.peppol_id).xml);
      expect(got.provider_document_id).to.equal(null);
      const events = await svc.services.store.readStream(invoiceStream(got.invoice_id));
      expect((events.find((e) => e.type === 'InvoiceReceived')!.data as InvoiceReceived['data']).provider_document_id).to.equal(null);
    });
  });

  describe('the list', () => {
    it('is documented in /sapi/openapi.json with the other inbox routes', async () => {
      const doc = (await (await fetch(`${svc.root}/sapi/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
      const paths = Object.keys(doc.paths).filter((p) => p.includes('/document/receive'));
      expect(paths.map((p) => p.replace(/^\/sapi/, '')).sort()).to.deep.equal(['/document/receive', '/document/receive/{documentId}', '/document/receive/{documentId}/acknowledge']);
    });

    it('needs the document:receive scope (SAPI-AUTH-SCOPE) and the participant header (SAPI-VAL-001, another one SAPI-AUTH-PARTICIPANT)', async () => {
      const sendOnly = await sapiTestClient(svc, 1, { scopes: ['document:send'] });
      const scope = await list(sendOnly);
      expect(scope.status).to.equal(403);
      expect(sapiError(scope).code).to.equal('SAPI-AUTH-SCOPE');
      const missing = await receiver.call('GET', '/document/receive', undefined, { 'x-peppol-participant-id': '' });
      expect(missing.status).to.equal(400);
      expect(sapiError(missing)).to.deep.include({ code: 'SAPI-VAL-001', details: [{ field: 'X-Peppol-Participant-Id', issue: 'required' }] });
      const foreign = await receiver.call('GET', '/document/receive', undefined, { 'x-peppol-participant-id': other.participant_id });
      expect(sapiError(foreign).code).to.equal('SAPI-AUTH-PARTICIPANT');
    });

    it('lists oldest first in keyset pages that stay stable while documents arrive; nextPageToken is null on the last page', async () => {
      const before = (await all(receiver, 'RECEIVED')).length;
      const handles: string[] = [];
      for (let i = 0; i < 5; i++) handles.push((await deliver(receiver.participant_id, ubl(receiver.participant_id).xml)).provider_document_id!);
      await listed(receiver, handles[4]!);
      // walk to the new documents two at a time; one more arrives after the first page
      const seen: string[] = [];
      let page = await list(receiver, '?limit=2');
      expect(page.body.documents).to.have.length(2);
      const late = (await deliver(receiver.participant_id, ubl(receiver.participant_id).xml)).provider_document_id!;
      await listed(receiver, late);
      seen.push(...page.body.documents.map((d: { documentId: string }) => d.documentId));
      while (page.body.nextPageToken) {
        page = await list(receiver, `?limit=2&pageToken=${encodeURIComponent(page.body.nextPageToken)}`);
        expect(page.status).to.equal(200);
        expect(page.body.documents.length).to.be.within(1, 2);
        seen.push(...page.body.documents.map((d: { documentId: string }) => d.documentId));
      }
      expect(page.body.nextPageToken).to.equal(null);
      expect(seen).to.have.length(before + 6);
      expect(new Set(seen).size).to.equal(seen.length);
      expect(seen.slice(-6)).to.deep.equal([...handles, late]);
      const item = page.body.documents[page.body.documents.length - 1];
      expect(Object.keys(item).sort()).to.deep.equal(['creationDateTime', 'documentId', 'documentTypeId', 'processId', 'receivedAt', 'receiverParticipantId', 'senderParticipantId', 'status']);
      expect(item).to.include({
        documentId: late, documentTypeId: documentTypeFor('Invoice'), processId: BILLING_PROCESS_ID, senderParticipantId: svc.demo.companies[0]!.peppol_id.toLowerCase(),
        receiverParticipantId: receiver.participant_id.toLowerCase(), creationDateTime: '2026-11-24T08:30:00.125Z', status: 'RECEIVED',
      });
    });

    it('takes limit 1 to 100 (default 50) and refuses anything else with SAPI-VAL-001', async () => {
      for (const bad of ['0', '101', 'x']) {
        const refused = await list(receiver, `?limit=${bad}`);
        expect(refused.status, bad).to.equal(400);
        expect(sapiError(refused).code).to.equal('SAPI-VAL-001');
        expect(sapiError(refused).details[0]!.field).to.equal('query.limit');
      }
      expect((await list(receiver, '?status=BOGUS')).status).to.equal(400);
      const count = (await all(receiver, 'RECEIVED')).length;
      const page = await list(receiver);
      expect(page.body.documents).to.have.length(Math.min(count, 50));
    });

    it('refuses a tampered page token, and one issued to another participant, with SAPI-VAL-001', async () => {
      for (let i = 0; i < 2; i++) await deliver(receiver.participant_id, ubl(receiver.participant_id).xml);
      const token: string = (await eventually(() => list(receiver, '?limit=1'), (r) => r.body.nextPageToken !== null)).body.nextPageToken;
      const [head, body, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
      const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, after: '' })).toString('base64url')}.${signature}`;
      for (const bad of [forged, `${token.slice(0, -2)}xx`, 'not-a-token']) {
        const refused = await list(receiver, `?pageToken=${encodeURIComponent(bad)}`);
        expect(refused.status).to.equal(400);
        expect(sapiError(refused)).to.deep.include({ code: 'SAPI-VAL-001' });
        expect(sapiError(refused).details[0]!.field).to.equal('pageToken');
      }
      const foreign = await list(other, `?pageToken=${encodeURIComponent(token)}`);
      expect(sapiError(foreign).code).to.equal('SAPI-VAL-001');
      // a token lists one status: naming another beside it is refused, naming the same is fine
      const otherStatus = await list(receiver, `?status=ACKNOWLEDGED&pageToken=${encodeURIComponent(token)}`);
      expect(sapiError(otherStatus)).to.deep.include({ code: 'SAPI-VAL-001', details: [{ field: 'status', issue: 'the pageToken lists RECEIVED' }] });
      expect((await list(receiver, `?status=RECEIVED&limit=1&pageToken=${encodeURIComponent(token)}`)).status).to.equal(200);
      // an access token is not a page token either
      expect(sapiError(await list(receiver, `?pageToken=${encodeURIComponent(receiver.token)}`)).code).to.equal('SAPI-VAL-001');
    });
  });

  describe('the detail and acknowledge', () => {
    it('returns the metadata nested and the UBL byte for byte as the sender wrote it, with its checksum', async () => {
      // a sender whose serialiser writes single quotes and character references (an empty element
      // written open and shut would break PEPPOL-EN16931-R008, and the receiving side refuses it now)
      const { xml, number } = ubl(receiver.participant_id, (x) => x.replace(/xmlns:cbc="([^"]+)"/, "xmlns:cbc='$1'").replace('<cbc:Note>', '<cbc:Note>&#65;&#x42;'));
      const got = await deliver(receiver.participant_id, xml);
      const detail = (await listed(receiver, got.provider_document_id!)).body;
      expect(detail.payload).to.equal(xml);
      expect(detail).to.include({ documentId: got.provider_document_id, payloadFormat: 'XML', payloadEncoding: 'UTF-8', status: 'RECEIVED', acknowledgedDateTime: null });
      expect(detail.checksum).to.equal((await import('node:crypto')).createHash('sha256').update(Buffer.from(xml, 'utf8')).digest('hex'));
      expect(detail.metadata).to.deep.equal({
        documentId: got.provider_document_id, documentTypeId: documentTypeFor('Invoice'), processId: BILLING_PROCESS_ID,
        senderParticipantId: svc.demo.companies[0]!.peppol_id.toLowerCase(), receiverParticipantId: receiver.participant_id.toLowerCase(),
        creationDateTime: '2026-11-24T08:30:00.125Z', senderDocumentId: number,
      });
    });

    it('keeps a credit note the same way, under its own document type', async () => {
      const { xml, number } = ubl(receiver.participant_id, (x) => x, 2);
      expect(xml).to.include('<CreditNote ');
      const got = await deliver(receiver.participant_id, xml);
      const detail = (await listed(receiver, got.provider_document_id!)).body;
      expect(detail.payload).to.equal(xml);
      expect(detail.metadata).to.include({ documentTypeId: documentTypeFor('CreditNote'), senderDocumentId: number });
    });

    it('shows a document written a moment ago at once, as a client told by invoice.received expects (the read model is waited for)', async () => {
      const got = await deliver(receiver.participant_id, ubl(receiver.participant_id).xml);
      const detail = await receiver.call('GET', `/document/receive/${got.provider_document_id}`);
      expect(detail.status, JSON.stringify(detail.body)).to.equal(200);
      expect(detail.body.documentId).to.equal(got.provider_document_id);
    });

    it("answers SAPI-DOC-NOT-FOUND for an unknown document, a malformed id, and another participant's", async () => {
      const got = await deliver(receiver.participant_id, ubl(receiver.participant_id).xml);
      await listed(receiver, got.provider_document_id!);
      for (const [client, id] of [[receiver, `svc_sapi_in_${'0'.repeat(32)}`], [receiver, 'nonsense'], [other, got.provider_document_id!]] as const) {
        for (const [method, path] of [['GET', `/document/receive/${id}`], ['POST', `/document/receive/${id}/acknowledge`]] as const) {
          const refused = await client.call(method, path);
          expect(refused.status, `${method} ${path}`).to.equal(404);
          expect(sapiError(refused)).to.deep.include({ code: 'SAPI-DOC-NOT-FOUND', category: 'PERMANENT', retryable: false });
        }
      }
      // the refused acknowledge of another participant changed nothing
      expect((await receiver.call('GET', `/document/receive/${got.provider_document_id}`)).body.status).to.equal('RECEIVED');
    });

    it('acknowledges once: the answer, the list right after, and a repeat that keeps the first timestamp', async () => {
      const got = await deliver(receiver.participant_id, ubl(receiver.participant_id).xml);
      const handle = got.provider_document_id!;
      await listed(receiver, handle);
      const first = await receiver.call('POST', `/document/receive/${handle}/acknowledge`);
      expect(first.status, JSON.stringify(first.body)).to.equal(200);
      expect(Object.keys(first.body).sort()).to.deep.equal(['acknowledgedDateTime', 'documentId', 'status']);
      expect(first.body).to.include({ documentId: handle, status: 'ACKNOWLEDGED' });
      // read-your-writes: no waiting
      expect((await all(receiver, 'ACKNOWLEDGED')).map((d) => d.documentId)).to.include(handle);
      expect((await all(receiver, 'RECEIVED')).map((d) => d.documentId)).to.not.include(handle);
      const detail = await receiver.call('GET', `/document/receive/${handle}`);
      expect(detail.body).to.include({ status: 'ACKNOWLEDGED', acknowledgedDateTime: first.body.acknowledgedDateTime });
      await new Promise((r) => setImmediate(r));
      const again = await receiver.call('POST', `/document/receive/${handle}/acknowledge`, '');
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal(first.body);
      expect((await svc.services.store.readStream(`sapi_inbox-${handle}`)).map((e) => e.type)).to.deep.equal(['SapiInboxDocumentReceived', 'SapiInboxDocumentAcknowledged']);
    });
  });
});
