// The child process of bench/load.ts: keep-alive HTTP clients that POST one body until a deadline.
import http from 'node:http';
import type { LoadJob, LoadResult } from './load.ts';

function post(agent: http.Agent, target: URL, job: LoadJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = { ...job.headers, 'content-length': Buffer.byteLength(job.body) };
    const request = http.request({ agent, host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers }, (response) => {
      response.resume();
      response.on('end', () => {
        if (response.statusCode === job.expectStatus) resolve(performance.now() - started);
        else reject(new Error(`${target.pathname} answered ${response.statusCode}`));
      });
    });
    request.on('error', reject);
    request.end(job.body);
  });
}

async function run(job: LoadJob): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.clients });
  const target = new URL(job.url);
  try {
    for (let i = 0; i < job.warmup; i++) await post(agent, target, job); // JIT, pools, caches
    const latencies: number[] = [];
    const started = performance.now();
    const deadline = started + job.durationMs;
    await Promise.all(Array.from({ length: job.clients }, async () => {
      while (performance.now() < deadline) latencies.push(await post(agent, target, job));
    }));
    return { latencies, seconds: (performance.now() - started) / 1000 };
  } finally {
    agent.destroy();
  }
}

process.once('message', (job: LoadJob) => {
  run(job).then(
    (result) => process.send?.({ result }, () => process.exit(0)),
    (error: unknown) => process.send?.({ error: String(error) }, () => process.exit(1)),
  );
});
