import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` as a newcomer runs it: the embedded default in a DATA_DIR, nothing else. */
function start(dataDir: string, port: number): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.EVENTSTORE_URL;
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

async function healthy(port: number, withinMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (response.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy answer within ${withinMs} ms`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

describe('npm start on the embedded default', function () {
  this.timeout(120_000);
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'svc-start-'));
    port = await freePort();
  });
  afterEach(async () => {
    if (child) await stop(child);
  });
  after(async () => rm(dataDir, { recursive: true, force: true }));

  it('answers health within 30 s on an empty DATA_DIR and writes the demo credentials', async () => {
    child = start(dataDir, port);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ms = await healthy(port, 30_000);
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(credentials.base_url).to.equal(`http://127.0.0.1:${port}/api/v1`);
    expect(output).to.include(credentials.api_key);
    const company = credentials.companies[0].id;
    const created = await fetch(`${credentials.base_url}/companies/${company}/customers`, {
      method: 'POST',
      headers: { 'x-api-key': credentials.api_key, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Pretrvá reštart s.r.o.', vat_id: 'SK2020000081' }),
    });
    expect(created.status).to.equal(201);
    console.log(`      (healthy after ${ms} ms)`);
  });

  it('keeps its data across a restart and does not create a second demo', async () => {
    const before = await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8');
    child = start(dataDir, port);
    await healthy(port, 30_000);
    expect(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')).to.equal(before);
    const credentials = JSON.parse(before);
    const listed = await fetch(`${credentials.base_url}/companies/${credentials.companies[0].id}/customers?q=restart`, {
      headers: { 'x-api-key': credentials.api_key },
    });
    expect((await listed.json()).total).to.equal(1);
  });
});
