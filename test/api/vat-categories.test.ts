// VAT categories over HTTP: what no document could ever validate is refused at create with the
// EN16931 rule id (invoice-validation 422, no number consumed); corrected, the same invoice is
// created and passes the service's own XSD, CEN, Peppol and Slovak validation.
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

interface RuleError {
  rule: string;
  message: string;
  severity: string;
  field?: string;
}

describe('VAT categories over HTTP', function () {
  this.timeout(180_000);
  let svc: TestService;
  let company: string;
  let customerId: string;
  const year = String(new Date().getUTCFullYear());
  const invoices = () => `/companies/${company}/invoices`;
  const line = (over: Record<string, unknown> = {}) => ({ item_name: 'Služba', quantity: '1', unit_price: '100.00', vat_rate: '0', ...over });
  const draft = (lines: unknown[]) => ({ issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customerId, lines });
  const next = async () => (await svc.call('GET', `${invoices()}/numbering/next?year=${year}`)).body.invoice_number as string;

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    const customer = await svc.call('POST', `/companies/${company}/customers`, {
      name: 'Odberateľ Košice s.r.o.', vat_id: 'SK2020000004', dic: '2020000004', ico: '35757442', city: 'Košice', postal_code: '04001', peppol_id: '9950:sk2020000004svctest',
    });
    customerId = customer.body.id;
  });
  after(async () => svc?.close());

  /** Creates, expects 201, validates, and answers the validation body. */
  async function createdAndValid(lines: unknown[]) {
    const created = await svc.call('POST', invoices(), draft(lines));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const validated = await svc.call('POST', `${invoices()}/${created.body.id}/validate`);
    expect(validated.status).to.equal(200);
    expect(validated.body.xml_validation.errors, JSON.stringify(validated.body.xml_validation.errors)).to.deep.equal([]);
    expect(validated.body).to.include({ valid: true, status: 'validated' });
    return created.body as { id: string };
  }

  it('given two E lines with different exemption codes, when created, then 422 names BR-E-01 and no number is used; with one code it is created and valid', async () => {
    const before = await next();
    const refused = await svc.call('POST', invoices(), draft([
      line({ vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' }),
      line({ vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-143' }),
    ]));
    expect(refused.status).to.equal(422);
    expect(refused.body.detail.message).to.be.a('string');
    const errors = refused.body.detail.errors as RuleError[];
    expect(errors.map((e) => e.rule)).to.deep.equal(['BR-E-01']);
    expect(errors[0]).to.include({ severity: 'fatal', field: 'lines[1].vat_exemption_reason_code' });
    expect(await next()).to.equal(before);

    await createdAndValid([
      line({ vat_category_code: 'E', vat_exemption_reason_code: 'VATEX-EU-132' }),
      line({ vat_category_code: 'E', vat_exemption_reason_code: 'vatex-eu-132' }),
    ]);
  });

  it('given an O line beside an S line, when created, then 422 names BR-O-11; all O, it is created and valid without VAT ids in the UBL', async () => {
    const refused = await svc.call('POST', invoices(), draft([
      line({ vat_category_code: 'O', vat_exemption_reason_code: 'VATEX-EU-O' }),
      line({ vat_rate: '23' }),
    ]));
    expect(refused.status).to.equal(422);
    expect((refused.body.detail.errors as RuleError[]).map((e) => e.rule)).to.deep.equal(['BR-O-11']);

    const invoice = await createdAndValid([
      line({ vat_category_code: 'O', vat_exemption_reason_code: 'VATEX-EU-O' }),
      line({ vat_category_code: 'O', vat_exemption_reason_code: 'VATEX-EU-O', unit_price: '50.00' }),
    ]);
    const stored = (await svc.call('GET', `${invoices()}/${invoice.id}`)).body;
    expect(stored.buyer.vat_id).to.equal('SK2020000004'); // the invoice keeps it; the document leaves it out (BR-O-02)
    const ubl = await (await fetch(`${svc.api}${invoices()}/${invoice.id}/ubl`, { headers: { 'x-api-key': svc.demo.api_key } })).text();
    expect(ubl).to.include('<cbc:ID>O</cbc:ID>').and.include('<cbc:CompanyID>2020000004</cbc:CompanyID>'); // the DIČ stays
    expect(ubl).to.not.include('SK2020000004').and.not.include(stored.supplier.vat_id);
  });
});
