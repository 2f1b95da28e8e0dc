import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { LEASE_MS, RETENTION_MS } from '../../commands/idempotency/decider.ts';
import { idempotencyKeyHash, requestFingerprint } from '../../commands/idempotency/key.ts';
import type { Actor } from '../../commands/shared/actor.ts';
import { idempotencyStream, type IdempotencyEvent } from '../../events/idempotency.ts';
import { createCreditNote } from '../../src/modules/credit-notes/credit-notes.ts';
import { registerCustomer } from '../../src/modules/customers/customers.ts';
import { sendInvoice } from '../../src/modules/delivery/delivery.ts';
import { createInvoice, withCodeLists } from '../../src/modules/invoices/invoices.ts';
import { companyOf } from '../../src/modules/invoices/lookups.ts';
import { resourceIdOf, withResourceSeed } from '../../src/platform/ports/ids.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('Idempotency-Key on the native creates and sends', function () {
  this.timeout(180_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const year = String(new Date().getUTCFullYear());
  const invoices = () => `/companies/${company}/invoices`;
  const draft = (over: Record<string, unknown> = {}) => ({
    issue_date: `${year}-05-15`, due_date: `${year}-05-29`, customer_id: customerId,
    lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }], ...over,
  });
  const withKey = (key: string) => ({ 'idempotency-key': key });
  const invoiceCount = async () => (await svc.call('GET', `${invoices()}?page_size=1`)).body.total as number;
  const nextNumber = async () => (await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number as string;
  const headersOf = (r: { headers: Headers }) => ({ etag: r.headers.get('etag'), location: r.headers.get('location') });
  const actor = (): Actor => ({ type: 'api_key', id: 'idempotency-test', organisationId: svc.demo.organisation_id, role: 'admin' });

  /** a claim written as a request that died would have left it, `ageMs` ago */
  async function deadClaim(key: string, request: { operation: string; params: unknown; body: unknown }, ageMs: number, extra: IdempotencyEvent[] = []) {
    const seed = randomUUID();
    const at = new Date(Date.now() - ageMs);
    const claimed: IdempotencyEvent = {
      type: 'IdempotencyKeyClaimed',
      data: {
        key_hash: idempotencyKeyHash(key), fingerprint: requestFingerprint(request), operation: request.operation, seed, claim_id: randomUUID(),
        request_id: 'dead-request', claimed_at: at.toISOString(), expires_at: new Date(at.getTime() + RETENTION_MS).toISOString(),
      },
    };
    await svc.services.store.append(idempotencyStream(svc.demo.organisation_id, idempotencyKeyHash(key)),
      [claimed, ...extra].map((e) => ({ id: randomUUID(), type: e.type, data: e.data as unknown as Record<string, unknown>, metadata: {} })), 'no_stream');
    return seed;
  }

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    const buyer = svc.demo.companies[1]!;
    customerId = (await svc.call('POST', `/companies/${company}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
  });
  after(async () => svc?.close());

  it('a repeat with the same key and body gets the same status, body, ETag and Location, and creates nothing', async () => {
    const [count, number] = [await invoiceCount(), await nextNumber()];
    const first = await svc.call('POST', invoices(), draft(), withKey('inv-1'));
    expect(first.status).to.equal(201);
    // the same JSON with other key order and whitespace is the same request
    const again = await fetch(`${svc.api}${invoices()}`, {
      method: 'POST', headers: { 'x-api-key': svc.demo.api_key, 'content-type': 'application/json', ...withKey('inv-1') },
      body: `{ "lines": ${JSON.stringify(draft().lines)},\n  "due_date": "${year}-05-29", "customer_id": "${customerId}", "issue_date": "${year}-05-15" }`,
    });
    expect(again.status).to.equal(201);
    expect(await again.json()).to.deep.equal(first.body);
    expect(headersOf(again)).to.deep.equal(headersOf(first));
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(await invoiceCount()).to.equal(count + 1);
    expect(await nextNumber()).to.equal(String(Number(number) + 1));
  });

  it('the same key with another body, or for another operation, is 422 idempotency_key_reused', async () => {
    await svc.call('POST', invoices(), draft(), withKey('inv-2'));
    const count = await invoiceCount();
    const other = await svc.call('POST', invoices(), draft({ note: 'another' }), withKey('inv-2'));
    expect(other.status).to.equal(422);
    expect(other.body.detail).to.include({ error: 'idempotency_key_reused' });
    expect(other.body.detail.message).to.be.a('string');
    const elsewhere = await svc.call('POST', '/customers', { name: 'Iný s.r.o.', vat_id: '' }, withKey('inv-2'));
    expect(elsewhere.status).to.equal(422);
    expect(elsewhere.body.detail.error).to.equal('idempotency_key_reused');
    expect(await invoiceCount()).to.equal(count);
  });

  it('keys are scoped to the organisation: another organisation’s same key is its own', async () => {
    const mine = await svc.call('POST', '/customers', { name: 'Rovnaký kľúč s.r.o.', vat_id: '' }, withKey('shared-key'));
    const theirs = await fetch(`${svc.api}/customers`, {
      method: 'POST', headers: { 'x-api-key': svc.demo.second_organisation.api_key, 'content-type': 'application/json', ...withKey('shared-key') },
      body: JSON.stringify({ name: 'Rovnaký kľúč s.r.o.', vat_id: '' }),
    });
    expect([mine.status, theirs.status]).to.deep.equal([201, 201]);
    const body = await theirs.json() as { id: string };
    expect(body.id).not.to.equal(mine.body.id);
    expect(theirs.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('10 parallel requests with one key make one invoice; each gets the answer or in-progress, and a repeat the answer', async () => {
    const count = await invoiceCount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => svc.call('POST', invoices(), draft({ note: 'parallel' }), withKey('parallel-1'))));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).to.be.at.least(1);
    for (const a of answers) {
      if (a.status === 201) {
        expect(a.body).to.deep.equal(created[0]!.body);
      } else {
        expect(a.status).to.equal(409);
        expect(a.body.detail.error).to.equal('idempotency_key_in_progress');
        expect(a.headers.get('retry-after')).to.equal('1');
      }
    }
    const repeat = await svc.call('POST', invoices(), draft({ note: 'parallel' }), withKey('parallel-1'));
    expect(repeat.body).to.deep.equal(created[0]!.body);
    expect(await invoiceCount()).to.equal(count + 1);
  });

  it('scoped and unscoped creates of invoices and customers all replay', async () => {
    for (const [path, body] of [
      ['/invoices', draft({ note: 'unscoped', supplier: { name: svc.demo.companies[0]!.name, vat_id: svc.demo.companies[0]!.vat_id } })],
      [`/companies/${company}/customers`, { name: 'Firma A s.r.o.', vat_id: 'SK2020000015' }],
      ['/customers', { name: 'Firma B s.r.o.', vat_id: '' }],
    ] as const) {
      const first = await svc.call('POST', path, body, withKey(`each-${path}`));
      const again = await svc.call('POST', path, body, withKey(`each-${path}`));
      expect(first.status, path).to.equal(201);
      expect([again.status, again.body, headersOf(again)]).to.deep.equal([201, first.body, headersOf(first)]);
    }
  });

  it('a refusal is kept too: the repeat gets the same 422 and consumes no number', async () => {
    const number = await nextNumber();
    const bad = draft({ lines: [{ item_name: 'x', quantity: '1', unit_price: '1.00', vat_rate: '0' }] });
    const first = await svc.call('POST', invoices(), bad, withKey('refused-1'));
    const again = await svc.call('POST', invoices(), bad, withKey('refused-1'));
    expect(first.status).to.equal(422);
    // the same answer, each with its own request's id
    expect([again.status, again.body.detail]).to.deep.equal([422, first.body.detail]);
    expect(again.body.request_id).to.equal(again.headers.get('x-request-id')).and.not.equal(first.body.request_id);
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).to.deep.equal([null, 'true']);
    expect(await nextNumber()).to.equal(number);
  });

  it('a domain refusal is kept as the one renderer answered it: the repeat gets the same 404 body', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const first = await svc.call('POST', `/companies/${company}/invoices/${unknown}/send`, undefined, withKey('refused-2'));
    const again = await svc.call('POST', `/companies/${company}/invoices/${unknown}/send`, undefined, withKey('refused-2'));
    expect([first.status, first.body.detail.error]).to.deep.equal([404, 'invoice_not_found']);
    expect([again.status, again.body.detail, again.headers.get('idempotent-replayed')]).to.deep.equal([404, first.body.detail, 'true']);
    expect(again.body.request_id).to.equal(again.headers.get('x-request-id'));
  });

  it('a key that is not 1-255 printable ASCII characters is a 422 at loc header/idempotency-key', async () => {
    const refused = await svc.call('POST', '/customers', { name: 'Kľúč s.r.o.', vat_id: '' }, withKey('k'.repeat(256)));
    expect(refused.status).to.equal(422);
    expect(refused.body.detail[0].loc).to.deep.equal(['header', 'idempotency-key']);
  });

  it('a key older than 24 hours is free again: the same request makes a new invoice', async () => {
    const body = draft({ note: 'expired' });
    const old = await deadClaim('expired-1', { operation: 'createInvoice', params: { company_id: company }, body }, RETENTION_MS + 1_000);
    const count = await invoiceCount();
    const fresh = await svc.call('POST', invoices(), body, withKey('expired-1'));
    expect(fresh.status).to.equal(201);
    expect(fresh.body.id).not.to.equal(resourceIdOf(old));
    expect(await invoiceCount()).to.equal(count + 1);
  });

  it('a 5xx is not kept: the key is released and the repeat runs again', async () => {
    const invoice = (await svc.call('POST', invoices(), draft({ note: 'send after 502' }))).body;
    svc.sandbox.peppol.faults.down = true;
    let failed;
    try {
      failed = await svc.call('POST', `${invoices()}/${invoice.id}/send`, undefined, withKey('send-502'));
    } finally {
      svc.sandbox.peppol.faults.down = false;
    }
    expect(failed.status).to.equal(502);
    const sent = await svc.call('POST', `${invoices()}/${invoice.id}/send`, undefined, withKey('send-502'));
    expect(sent.status).to.equal(202);
    const again = await svc.call('POST', `${invoices()}/${invoice.id}/send`, undefined, withKey('send-502'));
    expect([again.status, again.body]).to.deep.equal([202, sent.body]);
  });

  it('a claim younger than its lease answers in progress; a dead one is taken over and makes no duplicate', async () => {
    const body = draft({ note: 'crashed after the append' });
    const request = { operation: 'createInvoice', params: { company_id: company }, body };
    const young = await svc.call('POST', invoices(), body, withKey('young-claim'));
    expect(young.status).to.equal(201);
    await deadClaim('young-claim-2', request, 1_000);
    expect((await svc.call('POST', invoices(), body, withKey('young-claim-2'))).status).to.equal(409);

    // the first run wrote the invoice and died before its answer was kept
    const seed = await deadClaim('crashed-1', request, LEASE_MS + 1_000);
    const deps = withCodeLists(svc.services);
    const written = await withResourceSeed(seed, async () =>
      createInvoice(deps, { actor: actor(), requestId: 'dead-request', company: await companyOf(svc.services, actor(), company), body }));
    expect(written.invoice_id).to.equal(resourceIdOf(seed));
    await svc.services.projections.caughtUp(written.position, 30_000, ['invoices']);
    const count = await invoiceCount();
    const number = await nextNumber();
    const resumed = await svc.call('POST', invoices(), body, withKey('crashed-1'));
    expect(resumed.status).to.equal(201);
    expect(resumed.body.id).to.equal(written.invoice_id);
    expect(resumed.headers.get('location')).to.equal(`/api/v1${invoices()}/${written.invoice_id}`);
    const read = await svc.call('GET', `${invoices()}/${written.invoice_id}`);
    expect(resumed.body).to.deep.equal(read.body);
    expect(await invoiceCount()).to.equal(count);
    expect(await nextNumber()).to.equal(number);
    expect((await svc.call('POST', invoices(), body, withKey('crashed-1'))).body).to.deep.equal(resumed.body);

    // died before its effect: the takeover runs it, on the seed's id
    const early = await deadClaim('crashed-2', { ...request, body: draft({ note: 'crashed before the append' }) }, LEASE_MS + 1_000);
    const ran = await svc.call('POST', invoices(), draft({ note: 'crashed before the append' }), withKey('crashed-2'));
    expect([ran.status, ran.body.id]).to.deep.equal([201, resourceIdOf(early)]);
  });

  it('a customer create resumed after its first run wrote the customer answers that customer, as created', async () => {
    // country_code written out: the fingerprint is over the validated body, defaults filled in
    const body = { name: 'Po páde s.r.o.', vat_id: 'SK2020000026', country_code: 'SK' };
    const seed = await deadClaim('customer-crash', { operation: 'createCustomer', params: { company_id: company }, body }, LEASE_MS + 1_000);
    const written = await withResourceSeed(seed, () => registerCustomer(svc.services, { actor: actor(), requestId: 'dead-request', companyId: company, input: body }));
    await svc.services.projections.caughtUp(written.position, 30_000, ['customer-directory']);
    const resumed = await svc.call('POST', `/companies/${company}/customers`, body, withKey('customer-crash'));
    expect(resumed.status).to.equal(201);
    expect(resumed.body.id).to.equal(resourceIdOf(seed));
    expect(resumed.body).to.deep.equal((await svc.call('GET', `/companies/${company}/customers/${written.customer_id}`)).body);
    expect(resumed.headers.get('location')).to.equal(`/api/v1/companies/${company}/customers/${written.customer_id}`);
    const named = (await svc.call('GET', `/companies/${company}/customers/search?q=SK2020000026`)).body as unknown[];
    expect(named).to.have.length(1);
  });

  it('a send resumed after its first run queued the invoice answers 202, not 409', async () => {
    const invoice = (await svc.call('POST', invoices(), draft({ note: 'send crash' }))).body;
    const seed = await deadClaim('send-crash', { operation: 'sendInvoice', params: { company_id: company, invoice_id: invoice.id }, body: null }, LEASE_MS + 1_000);
    const deps = { ...withCodeLists(svc.services), network: svc.services.network, usage: svc.services.usage };
    await withResourceSeed(seed, () => sendInvoice(deps, { actor: actor(), requestId: 'dead-request', companyId: company, invoiceId: invoice.id }));
    const resumed = await svc.call('POST', `${invoices()}/${invoice.id}/send`, undefined, withKey('send-crash'));
    expect(resumed.status).to.equal(202);
    expect(resumed.body).to.include({ invoice_id: invoice.id, status: 'queued' });
    const plain = await svc.call('POST', `${invoices()}/${invoice.id}/send`);
    expect(plain.status).to.equal(409);
  });

  it('a credit note resumed after its first run wrote it answers that credit note, not 412, and makes no second one', async () => {
    const invoice = (await svc.call('POST', invoices(), draft({ note: 'credit crash' }))).body;
    const issued = await svc.call('POST', `${invoices()}/${invoice.id}/mark-sent`, {});
    const body = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] };
    const params = { company_id: company, invoice_id: invoice.id };
    const seed = await deadClaim('credit-crash', { operation: 'createCreditNote', params, body }, LEASE_MS + 1_000);
    const deps = { ...withCodeLists(svc.services), usage: svc.services.usage };
    const written = await withResourceSeed(seed, async () => createCreditNote(deps, {
      actor: actor(), requestId: 'dead-request', company: await companyOf(svc.services, actor(), company), invoiceId: invoice.id,
      expectedVersion: issued.body.version, body: { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: '12.30' }] }, organisationHasReviewer: false,
    }));
    expect(written.credit_note_id).to.equal(resourceIdOf(seed));
    const resumed = await svc.call('POST', `${invoices()}/${invoice.id}/credit-notes`, body, { ...withKey('credit-crash'), 'if-match': `"${issued.body.version}"` });
    expect(resumed.status, JSON.stringify(resumed.body)).to.equal(201);
    expect(resumed.body.id).to.equal(written.credit_note_id);
    expect(resumed.body).to.deep.equal((await svc.call('GET', `${invoices()}/${written.credit_note_id}`)).body);
    const credited = (await svc.call('GET', `${invoices()}/${invoice.id}/credit-notes/allowance`)).body;
    expect(credited.credited_gross).to.equal('12.30');
  });

  it('mark-sent repeats its answer', async () => {
    const invoice = (await svc.call('POST', invoices(), draft({ note: 'mark' }))).body;
    const first = await svc.call('POST', `${invoices()}/${invoice.id}/mark-sent`, { note: 'e-mail' }, withKey('mark-1'));
    const again = await svc.call('POST', `${invoices()}/${invoice.id}/mark-sent`, { note: 'e-mail' }, withKey('mark-1'));
    expect(first.status).to.equal(200);
    expect([again.status, again.body, headersOf(again)]).to.deep.equal([200, first.body, headersOf(first)]);
  });

  it('a credential’s secret is shown once: the repeat makes no second key or client and says so (409)', async () => {
    const keys = async () => (await svc.call('GET', '/api-keys?page_size=100')).body.items.length as number;
    const before = await keys();
    const first = await svc.call('POST', '/api-keys', { name: 'ci' }, withKey('key-1'));
    expect(first.status).to.equal(201);
    const again = await svc.call('POST', '/api-keys', { name: 'ci' }, withKey('key-1'));
    expect(again.status).to.equal(409);
    expect(again.body.detail).to.include({ error: 'idempotency_key_secret_not_replayable', original_status: 201 });
    expect(again.body.detail.resource.id).to.equal(first.body.id);
    expect(again.body.detail.resource).not.to.have.property('api_key');
    expect(await keys()).to.equal(before + 1);

    const client = await svc.call('POST', '/oauth2/clients', { name: 'erp' }, withKey('client-1'));
    const clientAgain = await svc.call('POST', '/oauth2/clients', { name: 'erp' }, withKey('client-1'));
    expect([client.status, clientAgain.status]).to.deep.equal([201, 409]);
    expect(clientAgain.body.detail.resource.client_id).to.equal(client.body.client_id);
    expect((await svc.call('GET', '/oauth2/clients?page_size=100')).body.items.filter((c: { name: string }) => c.name === 'erp')).to.have.length(1);
  });

  it('OpenAPI documents the header on every create and send, with its refusals', async () => {
    const doc = await (await fetch(`${svc.root}/openapi.json`)).json() as { paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string }[]; responses: Record<string, { description: string }> }>> };
    const posts = Object.values(doc.paths).flatMap((item) => Object.entries(item).filter(([m]) => m === 'post').map(([, op]) => op));
    // every create (201) and send (202), the ones to come included, and mark-sent
    const wanted = posts.filter((op) => '201' in op.responses || '202' in op.responses || op.operationId === 'markInvoiceSent');
    expect(wanted.map((op) => op.operationId)).to.include.members(['createInvoice', 'createInvoiceUnscoped', 'createCustomer', 'createOrganisationCustomer', 'sendInvoice', 'markInvoiceSent', 'createApiKey', 'createOAuthClient']);
    for (const op of wanted) {
      expect(op.parameters.some((p) => p.name === 'Idempotency-Key' && p.in === 'header'), op.operationId).to.equal(true);
      expect(op.responses['409']?.description, op.operationId).to.contain('idempotency_key_in_progress');
      expect(op.responses['422']?.description, op.operationId).to.contain('idempotency_key_reused');
    }
  });
});
