import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { sandboxCorner5, type SandboxCorner5 } from '../../../src/modules/delivery/sandbox/corner5.ts';
import { readModelsSource } from '../../../src/platform/readmodel/data-source.ts';
import { freshDatabase, type TestDatabase } from '../../support/database.ts';

const INVOICE = 'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

/**
 * The sandbox's corner 5 reads every TDD with the safe parser (issue 21, the xml campaign). A
 * document it cannot read is refused by its MLS (RE) and not kept: storing a 10 MB text node cost ~400 ms and
 * ~100 MB, and UTF-16 bytes read as UTF-8 (NUL characters) made the insert throw, so the filing
 * failed with a database error instead of a verdict.
 */
describe('the sandbox\'s corner 5: a TDD it cannot read is refused, not kept', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: DataSource;
  let fs: SandboxCorner5;

  before(async () => {
    database = await freshDatabase();
    db = readModelsSource(database.connectionString, 2);
    await db.initialize();
    fs = sandboxCorner5(db, { rules: [] });
  });
  after(async () => {
    await db?.destroy();
    await database?.drop();
  });

  async function file(tdd: string) {
    const submission = randomUUID();
    const answer = await fs.take(submission, tdd);
    const kept = (await fs.filed()).find((f) => f.submission_id === submission);
    // the rule each reason names first, as the MLS writes it: [RULE] message
    const rules = answer.issues.map((i) => /^\[([^\]]+)\]/.exec(i.description)?.[1]);
    return { verdict: { outcome: answer.response_code === 'AP' ? 'acknowledged' : 'rejected', rule: rules[0] }, kept };
  }

  it('a TDD with NUL characters (UTF-16 read as UTF-8) gets a rejection, not a database error', async () => {
    const utf16 = Buffer.from(`\uFEFF<?xml version="1.0" encoding="UTF-16"?><Invoice ${INVOICE}/>`, 'utf16le').toString('utf8');
    const { verdict, kept } = await file(utf16);
    expect(verdict.outcome).to.equal('rejected');
    expect(verdict.rule).to.equal('XML-MALFORMED');
    expect(kept?.tdd).to.equal('');
  });

  it('a 10 MB text node is refused before parsing (XML-TOO-LARGE) and its text is not stored', async () => {
    const tdd = `<Invoice ${INVOICE}><cbc:Note>${'A'.repeat(10 * 1024 * 1024)}</cbc:Note></Invoice>`;
    const { verdict, kept } = await file(tdd);
    expect(verdict.rule).to.equal('XML-TOO-LARGE');
    expect(kept?.tdd).to.equal('');
  });

  it('a readable document is kept as filed', async () => {
    const tdd = `<Invoice ${INVOICE}><cbc:ID>1</cbc:ID></Invoice>`;
    const { verdict, kept } = await file(tdd);
    expect(verdict.rule).to.equal('SANDBOX-FS-00');
    expect(kept?.tdd).to.equal(tdd);
  });
});
