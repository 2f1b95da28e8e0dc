import { expect } from 'chai';
import { invoiceStream } from '../../events/invoices.ts';
import { CREDIT_NOTE_ALLOWANCE } from '../../projections/credit-note-allowance/queries.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Invoice = { id: string; version: number; total_gross: string; lines: { id: string }[] };
type Allowance = {
  creditable: boolean; total_gross: string; credited_gross: string; left_gross: string;
  buckets: { vat_rate: string; credited_gross: string; left_base: string; left_vat: string; left_gross: string }[];
  lines: { id: string; left_quantity: string; left_net: string; left_vat: string }[];
};
type Answer = Awaited<ReturnType<TestService['call']>>;

/** Money in cents, so sums are exact. */
const cents = (amount: string) => Math.round(Number(amount) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/**
 * Issue 16 item 3: two or more credit notes race for the last remaining amount at one If-Match.
 * The append at that revision lets exactly one through; every other one is a 412 and writes
 * nothing (or, read after a win that took everything, 409 not_creditable: what no version changes
 * is refused first). Reloaded, they ask again for what they wanted and are refused by the decider: 422
 * credit_limit_exceeded while the invoice still has something left elsewhere, or 409
 * not_creditable when the winner took everything (the invoice is then fully credited, or voided
 * by a full_reversal), which is how this service answers a credit note on such an invoice.
 *
 * Three kinds of round, in turn, on an invoice finished by hand (its credit notes are delivered by
 * hand in the same write, 201, so nothing waits for Peppol):
 * - bucket: partial credits of the 23 % bucket's last cents, the 5 % bucket untouched (losers: 422 vat_rate_cap);
 * - row: returns of a line's last unit (losers: 422 row_cap);
 * - everything: full_reversal and partial credits of all that is left (losers: 409 not_creditable).
 */
describe('credit notes racing for the last remaining amount over HTTP', function () {
  this.timeout(600_000);
  const ROUNDS = 50;
  let svc: TestService;
  let company: string;
  let customer: string;
  const year = String(new Date().getUTCFullYear());
  const counts = { rounds: 0, requests: 0, wins: 0, stale412: 0, limit422: 0, notCreditable409: 0, staleAllowance: 0 };

  const credit = (invoiceId: string, version: number, body: unknown) =>
    svc.call('POST', `/companies/${company}/invoices/${invoiceId}/credit-notes`, body, { 'if-match': `"${version}"` });
  const versionOf = async (invoiceId: string) => ((await svc.call('GET', `/companies/${company}/invoices/${invoiceId}`)).body as Invoice).version;
  const allowanceOf = (invoiceId: string) => svc.call('GET', `/companies/${company}/invoices/${invoiceId}/credit-notes/allowance`);
  /**
   * The allowance once its credit notes' projector has passed the invoice stream's last event. Its
   * ETag alone is no sign of that: it is the newer of the register's version and the credit notes'
   * (queries.ts), and the credit-note route waits for the register only, so right after a credit
   * note the ETag can name the new version while the credited amounts are still the old ones.
   */
  async function settledAllowance(invoiceId: string): Promise<Answer> {
    const events = await svc.services.store.readStream(invoiceStream(invoiceId));
    const last = events.at(-1)!.position;
    expect(await svc.services.projections.caughtUp(last, 30_000, [CREDIT_NOTE_ALLOWANCE]), `the allowance reached ${last}`).to.equal(true);
    return allowanceOf(invoiceId);
  }

  before(async () => {
    svc = await startTestService();
    company = svc.demo.companies[0]!.id;
    customer = (await svc.call('POST', `/companies/${company}/customers`, { name: 'Odberateľ s.r.o.', vat_id: 'SK2020000004', city: 'Košice' })).body.id;
  });
  after(async () => {
    console.log(`      race: ${counts.rounds} rounds, ${counts.requests} credit-note requests, ${counts.wins} wins, ` +
      `${counts.stale412} × 412 version_mismatch, ${counts.limit422} × 422 credit_limit_exceeded, ${counts.notCreditable409} × 409 not_creditable; ` +
      `${counts.staleAllowance} allowance read(s) right after a win named the new version without its credit`);
    await svc?.close();
  });

  /** 123.00 at 23 % and 3 × 10.50 at 5 %, finished by hand. */
  async function handedOver(): Promise<Invoice> {
    const created = await svc.call('POST', `/companies/${company}/invoices`, {
      issue_date: `${year}-03-15`, due_date: `${year}-03-29`, customer_id: customer,
      lines: [
        { item_name: 'Konzultácia', quantity: '1', unit_price: '100.00', vat_rate: '23' },
        { item_name: 'Kniha', quantity: '3', unit_price: '10.00', vat_rate: '5' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const marked = await svc.call('POST', `/companies/${company}/invoices/${created.body.id}/mark-sent`, {});
    expect(marked.status, JSON.stringify(marked.body)).to.equal(200);
    return { ...(created.body as Invoice), version: await versionOf(created.body.id) };
  }

  /** A credit note made alone (201), returning the invoice's version after it and its total. */
  async function creditAlone(invoice: Invoice, version: number, body: unknown): Promise<{ version: number; gross: number }> {
    const answer = await credit(invoice.id, version, body);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
    return { version: Number(answer.headers.get('x-invoice-version')), gross: cents(answer.body.total_gross) };
  }

  /** What the reloaded losers get: the status, the error, and for a 422 the rule of its one finding. */
  type Refusal = { status: number; error: string; rule?: string };
  type Round = { invoice: Invoice; version: number; credited: number; bodies: unknown[]; losersGet: Refusal };

  /** Leaves a remaining amount and says what each of `n` racers asks for. */
  async function setUp(kind: number, n: number, round: number): Promise<Round> {
    const invoice = await handedOver();
    const remaining = 1 + ((round * 37) % 2000); // 0.01 … 20.00 of the 23 % bucket's 123.00
    const first = await creditAlone(invoice, invoice.version, { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: money(12300 - remaining) }] });
    if (kind === 0) {
      const bucket = { reason: 'partial_credit', amounts: [{ vat_rate: '23', gross: money(remaining) }] };
      return { invoice, version: first.version, credited: first.gross, bodies: Array(n).fill(bucket), losersGet: { status: 422, error: 'credit_limit_exceeded', rule: 'vat_rate_cap' } };
    }
    if (kind === 1) {
      const returned = await creditAlone(invoice, first.version, { reason: 'returned_goods', lines: [{ source_line_id: invoice.lines[1]!.id, quantity: '2' }] });
      const lastUnit = { reason: 'returned_goods', lines: [{ source_line_id: invoice.lines[1]!.id, quantity: '1' }] };
      return { invoice, version: returned.version, credited: first.gross + returned.gross, bodies: Array(n).fill(lastUnit), losersGet: { status: 422, error: 'credit_limit_exceeded', rule: 'row_cap' } };
    }
    const books = await creditAlone(invoice, first.version, { reason: 'partial_credit', amounts: [{ vat_rate: '5', gross: '31.50' }] });
    const everything = [{ reason: 'full_reversal', note: 'storno' }, { reason: 'price_correction', amounts: [{ vat_rate: '23', gross: money(remaining) }] }];
    return {
      invoice, version: books.version, credited: first.gross + books.gross,
      bodies: Array.from({ length: n }, (_, i) => everything[(i + round) % 2]), losersGet: { status: 409, error: 'not_creditable' },
    };
  }

  it(`exactly one of 2-16 parallel requests wins each of ${ROUNDS} rounds; the others get 412 (or 409 not_creditable once the winner took everything), then after reloading 422 credit_limit_exceeded ` +
    '(409 not_creditable when the winner took everything); no left value drops below 0.00 and credited_gross is what the winners took', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const n = 2 + (round % 15);
      const kind = round % 3;
      const { invoice, version, credited, bodies, losersGet } = await setUp(kind, n, round);

      const raced = await Promise.all(bodies.map((body) => credit(invoice.id, version, body)));
      const winners = raced.filter((a) => a.status === 201);
      const losers = raced.filter((a) => a.status !== 201);
      expect(winners, `round ${round}: ${JSON.stringify(raced.map((a) => [a.status, a.body?.detail?.error]))}`).to.have.length(1);
      // A loser that read the invoice before the win decided on that version: 412. One that read it
      // after a win that took everything is refused for what no version changes first (RFC 9110
      // §13.2.1, commands/shared/preconditions.ts): 409 not_creditable.
      const lostAs = kind === 2 ? ['412 version_mismatch', '409 not_creditable'] : ['412 version_mismatch'];
      for (const lost of losers) expect(lostAs, `round ${round}`).to.include(`${lost.status} ${lost.body.detail.error}`);
      const winner = winners[0]!;
      const after = Number(winner.headers.get('x-invoice-version'));
      // read at once, as a client would after the winner's answer: counted when it names the new version without the winner's credit
      const early = await allowanceOf(invoice.id);
      if (early.headers.get('etag') === `"${after}"` && cents(early.body.credited_gross) !== credited + cents(winner.body.total_gross)) counts.staleAllowance++;

      // the losers reload the invoice and ask again for the same
      const reloaded = await versionOf(invoice.id);
      expect(reloaded, `round ${round}: nothing but the winner moved the invoice`).to.equal(after);
      const retried: Answer[] = await Promise.all(raced.flatMap((a, i) => (a === winner ? [] : [credit(invoice.id, reloaded, bodies[i])])));
      for (const again of retried) {
        const { error, details } = again.body.detail as { error: string; details?: { rule: string }[] };
        expect([again.status, error, details?.map((d) => d.rule)[0]], `round ${round}`).to.deep.equal([losersGet.status, losersGet.error, losersGet.rule]);
      }
      expect(await versionOf(invoice.id), `round ${round}: a refusal writes nothing`).to.equal(after);

      const settled = await settledAllowance(invoice.id);
      expect(settled.headers.get('etag'), `round ${round}`).to.equal(`"${after}"`);
      const allowance = settled.body as Allowance;
      for (const b of allowance.buckets) {
        for (const left of [b.left_base, b.left_vat, b.left_gross]) expect(cents(left), `round ${round}: bucket ${JSON.stringify(b)}`).to.be.at.least(0);
      }
      for (const l of allowance.lines) {
        for (const left of [l.left_quantity, l.left_net, l.left_vat]) expect(Number(left), `round ${round}: line ${JSON.stringify(l)}`).to.be.at.least(0);
      }
      expect(cents(allowance.credited_gross), `round ${round} (kind ${kind}, n ${n}, version ${after}): ${JSON.stringify(allowance)}`).to.equal(credited + cents(winner.body.total_gross));
      expect(cents(allowance.credited_gross) + cents(allowance.left_gross)).to.equal(cents(allowance.total_gross));
      expect(allowance.buckets.reduce((sum, b) => sum + cents(b.credited_gross), 0)).to.equal(cents(allowance.credited_gross));
      if (kind === 2) expect(allowance).to.include({ creditable: false, left_gross: '0.00' });

      counts.rounds++;
      counts.requests += raced.length + retried.length;
      counts.wins += winners.length;
      counts.stale412 += losers.filter((a) => a.status === 412).length;
      counts.notCreditable409 += losers.filter((a) => a.status === 409).length;
      if (losersGet.status === 422) counts.limit422 += retried.length;
      else counts.notCreditable409 += retried.length;
    }
  });
});
