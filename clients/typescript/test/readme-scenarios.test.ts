import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { eventually } from '../../../test/support/poll.ts';
import { startTestService, type TestService } from '../../../test/support/service.ts';
import { WebhookReceiver, type Arrival } from '../../../test/support/webhook-receiver.ts';
import { createClient, createSapiClient, verifyWebhook, type Fetch, type NativeClient } from '../src/index.ts';

const INVOICE_DOCUMENT_TYPE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const POLL = { everyMs: 500 }; // the demo key's budget: 120 requests a minute

/** The README's walk-throughs, through the SDK only, against a service this suite starts. */
describe('the SDK against a started service: the README\'s scenarios', function () {
  this.timeout(600_000);
  let svc: TestService;
  let native: NativeClient;
  let company: string;
  let buyerCustomer: string;

  before(async () => {
    svc = await startTestService();
    await svc.services.validator(); // the rule sets compile once, before any validation is waited on
    native = createClient({ baseUrl: svc.root, apiKey: svc.demo.api_key });
    company = svc.demo.companies[0]!.id;
  });
  after(async () => svc?.close());

  /** A draft from company 0 to the customer that is demo company 1. */
  const draft = async (item: string) => {
    const { data, error } = await native.POST('/companies/{company_id}/invoices', {
      params: { path: { company_id: company } },
      body: { issue_date: '2026-11-22', due_date: '2026-12-06', customer_id: buyerCustomer, lines: [{ item_name: item, quantity: '2', unit_code: 'HUR', unit_price: '50.00', vat_rate: '23' }] },
    });
    expect(error, JSON.stringify(error)).to.equal(undefined);
    return data!;
  };

  it('native API with an API key: create a customer, an invoice, validate, get UBL, send, list', async () => {
    const other = svc.demo.companies[1]!;
    const customer = await native.POST('/companies/{company_id}/customers', {
      params: { path: { company_id: company } },
      body: { name: other.name, vat_id: other.vat_id, ico: other.ico, dic: other.dic, peppol_id: other.peppol_id },
    });
    expect(customer.response.status, JSON.stringify(customer.error)).to.equal(201);
    buyerCustomer = customer.data!.id;
    const found = await native.GET('/companies/{company_id}/customers/search', { params: { path: { company_id: company }, query: { q: other.ico } } });
    expect(found.data?.map((c) => c.id)).to.include(buyerCustomer);

    const invoice = await draft('Konzultácia');
    expect(invoice).to.include({ status: 'draft', total_net: '100.00', total_vat: '23.00', total_gross: '123.00' });

    const validated = await native.POST('/companies/{company_id}/invoices/{invoice_id}/validate', { params: { path: { company_id: company, invoice_id: invoice.id } } });
    expect(validated.data, JSON.stringify(validated.error)).to.include({ valid: true, status: 'validated' });

    const ubl = await native.GET('/companies/{company_id}/invoices/{invoice_id}/ubl', { params: { path: { company_id: company, invoice_id: invoice.id } }, parseAs: 'text' });
    expect(ubl.response.headers.get('content-type')).to.match(/xml/);
    expect(ubl.data).to.contain('<Invoice').and.contain(other.peppol_id.split(':')[1]);

    const sent = await native.POST('/companies/{company_id}/invoices/{invoice_id}/send', { params: { path: { company_id: company, invoice_id: invoice.id } } });
    expect(sent.response.status, JSON.stringify(sent.error)).to.equal(202);
    expect(sent.data).to.include({ invoice_id: invoice.id, status: 'queued' });
    const done = await eventually(
      async () => (await native.GET('/companies/{company_id}/invoices/{invoice_id}', { params: { path: { company_id: company, invoice_id: invoice.id } } })).data?.status,
      (status) => status === 'delivered' || status === 'fs_acknowledged', { ...POLL, what: 'the invoice delivered' },
    );
    expect(done).to.be.oneOf(['delivered', 'fs_acknowledged']);

    const listed = await native.GET('/companies/{company_id}/invoices', { params: { path: { company_id: company }, query: { q: other.name } } });
    expect(listed.data?.items.map((row) => row.id)).to.include(invoice.id);
    // the receiving company has its own copy
    const received = await eventually(
      async () => (await native.GET('/companies/{company_id}/invoices', { params: { path: { company_id: other.id } } })).data?.items ?? [],
      (items) => items.some((row) => row.invoice_number === invoice.invoice_number), { ...POLL, what: 'the copy at company 1' },
    );
    expect(received).to.have.length.greaterThan(0);
  });

  // The call is the README's `…/pdf > faktura.pdf`.
  it('native API: the invoice\'s PDF as bytes', async () => {
    const invoice = await draft('PDF');
    const pdf = await native.GET('/companies/{company_id}/invoices/{invoice_id}/pdf', { params: { path: { company_id: company, invoice_id: invoice.id } }, parseAs: 'arrayBuffer' });
    expect(pdf.response.headers.get('content-type')).to.match(/^application\/pdf/);
    expect(Buffer.from(pdf.data!).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  });

  it('native API with an OAuth 2.0 client-credentials token', async () => {
    const registered = await native.POST('/oauth2/clients', { body: { name: 'Účtovný softvér' } });
    expect(registered.response.status, JSON.stringify(registered.error)).to.equal(201);
    const token = await native.POST('/oauth2/token', {
      body: { grant_type: 'client_credentials', client_id: registered.data!.client_id, client_secret: registered.data!.client_secret },
    });
    expect(token.data?.token_type, JSON.stringify(token.error)).to.equal('Bearer');
    const asClient = createClient({ baseUrl: `${svc.root}/api/v1`, token: token.data!.access_token });
    const listed = await asClient.GET('/companies/{company_id}/invoices', { params: { path: { company_id: company } } });
    expect(listed.response.status).to.equal(200);
    expect(listed.data?.total).to.be.greaterThan(0);
  });

  it('SAPI-SK: a token from the client credentials, UBL addressed to demo company 1 sent, its status followed, company 1 receives it', async () => {
    const [c0, c1] = [svc.demo.companies[0]!, svc.demo.companies[1]!];
    const tokenRequests: string[] = [];
    const counting: Fetch = (request) => {
      if (new URL(request.url).pathname.startsWith('/sapi/auth/')) tokenRequests.push(new URL(request.url).pathname);
      return fetch(request);
    };
    const sapi0 = createSapiClient({ baseUrl: svc.root, clientId: c0.sapi.client_id, clientSecret: c0.sapi.client_secret, participantId: c0.sapi.participant_id, fetch: counting });
    const sapi1 = createSapiClient({ baseUrl: `${svc.root}/sapi`, clientId: c1.sapi.client_id, clientSecret: c1.sapi.client_secret, participantId: c1.sapi.participant_id });

    // the UBL: a draft of company 0 to company 1, as the service's builder writes it
    const source = await draft('Servis');
    const xml = (await native.GET('/companies/{company_id}/invoices/{invoice_id}/ubl', { params: { path: { company_id: company, invoice_id: source.id } }, parseAs: 'text' })).data!;
    const sent = await sapi0.POST('/document/send', {
      body: {
        metadata: {
          documentId: 'ERP-1', documentTypeId: INVOICE_DOCUMENT_TYPE, processId: BILLING_PROCESS,
          senderParticipantId: c0.sapi.participant_id, receiverParticipantId: c1.sapi.participant_id, creationDateTime: new Date().toISOString(),
        },
        payload: xml, payloadFormat: 'XML', checksum: createHash('sha256').update(xml, 'utf8').digest('hex'),
      },
    });
    expect(sent.response.status, JSON.stringify(sent.error)).to.equal(202);
    const id = sent.data!.providerDocumentId;
    expect(id).to.match(/^svc_sapi_doc_/);

    const status = await eventually(
      async () => (await sapi0.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: id } } })).data,
      (s) => s?.status === 'SENT', { ...POLL, what: 'the document SENT' },
    );
    expect(status).to.include({ providerDocumentId: id, clientDocumentId: 'ERP-1', direction: 'outbound' });
    const inbox = await eventually(
      async () => (await sapi1.GET('/document/receive')).data?.documents ?? [],
      (documents) => documents.some((d) => d.senderParticipantId === c0.sapi.participant_id), { ...POLL, what: 'the document in company 1\'s inbox' },
    );
    expect(inbox.length).to.be.greaterThan(0);
    // one token for all of that
    expect(tokenRequests).to.deep.equal(['/sapi/auth/token']);

    // a revoked token is refused with 401: the client obtains a new one and the call succeeds
    const revoked = await sapi0.POST('/auth/revoke', { body: { token: await sapi0.tokens.get() } });
    expect(revoked.response.status).to.equal(200);
    const again = await sapi0.GET('/document/status/{providerDocumentId}', { params: { path: { providerDocumentId: id } } });
    expect(again.response.status, JSON.stringify(again.error)).to.equal(200);
    expect(tokenRequests).to.deep.equal(['/sapi/auth/token', '/sapi/auth/revoke', '/sapi/auth/token']);
  });

  describe('webhooks: an endpoint on a local receiver, deliveries checked with verifyWebhook', () => {
    let receiver: WebhookReceiver;
    let webhook: string;
    let secret: string;
    before(async () => {
      receiver = await WebhookReceiver.start();
      const created = await native.POST('/connect/webhooks', { body: { url: receiver.url(), events: 'invoice.delivered,invoice.queued', description: 'SDK test' } });
      expect(created.response.status, JSON.stringify(created.error)).to.equal(201);
      webhook = created.data!.id;
      secret = created.data!.secret;
    });
    after(async () => receiver?.close());

    /** The arrival of `eventId` (other events of this suite arrive too, in any order). */
    const arrivalOf = async (eventId: string): Promise<Arrival> =>
      (await eventually(async () => receiver.arrivals.find((a) => a.headers['x-webhook-event-id'] === eventId), (a) => a !== undefined, { everyMs: 100, what: `event ${eventId} arrived` }))!;
    const fire = async (): Promise<Arrival> => {
      const fired = await native.POST('/connect/webhooks/{webhook_id}/test', { params: { path: { webhook_id: webhook } } });
      expect(fired.response.status, JSON.stringify(fired.error)).to.equal(202);
      return arrivalOf(fired.data!.event_id);
    };

    it('a real event (invoice.queued) verifies; a tampered body, an old timestamp and a wrong secret do not', async () => {
      const invoice = await draft('Webhook');
      await native.POST('/companies/{company_id}/invoices/{invoice_id}/send', { params: { path: { company_id: company, invoice_id: invoice.id } } });
      const arrival = (await eventually(
        async () => receiver.arrivals.find((a) => a.headers['x-webhook-event'] === 'invoice.queued' && a.rawBody.toString('utf8').includes(invoice.id)),
        (a) => a !== undefined, { everyMs: 100, what: 'invoice.queued arrived' },
      ))!;
      const verified = verifyWebhook(arrival.rawBody, arrival.headers, [secret]);
      expect(verified.ok, JSON.stringify(verified)).to.equal(true);
      expect(JSON.parse(arrival.rawBody.toString('utf8'))).to.have.property('type', 'invoice.queued');

      const tampered = Buffer.from(arrival.rawBody.toString('utf8').replace(invoice.id, '00000000-0000-4000-8000-000000000000'));
      expect(verifyWebhook(tampered, arrival.headers, [secret])).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
      expect(verifyWebhook(arrival.rawBody, arrival.headers, [secret], { now: Date.now() + 301_000 })).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
      expect(verifyWebhook(arrival.rawBody, arrival.headers, ['whsec_not_ours'])).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
      // the legacy header alone verifies too
      const { 'svc-signature': _svc, ...legacyOnly } = arrival.headers;
      expect(verifyWebhook(arrival.rawBody, legacyOnly, [secret])).to.deep.include({ ok: true, scheme: 'legacy' });
    });

    it('after a secret rotation, a test.ping verifies with the new secret and, during the overlap, with the old one', async () => {
      const rotated = await native.POST('/connect/webhooks/{webhook_id}/rotate-secret', { params: { path: { webhook_id: webhook } } });
      expect(rotated.response.status, JSON.stringify(rotated.error)).to.equal(200);
      const fresh = rotated.data!.secret;
      expect(fresh).to.match(/^whsec_/).and.not.equal(secret);
      const ping = await fire();
      expect(ping.headers['x-webhook-event']).to.equal('test.ping');
      expect(verifyWebhook(ping.rawBody, ping.headers, [fresh]).ok).to.equal(true);
      expect(verifyWebhook(ping.rawBody, ping.headers, [secret]).ok).to.equal(true);
      expect(verifyWebhook(ping.rawBody, ping.headers, [secret, fresh]).ok).to.equal(true);
      expect(verifyWebhook(ping.rawBody, ping.headers, ['whsec_not_ours']).ok).to.equal(false);
    });
  });
});
