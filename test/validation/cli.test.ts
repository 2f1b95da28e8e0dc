// `npm run cli -- validate FILE... [--json]`
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { run } from '../../src/cli/validate.ts';
import { SLOVAK_SCHEMATRON } from '../../src/platform/validation/artifacts.ts';
import { ENTITY_TEXT, encode, goodInvoiceDeclaring, invoiceWithEntity, UTFS } from './support/encodings.ts';
import { invoiceWithNotes } from './support/generate-invoice.ts';
import { AFTER, artifactsWithFutureRelease, FIXTURE_RULE_ID, NEW, OLD } from './support/future-release.ts';
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
    const { code, out } = await capture([path.join(TESTS, 'good', 'sk-invoice.xml'), path.join(TESTS, 'bad', 'SK-SVC-002.xml')]);
    expect(code).to.equal(1);
    expect(out).to.match(/sk-invoice\.xml: valid/);
    expect(out).to.match(/SK-SVC-002\.xml: INVALID/);
    expect(out).to.contain('SK-SVC-002');
  });

  it('emits JSON reports with --json and exits 0 when only warnings fire', async () => {
    const { code, out } = await capture([path.join(TESTS, 'bad', 'SK-BR-04.xml'), '--json']);
    expect(code).to.equal(0);
    const parsed = JSON.parse(out) as { file: string; report: { warnings: { rule: string }[] } }[];
    expect(parsed[0]?.report.warnings.map((w) => w.rule)).to.deep.equal(['SK-BR-04']);
  });

  it('checks under the rule release in force at --at and names it', async () => {
    const dir = artifactsWithFutureRelease();
    const before = process.env.VALIDATION_ARTIFACTS_DIR;
    process.env.VALIDATION_ARTIFACTS_DIR = dir;
    const file = path.join(TESTS, 'good', 'sk-invoice.xml');
    try {
      const old = await capture([file, '--at', '2099-02-23T23:59:59Z']);
      expect(old.out).to.match(new RegExp(`sk-invoice\\.xml: valid \\(Invoice; rules ${OLD};`));
      expect(old.code).to.equal(0);
      const next = await capture([file, '--at', AFTER.toISOString().slice(0, 10)]);
      expect(next.out).to.match(new RegExp(`sk-invoice\\.xml: INVALID \\(Invoice; rules ${NEW};`));
      expect(next.out).to.contain(FIXTURE_RULE_ID);
      expect(next.code).to.equal(1);
      const bad = await capture([file, '--at', 'next tuesday']);
      expect(bad.out).to.contain('--at must be');
      expect(bad.code).to.equal(2);
    } finally {
      if (before === undefined) delete process.env.VALIDATION_ARTIFACTS_DIR;
      else process.env.VALIDATION_ARTIFACTS_DIR = before;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('never calls a file valid when a rule set could not run: NOT CHECKED, exit 3', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'no-artifacts-'));
    const before = process.env.VALIDATION_ARTIFACTS_DIR;
    process.env.VALIDATION_ARTIFACTS_DIR = empty;
    try {
      const { code, out } = await capture([path.join(TESTS, 'good', 'sk-invoice.xml')]);
      expect(out).to.match(/sk-invoice\.xml: NOT CHECKED/);
      expect(out).not.to.match(/: valid/);
      expect(out).to.contain('VALIDATION_ARTIFACTS_DIR');
      expect(code).to.equal(3);
    } finally {
      if (before === undefined) delete process.env.VALIDATION_ARTIFACTS_DIR;
      else process.env.VALIDATION_ARTIFACTS_DIR = before;
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('exits 2 on usage errors', async () => {
    expect((await capture([])).code).to.equal(2);
    expect((await capture(['no/such/file.xml'])).code).to.equal(2);
  });

  describe('hostile files', () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-validate-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    function write(name: string, bytes: Uint8Array | string): string {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    }

    it('reports a DOCTYPE in UTF-16 or UTF-32 (with or without BOM) as a finding and exits 1, never expanding it', async () => {
      const files: string[] = [];
      for (const utf of UTFS) {
        for (const bom of [false, true]) {
          // the external entity once made the XSD stage throw an uncaught XmlError
          files.push(write(`${utf}-${bom ? 'bom' : 'nobom'}.xml`, encode(invoiceWithEntity(utf, true), utf, bom)));
        }
      }
      const { code, out } = await capture([...files, '--json', '--workers', '0']);
      expect(code).to.equal(1);
      expect(out).to.not.contain(ENTITY_TEXT);
      const reports = JSON.parse(out) as { file: string; report: { errors: { rule: string }[] } }[];
      expect(reports.map((r) => [path.basename(r.file), r.report.errors.map((e) => e.rule)])).to.deep.equal(
        files.map((f) => [path.basename(f), [path.basename(f).startsWith('UTF-16') ? 'XML-DOCTYPE' : 'XML-ENCODING-UNSUPPORTED']]),
      );
      const text = await capture([files[0] ?? '']);
      expect([text.code, text.out]).to.satisfy(([c, o]: [number, string]) => c === 1 && /INVALID/.test(o) && /XML-DOCTYPE/.test(o) && !o.includes(ENTITY_TEXT));
    });

    it('validates a UTF-16 invoice with a BOM as the invoice it is', async () => {
      const { code, out } = await capture([write('utf16-bom.xml', encode(goodInvoiceDeclaring('UTF-16LE'), 'UTF-16LE', true))]);
      expect(out).to.match(/utf16-bom\.xml: valid/);
      expect(code).to.equal(0);
    });

    it('refuses a document of 200,000 notes with XML-TOO-MANY-ELEMENTS and exits 1', async () => {
      const { code, out } = await capture([write('notes.xml', invoiceWithNotes(200_000))]);
      expect(code).to.equal(1);
      expect(out).to.contain('XML-TOO-MANY-ELEMENTS');
    });

    it('exits 2, not with a crash, on a path it cannot read', async () => {
      const { code, out } = await capture([dir]);
      expect(code).to.equal(2);
      expect(out).to.contain('cannot read');
    });
  });
});
