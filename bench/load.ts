import { fork } from 'node:child_process';

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  body: string;
  expectStatus: number;
  clients: number;
  durationMs: number;
  /** requests sent one at a time before measuring */
  warmup: number;
}

export interface LoadResult {
  /** milliseconds per request, in completion order */
  latencies: number[];
  seconds: number;
}

/**
 * POSTs from keep-alive clients in a separate process. Clients in the service's own process would
 * take a large share of the event loop the benchmark is meant to measure; real clients are elsewhere.
 */
export function loadFromAnotherProcess(job: LoadJob): Promise<LoadResult> {
  const child = fork(new URL('./load-client.ts', import.meta.url), { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { result?: LoadResult; error?: string }) => {
      if (message.result) resolve(message.result);
      else reject(new Error(`load client: ${message.error ?? 'no result'}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`load client exited with ${code} before answering`)));
    child.send(job);
  });
}
