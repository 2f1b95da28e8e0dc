import { expect } from 'chai';
import { WrongExpectedRevision, type EventStore } from '../../src/platform/eventstore/port.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * A 412 says one thing: the resource the client named by version (If-Match) is no longer at that
 * version. A race lost on any other stream the command writes (the organisation's monthly usage,
 * counted before the invoice is written) is a 409 concurrency_conflict, If-Match or not, and never
 * shows that stream's revision as the resource's current_version.
 */
describe('conflict statuses: 412 only for the stream named by If-Match', function () {
  this.timeout(120_000);
  let svc: TestService;
  let company: string;
  let customer: string;
  /** while set, every append to a usage stream loses its race (another instance always counts first) */
  let usageRaces = false;

  const draft = async () => {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customer,
      lines: [{ item_name: 'Servis', quantity: '1', unit_price: '120.00', vat_rate: '23' }],
    });
    expect(created.status).to.equal(201);
    return created.body as { id: string; version: number };
  };
  const read = async (id: string) => (await svc.call('GET', `/companies/${company}/invoices/${id}`)).body as { status: string; version: number };

  before(async () => {
    svc = await startTestService({ runReactors: false });
    company = svc.demo.companies[0]!.id;
    const buyer = svc.demo.companies[1]!;
    customer = (await svc.call('POST', `/companies/${company}/customers`, { name: buyer.name, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id })).body.id;
    // the harness's store: a usage stream's append conflicts as if another instance had just written
    const store: EventStore = svc.services.store;
    const append = store.append.bind(store);
    store.append = async (streamId, events, expected) => {
      if (usageRaces && streamId.startsWith('usage-')) throw new WrongExpectedRevision(streamId, expected, typeof expected === 'number' ? expected + 7 : 7);
      return append(streamId, events, expected);
    };
  });
  afterEach(() => (usageRaces = false));
  after(async () => svc?.close());

  for (const action of ['send', 'mark-sent'] as const) {
    it(`${action} with a current If-Match whose usage count keeps losing its race: 409 concurrency_conflict, not 412, nothing written`, async () => {
      const invoice = await draft();
      usageRaces = true;
      const answer = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/${action}`, action === 'send' ? undefined : {}, { 'if-match': `"${invoice.version}"` });
      usageRaces = false;
      expect(answer.status, JSON.stringify(answer.body)).to.equal(409);
      expect(answer.body.detail.error).to.equal('concurrency_conflict');
      expect(answer.body.detail).not.to.have.property('current_version');
      const after = await read(invoice.id);
      expect(after.status).to.equal('draft');
      expect(after.version).to.equal(invoice.version);
    });
  }

  it('send with a stale If-Match: 412 version_mismatch with the invoice\'s own current version', async () => {
    const invoice = await draft();
    const answer = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/send`, undefined, { 'if-match': `"${invoice.version + 3}"` });
    expect(answer.status).to.equal(412);
    expect(answer.body.detail).to.include({ error: 'version_mismatch', current_version: invoice.version });
  });

  it('send without If-Match whose usage count keeps losing its race: 409 concurrency_conflict', async () => {
    const invoice = await draft();
    usageRaces = true;
    const answer = await svc.call('POST', `/companies/${company}/invoices/${invoice.id}/send`);
    usageRaces = false;
    expect(answer.status).to.equal(409);
    expect(answer.body.detail.error).to.equal('concurrency_conflict');
    expect((await read(invoice.id)).status).to.equal('draft');
  });
});
