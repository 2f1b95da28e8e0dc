// The compiled engine against the reference (SaxonJS) on every rule file the service runs or the
// conformance suite uses: the same findings, in the same order, byte for byte, on the official unit
// tests and examples, the SK TDD test files, our own test invoices, generated invoices, and a seeded
// sample of single-edit mutants (`VALIDATION_MUTATION_SEED` picks the sample; the full 10,000 run in
// `npm run bench -- validation --verify`). No rule may fall back to SaxonJS: the Peppol Reporting rules'
// uniqueness checks (their own xsl:key and fn:key) included.
import { describeDatabaseFree } from '../support/database-free.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { buildTdd } from '../../src/modules/delivery/fs/tax-data-document/index.ts';
import { compare, fixedCorpus, loadPair, ruleFiles, type RuleFile } from './support/equivalence.ts';
import { baseDocuments, mutationCorpus, type CorpusDocument } from './support/mutations.ts';
import { ARTIFACTS, CACHE, needArtifacts } from './support/paths.ts';
import { slovakHeader } from '../tax-data-document/support/headers.ts';
import { reportPeriod } from '../../commands/reporting/period.ts';
import { buildReports } from '../../src/modules/reporting/build.ts';
import { sampleExchanges } from '../reporting/support/exchanges.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SEED = Number(process.env['VALIDATION_MUTATION_SEED'] ?? Math.floor(Math.random() * 1_000_000));
const SAMPLE = Number(process.env['VALIDATION_MUTATION_SAMPLE'] ?? 150);

/** TDDs built from our valid invoices, and a few mutants of them. */
function tddDocuments(): CorpusDocument[] {
  const tdds: CorpusDocument[] = [];
  for (const d of baseDocuments(ARTIFACTS, REPO)) {
    try {
      tdds.push({ name: `TDD of ${d.name}`, xml: buildTdd(d.xml, slovakHeader('C2', '0245:2020123456')) });
    } catch {
      // not every example makes a TDD (foreign sellers, missing fields): skip it
    }
  }
  return [...tdds, ...mutationCorpus(tdds, SEED, Math.ceil(SAMPLE / 3))];
}

/** A report's official examples, reports we build (zero and with traffic), and mutants of both. */
function reportDocuments(rule: RuleFile): CorpusDocument[] {
  const kind = rule.kind === 'eusr' ? 'eusr' : 'tsr';
  const period = reportPeriod('2026-11')!;
  const built = [[], sampleExchanges()].map((exchanges, i) => ({ name: `built ${kind} ${i}`, xml: buildReports(exchanges, period, { seatId: 'PSK000001' })[kind] }));
  const bases = [...fixedCorpus(rule, ARTIFACTS, REPO), ...built];
  return [...bases, ...mutationCorpus(bases, SEED, Math.ceil(SAMPLE / 3))];
}

describeDatabaseFree('validation: compiled engine gives the reference findings', function () {
  this.timeout(900_000);
  before(needArtifacts);
  const summary: string[] = [];
  after(() => console.log(`\n  compiled vs SaxonJS (mutation seed ${SEED}):\n${summary.map((s) => `    ${s}`).join('\n')}\n`));

  const files: RuleFile[] = ruleFiles(ARTIFACTS, REPO);
  let mutants: CorpusDocument[] = [];
  let tdds: CorpusDocument[] = [];
  before(() => {
    mutants = [...mutationCorpus(baseDocuments(ARTIFACTS, REPO), SEED, SAMPLE)];
    tdds = tddDocuments();
  });

  for (const rule of files) {
    it(`${rule.label}: no rule falls back, identical findings`, async () => {
      const pair = await loadPair(rule, CACHE);
      const docs =
        rule.kind === 'tdd' ? [...fixedCorpus(rule, ARTIFACTS, REPO), ...tdds]
        : rule.kind === 'eusr' || rule.kind === 'tsr' ? reportDocuments(rule)
        : [...fixedCorpus(rule, ARTIFACTS, REPO), ...mutants];
      const result = compare(pair, docs);
      summary.push(
        `${rule.label}: ${result.documents} documents, ${result.findings} findings, ` +
          `${result.differing} differ; ${result.fallbackRules}/${result.rules} rules fall back; ${result.dynamicFallbacks} documents handed to SaxonJS`,
      );
      expect(result.fallbackRules, 'rules the compiler could not translate').to.equal(0);
      expect(result.internalErrors, `documents handed to SaxonJS because of a bug: ${result.lastFallbackReason ?? ''}`).to.equal(0);
      expect(result.differences, result.differences.join('\n')).to.deep.equal([]);
    });
  }
});
