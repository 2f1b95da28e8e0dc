// The child process of bench/credit-notes.ts: keep-alive HTTP clients that make credit notes (reloading the
// invoice version as a client does) or read an allowance, until a deadline.
import http from 'node:http';

export interface Held {
  id: string;
  version: number;
}

export type CreditNoteJob = {
  /** '…/api/v1/companies/{id}' */
  company: string;
  headers: Record<string, string>;
  clients: number;
  durationMs: number;
} & (
  /** each client credits its own invoices in turn */
  | { kind: 'distinct'; invoices: Held[][]; body: string }
  /**
   * every client credits the same invoice; one that has too little left for `body` is left for the
   * next. On 412 a client reloads the invoice (GET, the register), or takes the 412's current_version.
   */
  | { kind: 'hot'; invoices: Held[]; body: string; on412: 'reload' | 'current_version' }
  | { kind: 'allowance'; invoice: string }
);

export interface CreditNoteResult {
  /** milliseconds per request, in completion order */
  latencies: number[];
  /** hot: milliseconds from a client's first try to its credit note, 412 retries included */
  winLatencies: number[];
  seconds: number;
  counts: Record<string, number>;
}

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: string }

function call(agent: http.Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method, headers: sent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const errorOf = (answer: Answer) => (JSON.parse(answer.body) as { detail?: { error?: string } }).detail?.error ?? '';

async function run(job: CreditNoteJob): Promise<CreditNoteResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });
  const latencies: number[] = [];
  const winLatencies: number[] = [];
  const counts: Record<string, number> = {};
  const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);
  const timed = async (url: URL, method: string, body?: string, ifMatch?: number) => {
    const started = performance.now();
    const answer = await call(agent, url, method, ifMatch === undefined ? job.headers : { ...job.headers, 'if-match': `"${ifMatch}"` }, body);
    latencies.push(performance.now() - started);
    return answer;
  };
  const creditNotes = (id: string) => new URL(`${job.company}/invoices/${id}/credit-notes`);
  const reload = async (held: Held) => {
    const answer = await call(agent, new URL(`${job.company}/invoices/${held.id}`), 'GET', job.headers);
    held.version = (JSON.parse(answer.body) as { version: number }).version;
  };
  const started = performance.now();
  const deadline = started + job.durationMs;
  try {
    if (job.kind === 'distinct') {
      await Promise.all(job.invoices.map(async (mine) => {
        for (let i = 0; performance.now() < deadline; i++) {
          const held = mine[i % mine.length]!;
          const answer = await timed(creditNotes(held.id), 'POST', job.body, held.version);
          if (answer.status !== 201) throw new Error(`credit note on ${held.id}: ${answer.status} ${answer.body}`);
          count('201');
          held.version = Number(answer.headers['x-invoice-version']);
        }
      }));
    } else if (job.kind === 'hot') {
      let current = 0; // the hot invoice every client is on; a client that finds it spent moves all on
      await Promise.all(Array.from({ length: job.clients }, async () => {
        let mine = -1;
        const held: Held = { id: '', version: 0 };
        let firstTry = performance.now();
        while (performance.now() < deadline && current < job.invoices.length) {
          if (mine !== current) {
            mine = current;
            held.id = job.invoices[mine]!.id;
            await reload(held);
            firstTry = performance.now();
          }
          const answer = await timed(creditNotes(held.id), 'POST', job.body, held.version);
          if (answer.status === 201) {
            count('201');
            winLatencies.push(performance.now() - firstTry);
            held.version = Number(answer.headers['x-invoice-version']);
            firstTry = performance.now();
          } else if (answer.status === 412) {
            count('412');
            const current = (JSON.parse(answer.body) as { detail?: { current_version?: number } }).detail?.current_version;
            if (job.on412 === 'current_version' && current !== undefined) held.version = current;
            else await reload(held);
          } else if ((answer.status === 422 || answer.status === 409) && ['credit_limit_exceeded', 'not_creditable'].includes(errorOf(answer))) {
            count(String(answer.status));
            current = Math.max(current, mine + 1);
          } else {
            throw new Error(`credit note on ${held.id}: ${answer.status} ${answer.body}`);
          }
        }
      }));
      if (current >= job.invoices.length) count('ran out of hot invoices');
      counts.reached = current;
    } else {
      const url = new URL(`${job.company}/invoices/${job.invoice}/credit-notes/allowance`);
      await Promise.all(Array.from({ length: job.clients }, async () => {
        while (performance.now() < deadline) {
          const answer = await timed(url, 'GET');
          if (answer.status !== 200) throw new Error(`allowance: ${answer.status} ${answer.body}`);
          count('200');
        }
      }));
    }
    return { latencies, winLatencies, seconds: (performance.now() - started) / 1000, counts };
  } finally {
    agent.destroy();
  }
}

process.once('message', (job: CreditNoteJob) => {
  run(job).then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
  );
});
