import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { FETCH_SCRIPT, missingValidationArtifacts, unavailableSentence } from '../../src/platform/readiness/first-start.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { startTestService, type TestService } from '../support/service.ts';

describe('readiness: a first start without the official rules', function () {
  this.timeout(120_000);
  let empty: string;
  let svc: TestService;
  before(async () => {
    empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-rules-'));
    svc = await startTestService({ validationArtifactsDir: empty });
  });
  after(async () => {
    await svc?.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });

  it('knows which files are missing, and that a folder with them misses none', () => {
    expect(missingValidationArtifacts(empty)).to.have.length(4);
    expect(missingValidationArtifacts(loadConfig({ VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR }).validationArtifactsDir)).to.deep.equal([]);
  });

  it('says what to do in one sentence: the variable and the script', () => {
    const sentence = unavailableSentence(empty);
    expect(sentence).to.include('VALIDATION_ARTIFACTS_DIR').and.include(FETCH_SCRIPT).and.include(empty);
    expect(sentence.split('\n')).to.have.length(1);
  });

  it('health is not ok: degraded, validation unavailable, naming what is missing', async () => {
    const res = await fetch(`${svc.api}/health`);
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).to.include({ status: 'degraded', validation: 'unavailable' });
    expect(body['validation_missing']).to.include('code_lists');
  });

  it('an invoice create answers 503 code_lists_unavailable, and nothing is written', async () => {
    const company = svc.demo.companies[0]!;
    const res = await svc.call('POST', `/companies/${company.id}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04',
      buyer: { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', street: 'Hlavná 1', city: 'Košice', postal_code: '04001', country_code: 'SK' },
      lines: [{ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(res.status).to.equal(503);
    expect(res.body.detail.error).to.equal('code_lists_unavailable');
    expect((await svc.call('GET', `/companies/${company.id}/invoices`)).body.total).to.equal(0);
  });
});
