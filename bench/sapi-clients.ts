// The child process of bench/sapi.ts: keep-alive SAPI-SK clients that send documents (each with
// its own Idempotency-Key and document number) or replay earlier sends, until a deadline; or, paced,
// sends that arrive at a fixed rate whatever the answers do (an open loop: a latency is counted from
// the moment the request was due, so a slow answer cannot hide the requests queued behind it).
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';

export interface SapiLoadJob {
  /** 'http://127.0.0.1:PORT/sapi' */
  sapi: string;
  token: string;
  participant: string;
  clients: number;
  durationMs: number;
  kind: 'send' | 'replay' | 'paced';
  /** paced: requests per second, due at even intervals */
  ratePerSecond?: number;
  /** send, paced: the UBL with `{{NUMBER}}` where its cbc:ID goes, and the send metadata */
  template?: string;
  metadata?: Record<string, string>;
  /** replay: requests sent before, as (key, body, the providerDocumentId they got) */
  replays?: SentRequest[];
  /** send: keep this many requests for the replay phase */
  keep?: number;
}

export interface SentRequest {
  key: string;
  body: string;
  providerDocumentId: string;
  /** ms since the epoch when the 202 arrived */
  acceptedAt: number;
}

export interface SapiLoadResult {
  latencies: number[];
  seconds: number;
  counts: Record<string, number>;
  sent: SentRequest[];
  /** this process's CPU time (user + system) while it ran the job, ms */
  cpuMs: number;
}

interface Answer { status: number; body: string }

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

function sendBody(job: SapiLoadJob, documentId: string, number: string): string {
  const payload = (job.template ?? '').replace('{{NUMBER}}', number);
  const checksum = createHash('sha256').update(payload, 'utf8').digest('hex');
  return JSON.stringify({ metadata: { ...job.metadata, documentId, creationDateTime: new Date().toISOString() }, payload, payloadFormat: 'XML', payloadEncoding: 'UTF-8', checksum });
}

/** Sends due every 1/rate s until the deadline, each on its own (a socket per request in flight). */
async function paced(job: SapiLoadJob, agent: http.Agent, url: URL, base: Record<string, string>): Promise<Omit<SapiLoadResult, 'cpuMs'>> {
  const rate = job.ratePerSecond ?? 1;
  const latencies: number[] = [];
  const counts: Record<string, number> = {};
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; started + (i * 1000) / rate < started + job.durationMs; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = sendBody(job, `paced-${i}`, `PACED-${process.pid}-${i}`);
    inFlight.push(post(agent, url, { ...base, 'idempotency-key': randomUUID() }, body).then((answer) => {
      latencies.push(performance.now() - due);
      counts[String(answer.status)] = (counts[String(answer.status)] ?? 0) + 1;
      if (answer.status !== 202) throw new Error(`paced send answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    }));
  }
  await Promise.all(inFlight);
  return { latencies, seconds: (performance.now() - started) / 1000, counts, sent: [] };
}

async function run(job: SapiLoadJob): Promise<SapiLoadResult> {
  const cpu = process.cpuUsage();
  const result = await load(job);
  const used = process.cpuUsage(cpu);
  return { ...result, cpuMs: (used.user + used.system) / 1000 };
}

async function load(job: SapiLoadJob): Promise<Omit<SapiLoadResult, 'cpuMs'>> {
  // paced: no cap on sockets, or the cap would queue requests in the client and hide the wait
  const agent = new http.Agent({ keepAlive: true, ...(job.kind === 'paced' ? {} : { maxSockets: job.clients }) });
  const url = new URL(`${job.sapi}/document/send`);
  const base = { authorization: `Bearer ${job.token}`, 'x-peppol-participant-id': job.participant, 'content-type': 'application/json' };
  if (job.kind === 'paced') {
    try {
      return await paced(job, agent, url, base);
    } finally {
      agent.destroy();
    }
  }
  const latencies: number[] = [];
  const counts: Record<string, number> = {};
  const sent: SentRequest[] = [];
  const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);
  const started = performance.now();
  const deadline = started + job.durationMs;
  let sequence = 0;
  try {
    await Promise.all(Array.from({ length: job.clients }, async (_, client) => {
      for (let i = 0; performance.now() < deadline; i++) {
        let key: string;
        let body: string;
        let expected: string | null = null;
        if (job.kind === 'send') {
          key = randomUUID();
          body = sendBody(job, `doc-${client}-${i}`, `SAPI-${process.pid}-${sequence++}`);
        } else {
          const replay = job.replays?.[(client * 7919 + i) % (job.replays?.length ?? 1)];
          if (!replay) throw new Error('nothing to replay');
          ({ key, body } = replay);
          expected = replay.providerDocumentId;
        }
        const t0 = performance.now();
        const answer = await post(agent, url, { ...base, 'idempotency-key': key }, body);
        latencies.push(performance.now() - t0);
        count(String(answer.status));
        if (answer.status !== 202) throw new Error(`send answered ${answer.status}: ${answer.body.slice(0, 500)}`);
        const id = (JSON.parse(answer.body) as { providerDocumentId: string }).providerDocumentId;
        if (expected !== null && id !== expected) throw new Error(`a replay answered ${id}, not ${expected}`);
        if (job.kind === 'send' && sent.length < (job.keep ?? 0)) sent.push({ key, body, providerDocumentId: id, acceptedAt: Date.now() });
      }
    }));
    return { latencies, seconds: (performance.now() - started) / 1000, counts, sent };
  } finally {
    agent.destroy();
  }
}

process.once('message', (job: SapiLoadJob) => {
  run(job).then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
  );
});
