import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ephemeralSigningKeyPem } from '../../src/modules/identity/ephemeral-key.ts';
import { totpCode } from '../../src/modules/identity/totp.ts';
import { freePort, healthy, startService, stopService } from './support/service-process.ts';

/** Every entry under `dir` with its permission bits, directories included ('.' is `dir` itself). */
async function modes(dir: string): Promise<Map<string, { directory: boolean; mode: number }>> {
  const found = new Map<string, { directory: boolean; mode: number }>();
  const walk = async (at: string) => {
    const stats = await lstat(at);
    found.set(path.relative(dir, at) || '.', { directory: stats.isDirectory(), mode: stats.mode & 0o7777 });
    if (stats.isDirectory()) for (const name of await readdir(at)) await walk(path.join(at, name));
  };
  await walk(dir);
  return found;
}

/** Waits for the process to end; answers its exit code and what it wrote to stderr. */
async function exited(child: ChildProcess, withinMs: number): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`still running after ${withinMs} ms`)), withinMs);
    child.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, stderr };
}

// The service as an operator starts it (src/main.ts in its own process, from source), on the
// embedded default: what it leaves on disk is what any other user of the machine could read.
describe('DATA_DIR on the embedded default is private to the service’s user', function () {
  this.timeout(300_000);
  if (process.platform === 'win32') return;
  let parent: string;
  let child: ChildProcess | undefined;

  beforeEach(async () => (parent = await mkdtemp(path.join(tmpdir(), 'svc-datadir-'))));
  afterEach(async () => {
    if (child) await stopService(child);
    child = undefined;
    await rm(parent, { recursive: true, force: true });
  });

  it('a first start makes the directory 0700 and every file in it 0600, a TOTP enrolment included', async () => {
    // world-readable parent, as /tmp or a home directory often is: only DATA_DIR's own modes protect it
    await chmod(parent, 0o755);
    const dataDir = path.join(parent, 'data');
    const port = await freePort();
    child = startService('tsx', dataDir, port);
    await healthy(child, port, 240_000);
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    // a user turns two-factor on over HTTP: its key file and the database's files are written
    const post = async (route: string, body: unknown, token?: string) => {
      const response = await fetch(`${credentials.base_url}${route}`, {
        method: 'POST', body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      return { status: response.status, body: await response.json() };
    };
    const session = await post('/auth/login', credentials.admin);
    expect(session.status).to.equal(200);
    const enrol = await post('/auth/2fa/enrol', {}, session.body.access_token);
    expect(enrol.status).to.equal(200);
    expect((await post('/auth/2fa/confirm', { code: totpCode(enrol.body.secret) }, session.body.access_token)).status).to.equal(200);
    await stopService(child);
    child = undefined;

    const entries = await modes(dataDir);
    const files = [...entries].filter(([, e]) => !e.directory);
    expect(files.length).to.be.greaterThan(500); // PGlite's files, the keys, the demo credentials
    for (const name of ['demo-credentials.json', 'jwt-signing-key.json', 'webhook-secret.key', 'totp-secret.key']) expect(entries.get(name), name).to.include({ mode: 0o600 });
    const wrong = [...entries].filter(([, e]) => e.mode !== (e.directory ? 0o700 : 0o600)).map(([name, e]) => `${name} ${e.mode.toString(8)}`);
    expect(wrong).to.deep.equal([]);
  });

  it('refuses to start on a directory others may write: one sentence, exit code 1, nothing written', async () => {
    const dataDir = path.join(parent, 'shared');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    child = startService('tsx', dataDir, await freePort());
    const { code, stderr } = await exited(child, 120_000);
    child = undefined;
    expect(code).to.equal(1);
    expect(stderr).to.contain(`DATA_DIR ${dataDir} can be written by other users (mode 0777)`);
    expect(stderr).not.to.match(/\n\s+at /); // a sentence, not a stack
    expect(await readdir(dataDir)).to.deep.equal([]);
  });

  it('on a database of its own, refuses to start without TOTP_SECRET_KEY', async function () {
    const url = process.env.DATABASE_URL;
    if (!url) return this.skip(); // the embedded default makes its own key
    const name = `svc_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const target = new URL(url);
      target.pathname = `/${name}`;
      child = startService('tsx', path.join(parent, 'data'), await freePort(), {
        DATABASE_URL: target.toString(), JWT_PRIVATE_KEY: await ephemeralSigningKeyPem(), WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), TOTP_SECRET_KEY: '',
      });
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const { code } = await exited(child, 120_000);
      child = undefined;
      expect(code).to.equal(1);
      expect(stdout).to.contain('TOTP_SECRET_KEY');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
