// `npm run cli -- validate FILE... [--json]`
import path from 'node:path';
import { expect } from 'chai';
import { run } from '../../src/cli/validate.ts';
import { SLOVAK_SCHEMATRON } from '../../src/validation/artifacts.ts';
import { needArtifacts } from './support/paths.ts';

const TESTS = path.join(path.dirname(SLOVAK_SCHEMATRON), 'tests');

async function capture(args: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => lines.push(a.join(' '));
  console.error = (...a: unknown[]) => lines.push(a.join(' '));
  try {
    return { code: await run(args), out: lines.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('validation: cli validate', function () {
  this.timeout(120_000);
  before(needArtifacts);

  it('prints findings per file and exits 1 on a fatal finding', async () => {
    const { code, out } = await capture([path.join(TESTS, 'good', 'sk-invoice.xml'), path.join(TESTS, 'bad', 'SK-R-002.xml')]);
    expect(code).to.equal(1);
    expect(out).to.match(/sk-invoice\.xml: valid/);
    expect(out).to.match(/SK-R-002\.xml: INVALID/);
    expect(out).to.contain('SK-R-002');
  });

  it('emits JSON reports with --json and exits 0 when only warnings fire', async () => {
    const { code, out } = await capture([path.join(TESTS, 'bad', 'SK-BR-04.xml'), '--json']);
    expect(code).to.equal(0);
    const parsed = JSON.parse(out) as { file: string; report: { warnings: { rule: string }[] } }[];
    expect(parsed[0]?.report.warnings.map((w) => w.rule)).to.deep.equal(['SK-BR-04']);
  });

  it('exits 2 on usage errors', async () => {
    expect((await capture([])).code).to.equal(2);
    expect((await capture(['no/such/file.xml'])).code).to.equal(2);
  });
});
