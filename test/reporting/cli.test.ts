// `npm run cli -- reporting preview --month YYYY-MM` on the embedded default (a fresh DATA_DIR).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { describeDatabaseFree } from '../support/database-free.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

async function cli(args: string[], dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(process.env.VALIDATION_ARTIFACTS_DIR ? { VALIDATION_ARTIFACTS_DIR: process.env.VALIDATION_ARTIFACTS_DIR } : {}) };
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env, timeout: 240_000 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

describeDatabaseFree('reporting preview (CLI)', function () {
  this.timeout(300_000);
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reporting-cli-'));
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('prints the EUSR, then the TSR, of the month as XML on stdout: zero reports on a database with no traffic', async () => {
    const run = await cli(['reporting', 'preview', '--month', '2026-11'], dataDir);
    expect(run.code, run.stderr).to.equal(0);
    const eusr = run.stdout.indexOf('<EndUserStatisticsReport');
    const tsr = run.stdout.indexOf('<TransactionStatisticsReport');
    expect(eusr).to.be.greaterThan(-1);
    expect(tsr).to.be.greaterThan(eusr);
    expect(run.stdout.startsWith('<?xml')).to.equal(true);
    expect(run.stdout).to.include('<StartDate>2026-11-01</StartDate>').and.include('<EndDate>2026-11-30</EndDate>').and.include('<Incoming>0</Incoming>');
  });

  it('exit code 2 and the usage for a month that is not one', async () => {
    const run = await cli(['reporting', 'preview', '--month', '2026-13'], dataDir);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.include('usage: npm run cli -- reporting preview --month YYYY-MM');
  });

  it('while another live process holds DATA_DIR (the service): exit code 1 and one line saying so, no stack', async () => {
    fs.writeFileSync(path.join(dataDir, 'service.pid'), String(process.pid));
    try {
      const run = await cli(['reporting', 'preview', '--month', '2026-11'], dataDir);
      expect(run.code).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr.trim()).to.equal(`${dataDir} is in use by process ${process.pid} (the service?). Stop it first, or point DATA_DIR elsewhere.`);
    } finally {
      fs.rmSync(path.join(dataDir, 'service.pid'), { force: true });
    }
  });
});
