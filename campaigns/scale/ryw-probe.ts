// Read-your-writes across instances, probed beside the load: write through one instance, read at
// once through another (never the balancer), and compare. An instance that dies mid-pair skips the
// pair; a 503 `read_model_behind` (the read model did not show the write within the service's
// bound, and it says so) is counted on its own; any other miss is a violation.
import { randomUUID } from 'node:crypto';
import type { DemoCredentials } from '../../src/demo/bootstrap.ts';
import { Seeded } from '../../test/ubl/support/seeded.ts';
import { bodyOf, send } from '../support/http.ts';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function call(root: string, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  try {
    const reply = await send({ method, url: `${root}/api/v1${path}`, headers: { 'x-api-key': key, ...headers }, body, timeoutMs: 30_000 });
    return { status: reply.status, body: bodyOf(reply) };
  } catch {
    return { status: 0, body: null };
  }
}

/** the service's honest refusal: the write is stored, its read model did not show it within the bound */
const behind = (a: Answer) => a.status === 503 && a.body?.detail?.error === 'read_model_behind';
/** an instance going down shows as no answer or another 5xx: the pair is skipped, not judged */
const gone = (a: Answer) => a.status === 0 || (a.status >= 500 && !behind(a));

export interface RywResult {
  probes: number;
  skipped: number;
  /** answers 503 read_model_behind (a read, or an edit whose answer could not show its own version): honest, not judged */
  behind: number;
  violations: string[];
  /** violations whose write answered only after the service's read-your-writes bound (READ_YOUR_WRITES_TIMEOUT_MS, 3 s): the wait ran out */
  afterBound: number;
  /** judged writes (creates and edits) answered only after 3 s: their own wait ran out, so the read right after depended on waiting itself */
  slowWrites: number;
}

export function startRywProbe(options: { instances: () => string[]; credentials: DemoCredentials; seed: number }): { stop(): Promise<RywResult> } {
  const random = new Seeded(options.seed ^ 0x5ca1e);
  const demo = options.credentials;
  const key = demo.second_organisation.api_key;
  const company = demo.second_organisation.company_id;
  const buyer = demo.companies[0]!;
  const result: RywResult = { probes: 0, skipped: 0, behind: 0, violations: [], afterBound: 0, slowWrites: 0 };
  let running = true;
  const two = (): [string, string] | null => {
    const live = options.instances();
    if (live.length < 2) return null;
    const i = random.int(0, live.length - 1);
    const j = (i + random.int(1, live.length - 1)) % live.length;
    return [live[i]!, live[j]!];
  };
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** for a violation's note: how long after the miss the reader showed the version (up to 10 s) */
  async function shownAfter(reader: string, id: string, version: number): Promise<string> {
    const missed = Date.now();
    while (Date.now() - missed < 10_000) {
      await sleep(250);
      const again = await call(reader, 'GET', `/companies/${company}/invoices/${id}`, key);
      if (again.status === 200 && again.body.version === version) return `shown ${Date.now() - missed} ms later`;
    }
    return 'not shown within 10 s';
  }

  async function customer(): Promise<string> {
    for (;;) {
      const pair = two();
      if (pair) {
        const created = await call(pair[0], 'POST', `/companies/${company}/customers`, key, {
          name: `${buyer.name} (${randomUUID().slice(0, 6)})`, vat_id: buyer.vat_id, ico: buyer.ico, dic: buyer.dic, peppol_id: buyer.peppol_id,
        });
        if (created.status === 201) return created.body.id;
        if (created.status === 409) {
          const found = await call(pair[0], 'GET', `/companies/${company}/customers?q=${encodeURIComponent(buyer.vat_id)}`, key);
          if (found.body?.items?.[0]?.id) return found.body.items[0].id;
        }
      }
      await sleep(500);
    }
  }

  const loop = (async () => {
    const customerId = await customer();
    const body = (n: number) => ({
      issue_date: '2026-11-20', due_date: '2026-12-04', customer_id: customerId,
      lines: [{ item_name: `Probe ${n}`, quantity: '1', unit_price: '10.00', vat_rate: '23' }],
    });
    for (let n = 0; running; n++) {
      const pair = two();
      if (!pair) {
        await sleep(200);
        continue;
      }
      const [writer, reader] = pair;
      const sent = Date.now();
      const created = await call(writer, 'POST', `/companies/${company}/invoices`, key, body(n));
      const took = Date.now() - sent;
      if (created.status !== 201) {
        if (!gone(created)) result.violations.push(`create refused ${created.status}`);
        else result.skipped++;
        continue;
      }
      const shown = await call(reader, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
      if (gone(shown)) {
        result.skipped++;
        continue;
      }
      if (behind(shown)) {
        result.behind++;
        continue;
      }
      result.probes++;
      if (took >= 3_000) result.slowWrites++;
      if (shown.status !== 200 || shown.body.version !== created.body.version) {
        if (took >= 3_000) result.afterBound++;
        result.violations.push(`create on ${writer} (answered in ${took} ms, ${new Date(sent).toISOString()}), GET on ${reader}: ${shown.status} v${shown.body?.version} (want v${created.body.version}); ${await shownAfter(reader, created.body.id, created.body.version)}`);
        continue;
      }
      // and the other way round: an edit through the reader, read back through the writer
      const editSent = Date.now();
      const edited = await call(reader, 'PUT', `/companies/${company}/invoices/${created.body.id}`, key, { ...body(n), note: `edit ${n}` }, { 'if-match': String(created.body.version) });
      const editTook = Date.now() - editSent;
      if (gone(edited)) {
        result.skipped++;
        continue;
      }
      if (behind(edited)) {
        result.behind++;
        continue;
      }
      if (edited.status !== 200) {
        result.violations.push(`edit on ${reader} after create on ${writer}: ${edited.status}`);
        continue;
      }
      const again = await call(writer, 'GET', `/companies/${company}/invoices/${created.body.id}`, key);
      if (gone(again)) {
        result.skipped++;
        continue;
      }
      if (behind(again)) {
        result.behind++;
        continue;
      }
      result.probes++;
      if (editTook >= 3_000) result.slowWrites++;
      if (again.status !== 200 || again.body.version !== edited.body.version) {
        if (editTook >= 3_000) result.afterBound++;
        result.violations.push(`edit on ${reader}, GET on ${writer}: ${again.status} v${again.body?.version} (want v${edited.body.version}); ${await shownAfter(writer, created.body.id, edited.body.version)}`);
      }
      await sleep(50);
    }
  })();

  return {
    async stop() {
      running = false;
      await loop;
      return result;
    },
  };
}
