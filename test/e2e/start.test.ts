import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, healthy, startService, stopService } from './support/service-process.ts';

// Bounds are generous on purpose: on a loaded machine the first start (a build when dist/ is stale,
// then PGlite's initdb and the demo) has taken well over 30 s; the figure that matters is
// `npm run bench -- startup`'s.
describe('npm start on the embedded default', function () {
  this.timeout(360_000);
  let dataDir: string;
  let port: number;
  let child: ChildProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'svc-start-'));
    port = await freePort();
  });
  afterEach(async () => {
    if (child) await stopService(child);
  });
  after(async () => rm(dataDir, { recursive: true, force: true }));

  it('builds when needed, answers health on an empty DATA_DIR and writes the demo credentials', async () => {
    child = startService('npm-start', dataDir, port);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const ms = await healthy(child, port, 300_000);
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
    child = startService('npm-start', dataDir, port);
    const ms = await healthy(child, port, 180_000);
    expect(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')).to.equal(before);
    const credentials = JSON.parse(before);
    const listed = await fetch(`${credentials.base_url}/companies/${credentials.companies[0].id}/customers?q=restart`, {
      headers: { 'x-api-key': credentials.api_key },
    });
    expect((await listed.json()).total).to.equal(1);
    console.log(`      (restart healthy after ${ms} ms)`);
  });
});
