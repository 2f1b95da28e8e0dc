// The README runs as written: every shell block of README.md and docs/*.md, in order, with bash
// (set -euo pipefail; curl fails on any error status), against a service started as a user starts
// it, on an empty DATA_DIR, offline, on the embedded default. A block the reader cannot run here
// (npm ci, npm start, benchmarks, campaigns, Docker, a real Peppol network, a phone for 2FA) says
// so in its fence: ```sh norun. Everything else runs; a failure names the file, the block and the
// command.
import { expect } from 'chai';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, healthy, startService, stopService } from '../e2e/support/service-process.ts';
import { shellBlocks, type ShellBlock } from './shell-blocks.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
// the README's own host and port; the runner's service listens on a free port instead
const README_ORIGIN = /\b(127\.0\.0\.1|localhost):8080\b/g;
// what the reader's service is started with: the webhook walk-through posts to a receiver on this machine
const SERVICE_ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', LOG_LEVEL: 'error' };

async function walkThroughs(): Promise<{ file: string; blocks: ShellBlock[] }[]> {
  const docs = (await readdir(path.join(REPO, 'docs'))).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return Promise.all(['README.md', ...docs].map(async (file) => ({ file, blocks: shellBlocks(await readFile(path.join(REPO, file), 'utf8')) })));
}

const PRELUDE = readFileSync(fileURLToPath(new URL('./block-prelude.sh', import.meta.url)), 'utf8');

describe('README.md and docs/*.md run as written', function () {
  this.timeout(600_000);
  let work: string;
  let port: number;
  let service: ChildProcess | undefined;
  let output = '';

  before(async function () {
    work = await mkdtemp(path.join(tmpdir(), 'readme-runner-'));
    // the reader's checkout: ./data is the service's DATA_DIR, ./docs the repository's
    await mkdir(path.join(work, 'data'), { mode: 0o700 });
    await symlink(path.join(REPO, 'docs'), path.join(work, 'docs'));
    port = await freePort();
    service = startService('tsx', path.join(work, 'data'), port, SERVICE_ENV);
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await healthy(service, port, 300_000);
    console.log(`      (service on 127.0.0.1:${port}, DATA_DIR ${work}/data, env ${JSON.stringify(SERVICE_ENV)})`);
  });
  after(async () => {
    if (service) await stopService(service);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('runs every shell block not marked norun, in order, each file from a fresh shell', async () => {
    const failures: string[] = [];
    let ran = 0;
    for (const { file, blocks } of await walkThroughs()) {
      const state = path.join(work, `.state-${file.replace(/\W/g, '_')}`);
      await writeFile(state, '');
      for (const [i, block] of blocks.entries()) {
        const name = `${file} block ${i + 1} (line ${block.line})`;
        if (block.norun) {
          console.log(`      skip ${name} (norun): ${block.text.split('\n')[0]}`);
          continue;
        }
        const blockFile = path.join(work, '.block.sh');
        await writeFile(blockFile, block.text.replace(README_ORIGIN, `127.0.0.1:${port}`) + '\n');
        const run = spawnSync('bash', ['-c', PRELUDE], {
          cwd: work, encoding: 'utf8', timeout: 180_000,
          env: { ...process.env, RUNNER_STATE: state, RUNNER_BLOCK: blockFile },
        });
        ran += 1;
        if (run.status !== 0) {
          const failedAt = /FAILED \(exit \d+\) at line (\d+): (.*)/.exec(run.stderr ?? '');
          const where = failedAt ? `line ${block.line + Number(failedAt[1])}: ${failedAt[2]}` : `exit ${run.status ?? run.signal}`;
          failures.push(`${name}, ${where}\n--- stdout (tail)\n${(run.stdout ?? '').slice(-1500)}\n--- stderr (tail)\n${(run.stderr ?? '').slice(-1500)}`);
          break; // the file's later blocks build on this one
        }
        await rm(state, { force: true });
        await writeFile(state, await readFile(`${state}.next`, 'utf8'));
        console.log(`      ran  ${name}`);
        // README_RUNNER_VERBOSE=1: what each block printed, as a reader would see it
        if (process.env['README_RUNNER_VERBOSE']) console.log(`${run.stdout ?? ''}${run.stderr ?? ''}`.replace(/^/gm, '        | '));
      }
    }
    if (failures.length > 0) console.log(`      service output (tail):\n${output.slice(-3000)}`);
    expect(failures, failures.join('\n\n')).to.deep.equal([]);
    expect(ran).to.be.greaterThan(5);
  });
});
