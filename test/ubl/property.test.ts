// Property: every document the create rules accept, the service builds so that it passes XSD + CEN +
// Peppol + Slovak with no fatal finding.
import { expect } from 'chai';
import type { CodeLists } from '../../commands/invoices/code-lists.ts';
import { checkInvoice } from '../../commands/invoices/rules.ts';
import { computeTotals } from '../../commands/invoices/totals.ts';
import { loadCodeLists } from '../../src/modules/invoices/code-lists-loader.ts';
import { buildUbl } from '../../src/modules/invoices/ubl/index.ts';
import { createValidator, type ValidationReport, type Validator } from '../../src/platform/validation/index.ts';
import { ARTIFACTS, CACHE, needArtifacts } from '../validation/support/paths.ts';
import { coverage, matrix, SEED } from './support/matrix.ts';

describe('UBL builder: generated invoices and credit notes pass every rule set', function () {
  this.timeout(600_000);
  before(needArtifacts);
  let validator: Validator | undefined;
  let lists: CodeLists | undefined;
  before(async () => {
    validator = await createValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE, workers: 2 });
    lists = await loadCodeLists(ARTIFACTS);
  });
  after(() => validator?.close());

  it('covers the matrix the issue asks for', () => {
    const covered = coverage(matrix());
    for (const [feature, n] of Object.entries(covered)) expect(n, feature).to.be.greaterThan(0);
  });

  it('generates only documents the create rules accept', () => {
    if (!lists) throw new Error('code lists not loaded');
    const refused = matrix().flatMap((content, index) => {
      const fatal = checkInvoice(content, lists as CodeLists).filter((f) => f.severity === 'fatal');
      return fatal.length === 0 ? [] : [`seed ${SEED} index ${index}: ${fatal.map((f) => `${f.rule} ${f.field ?? ''}`).join(', ')}`];
    });
    expect(refused, refused.slice(0, 5).join('\n')).to.deep.equal([]);
  });

  it('builds documents that are XSD, CEN, Peppol and Slovak valid', async () => {
    const v = validator;
    if (!v) throw new Error('validator not started');
    const docs = matrix();
    const failures: string[] = [];
    let lines = 0;
    // two in flight per worker keeps both workers busy without queueing 240 documents at once
    const queue = docs.map((content, index) => ({ content, index }));
    const work = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { content, index } = next;
        lines += content.lines.length;
        const report: ValidationReport = await v.validate(buildUbl(content, computeTotals(content)));
        const valid = report.xsd_valid === true && report.peppol_valid === true && report.slovak_valid === true;
        if (!valid || report.errors.length > 0) {
          const findings = report.errors.map((e) => `${e.rule} at ${e.location}: ${e.message}`).join('\n    ');
          failures.push(`seed ${SEED} index ${index} (${content.invoice_type}, ${content.lines.length} lines):\n    ${findings}`);
        }
      }
    };
    await Promise.all([work(), work(), work(), work()]);
    const covered = coverage(docs);
    console.log(
      `      UBL property test: ${docs.length} documents (${covered['invoices']} invoices, ${covered['credit_notes']} credit notes, ` +
        `${lines} lines), seed ${SEED}: ${docs.length - failures.length} valid, ${failures.length} failed`,
    );
    expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
  });
});
