// The child process of bench/bulk-import.ts: keep-alive HTTP clients that create invoices at a
// steady pace (each waits out the rest of its interval after an answer) until told to stop, and
// report each create's latency. They run outside the service's process so they do not take its
// event loop.
import http from 'node:http';

export interface CreatorsJob {
  /** '…/api/v1/companies/{id}/invoices' */
  url: string;
  headers: Record<string, string>;
  body: string;
  clients: number;
  /** each client's interval between the starts of two creates */
  intervalMs: number;
}

export interface CreatorsResult {
  latencies: number[];
  statuses: Record<string, number>;
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

let stopping = false;
/** creates started before 'measure' (connections opening, the first requests) are not counted */
let measuring = false;
process.on('message', (message: CreatorsJob | 'measure' | 'stop') => {
  if (message === 'stop') {
    stopping = true;
    return;
  }
  if (message === 'measure') {
    measuring = true;
    return;
  }
  void run(message).then((result) => process.send?.({ result }), (error: unknown) => process.send?.({ error: String(error) }));
});

async function run(job: CreatorsJob): Promise<CreatorsResult> {
  const url = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const client = async (offset: number) => {
    await new Promise((r) => setTimeout(r, offset));
    while (!stopping) {
      const counted = measuring;
      const started = performance.now();
      const status = await post(agent, url, job.headers, job.body);
      const ms = performance.now() - started;
      if (counted) {
        latencies.push(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, job.intervalMs - ms)));
    }
  };
  await Promise.all(Array.from({ length: job.clients }, (_, i) => client((i * job.intervalMs) / job.clients)));
  agent.destroy();
  return { latencies, statuses };
}
