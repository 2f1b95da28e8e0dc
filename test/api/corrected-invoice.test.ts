// A corrected invoice (type 384) over HTTP: it names the invoice it corrects by id (one of the company's)
// or by number and date, the UBL carries it as cac:BillingReference, and one without it, or naming
// another company's invoice, is refused with 422 and a loc. Whether the official rules accept type 384
// is the release in force's to say: 3.0.21 refuses it outside Germany (PEPPOL-EN16931-P0112); a fixture
// release standing for 3.0.22 (3.0.21 with P0112 allowing two Slovak parties, as 3.0.22 does) accepts it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';
import { artifact, needArtifacts } from '../validation/support/paths.ts';

const OLD = 'peppol-bis-3.0.21';
const NEW = 'fixture-3.0.22-sk';
const EFFECTIVE = '2099-02-24T00:00:00.000Z';
const P0112 = `not(normalize-space(.) = '326' or normalize-space(.) = '384') or ($supplierCountryIsDE and $customerCountryIsDE)`;

/** 3.0.21 beside a future release whose P0112 also lets 384 pass between Slovak parties (the caller removes the folder). */
function artifactsWith3022Stand_in(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corrected-invoice-'));
  fs.symlinkSync(artifact('xsd'), path.join(dir, 'xsd'));
  fs.mkdirSync(path.join(dir, 'schematron', NEW), { recursive: true });
  fs.symlinkSync(artifact('schematron', OLD), path.join(dir, 'schematron', OLD));
  const peppol = fs.readFileSync(artifact('schematron', OLD, 'rules/sch/PEPPOL-EN16931-UBL.sch'), 'utf8');
  expect(peppol.split(P0112)).to.have.length(2, 'P0112 of 3.0.21 as this test knows it');
  const sk = `${P0112} or ($supplierCountry = 'SK' and $customerCountry = 'SK')`;
  fs.writeFileSync(path.join(dir, 'schematron', NEW, 'PEPPOL-EN16931-UBL.sch'), peppol.replace(P0112, sk));
  fs.writeFileSync(path.join(dir, 'schematron', NEW, 'release.json'), JSON.stringify({
    id: NEW, effective_from: EFFECTIVE.slice(0, 10),
    schematron: { cen: `schematron/${OLD}/rules/sch/CEN-EN16931-UBL.sch`, peppol: `schematron/${NEW}/PEPPOL-EN16931-UBL.sch` },
  }));
  return dir;
}

type Problem = { loc: (string | number)[]; msg: string };

describe('corrected invoice (384) over HTTP', function () {
  this.timeout(180_000);
  before(needArtifacts);
  let svc: TestService;
  let dir = '';
  let pinned: Date | null = null;
  let invoices = '';
  let otherInvoices = '';
  let original: { id: string; invoice_number: string; issue_date: string };
  const year = String(new Date().getUTCFullYear());
  const buyer = { name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', street: 'Mlynská 2', city: 'Košice', postal_code: '04001', peppol_id: '9950:sk2020000004svctest' };
  const draft = (over: Record<string, unknown> = {}) => ({
    issue_date: `${year}-03-20`, due_date: `${year}-04-03`, buyer, lines: [{ item_name: 'Konzultácia', quantity: '2', unit_price: '100.00', vat_rate: '23' }], ...over,
  });
  const ublOf = async (id: string) => (await fetch(`${svc.api}${invoices}/${id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();

  before(async () => {
    dir = artifactsWith3022Stand_in();
    svc = await startTestService({ validationArtifactsDir: dir, clock: { now: () => pinned ?? new Date() } });
    invoices = `/companies/${svc.demo.companies[0]!.id}/invoices`;
    otherInvoices = `/companies/${svc.demo.companies[1]!.id}/invoices`;
    const created = await svc.call('POST', invoices, draft({ issue_date: `${year}-03-15`, due_date: `${year}-03-29` }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    original = created.body;
  });
  after(async () => {
    await svc?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names one of the company\'s invoices by id: 201, and the UBL carries its number and date as BillingReference', async () => {
    const created = await svc.call('POST', invoices, draft({ invoice_type: '384', preceding_invoice: { id: original.id } }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ invoice_type: '384', status: 'draft' });
    expect(created.body.preceding_invoice).to.deep.equal({ id: original.id, number: original.invoice_number, issue_date: `${year}-03-15` });
    const ubl = await ublOf(created.body.id);
    expect(ubl).to.include('<cbc:InvoiceTypeCode>384</cbc:InvoiceTypeCode>');
    expect(ubl).to.match(new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${original.invoice_number}</cbc:ID>\\s*<cbc:IssueDate>${year}-03-15</cbc:IssueDate>\\s*</cac:InvoiceDocumentReference>\\s*</cac:BillingReference>`));
  });

  it('names an invoice issued elsewhere by number and issue date', async () => {
    const created = await svc.call('POST', invoices, draft({ invoice_type: '384', preceding_invoice: { number: 'FA/2025/77', issue_date: '2025-12-30' } }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body.preceding_invoice).to.deep.equal({ id: null, number: 'FA/2025/77', issue_date: '2025-12-30' });
    expect(await ublOf(created.body.id)).to.match(/<cac:InvoiceDocumentReference>\s*<cbc:ID>FA\/2025\/77<\/cbc:ID>\s*<cbc:IssueDate>2025-12-30<\/cbc:IssueDate>/);
  });

  it('refuses one without preceding_invoice: 422 with loc ["body","preceding_invoice"], consuming no number', async () => {
    const before = (await svc.call('GET', `${invoices}/numbering/next?year=${year}`)).body.invoice_number;
    for (const body of [draft({ invoice_type: '384' }), draft({ invoice_type: '384', preceding_invoice: null })]) {
      const refused = await svc.call('POST', invoices, body);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect((refused.body.detail as Problem[]).map((p) => p.loc)).to.deep.equal([['body', 'preceding_invoice']]);
    }
    expect((await svc.call('GET', `${invoices}/numbering/next?year=${year}`)).body.invoice_number).to.equal(before);
  });

  it('refuses an id of another company\'s invoice, or of none: 422 with loc ["body","preceding_invoice","id"]', async () => {
    const theirs = await svc.call('POST', otherInvoices, draft());
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(201);
    for (const id of [theirs.body.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await svc.call('POST', invoices, draft({ invoice_type: '384', preceding_invoice: { id } }));
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect((refused.body.detail as Problem[]).map((p) => p.loc)).to.deep.equal([['body', 'preceding_invoice', 'id']]);
    }
  });

  it('validates under the release in force: 3.0.21 refuses 384 for Slovakia (P0112) and nothing else; the 3.0.22 stand-in accepts it', async () => {
    const created = await svc.call('POST', invoices, draft({ invoice_type: '384', preceding_invoice: { id: original.id } }));
    const validate = async (at: Date) => {
      pinned = at;
      try {
        const result = await svc.call('POST', `${invoices}/${created.body.id}/validate`);
        expect(result.status, JSON.stringify(result.body)).to.equal(200);
        return result.body;
      } finally {
        pinned = null;
      }
    };
    const now = await validate(new Date(Date.parse(EFFECTIVE) - 1));
    expect(now.xml_validation).to.include({ release: OLD, xsd_valid: true, peppol_valid: false, slovak_valid: true });
    expect(now.xml_validation.errors.map((e: { rule: string }) => e.rule)).to.deep.equal(['PEPPOL-EN16931-P0112']);
    expect(now).to.include({ valid: false, status: 'draft' });
    const later = await validate(new Date(EFFECTIVE));
    expect(later.xml_validation).to.include({ release: NEW, xsd_valid: true, peppol_valid: true, slovak_valid: true });
    expect(later.xml_validation.errors).to.deep.equal([]);
    expect(later).to.include({ valid: true, status: 'validated' });
  });
});
