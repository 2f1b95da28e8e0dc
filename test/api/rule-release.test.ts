// The validate route checks an invoice under the rule release in force at the service's now, and says
// which: a fixture release dated in the future (test/validation/support/future-release.ts) takes over on its date.
import fs from 'node:fs';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { AFTER, artifactsWithFutureRelease, BEFORE, FIXTURE_RULE_ID, NEW, OLD } from '../validation/support/future-release.ts';
import { needArtifacts } from '../validation/support/paths.ts';

describe('validate over HTTP: the rule release in force', function () {
  this.timeout(120_000);
  before(needArtifacts);
  let svc: TestService;
  let dir = '';
  let company = '';
  let customerId = '';
  // the service's clock: real time, pinned only around the validations
  let pinned: Date | null = null;
  const year = String(new Date().getUTCFullYear());

  before(async () => {
    dir = artifactsWithFutureRelease();
    svc = await startTestService({ validationArtifactsDir: dir, clock: { now: () => pinned ?? new Date() } });
    company = svc.demo.companies[0]!.id;
    const customer = await svc.call('POST', `/companies/${company}/customers`, {
      name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', city: 'Košice', postal_code: '04001', peppol_id: '9950:sk2020000004svctest',
    });
    expect(customer.status, JSON.stringify(customer.body)).to.equal(201);
    customerId = customer.body.id;
  });
  after(async () => {
    await svc?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function validateAt(at: Date) {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customerId, lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const invoice = created.body;
    pinned = at;
    try {
      const result = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/validate`);
      expect(result.status, JSON.stringify(result.body)).to.equal(200);
      return result.body;
    } finally {
      pinned = null;
    }
  }

  it('names 3.0.21 before the fixture release\'s date, and the fixture release (with its rule) from it', async () => {
    const before = await validateAt(BEFORE);
    expect(before.xml_validation.release).to.equal(OLD);
    expect(before.xml_validation.errors).to.deep.equal([]);
    expect(before).to.include({ valid: true, status: 'validated' });
    const after = await validateAt(AFTER);
    expect(after.xml_validation.release).to.equal(NEW);
    expect(after.xml_validation.errors.map((e: { rule: string }) => e.rule)).to.deep.equal([FIXTURE_RULE_ID]);
    expect(after.xml_validation).to.include({ xsd_valid: true, peppol_valid: false, slovak_valid: true });
    expect(after).to.include({ valid: false, status: 'draft' });
  });
});
