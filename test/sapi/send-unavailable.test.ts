import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { content } from '../../commands/invoices/test-fixtures.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { sapiError, sapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest } from './support/send.ts';

describe('SAPI-SK send: strict validation fails closed', function () {
  this.timeout(600_000);
  let svc: TestService;
  let empty: string;
  const previous = process.env.VALIDATION_ARTIFACTS_DIR;

  before(async () => {
    // no official XSD or Schematron: only our Slovak rules (in the repository) can run
    empty = await mkdtemp(join(tmpdir(), 'no-artifacts-'));
    process.env.VALIDATION_ARTIFACTS_DIR = empty;
    try {
      svc = await startTestService();
    } finally {
      if (previous === undefined) delete process.env.VALIDATION_ARTIFACTS_DIR;
      else process.env.VALIDATION_ARTIFACTS_DIR = previous;
    }
  });
  after(async () => {
    await svc?.close();
    await rm(empty, { recursive: true, force: true });
  });

  it('with rule sets missing, a send is 503 SAPI-VAL-VALIDATION-UNAVAILABLE (retryable), and nothing is accepted or counted', async () => {
    const client = await sapiTestClient(svc, 0);
    const buyer = svc.demo.companies[1]!;
    const seller = svc.demo.companies[0]!;
    const as = (c: typeof seller) => ({ name: c.name, vat_id: c.vat_id, ico: c.ico, dic: c.dic, peppol_id: c.sapi.participant_id });
    const document = { ...content, supplier: { ...content.supplier, ...as(seller) }, buyer: { ...content.buyer, ...as(buyer) } };
    const xml = buildUbl(document, computeTotals(document));
    const answer = await client.call('POST', '/document/send', sendRequest(xml, client.participant_id, buyer.sapi.participant_id), { 'idempotency-key': newKey() });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(503);
    const error = sapiError(answer);
    expect(error).to.include({ code: 'SAPI-VAL-VALIDATION-UNAVAILABLE', category: 'TEMPORARY', retryable: true });
    expect(error.details.map((d) => d.field)).to.deep.equal(['xsd', 'peppol']);
    expect(answer.headers.get('retry-after')).to.be.a('string');
    const rows = (await svc.services.readModels.query('SELECT count(*)::int AS n FROM sapi_documents')) as { n: number }[];
    expect(rows[0]!.n).to.equal(0);
    const counted = (await svc.services.readModels.query("SELECT count(*)::int AS n FROM events WHERE type = 'InvoiceCounted'").catch(() => [{ n: 0 }])) as { n: number }[];
    expect(counted[0]!.n).to.equal(0);
  });

  it('strict mode is on unless SAPI_STRICT_VALIDATION says false', () => {
    expect(loadConfig({}).sapiStrictValidation).to.equal(true);
    expect(loadConfig({ SAPI_STRICT_VALIDATION: 'true' }).sapiStrictValidation).to.equal(true);
    expect(loadConfig({ SAPI_STRICT_VALIDATION: 'false' }).sapiStrictValidation).to.equal(false);
    expect(loadConfig({ SAPI_STRICT_VALIDATION: '0' }).sapiStrictValidation).to.equal(false);
  });
});
