// The EUSR and TSR of a month: counted as the spec counts (by hand below), written as XML, and checked
// with the official XSD and Schematron (compiled by our own engine).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { endUserStatistics } from '../../commands/reporting/eusr.ts';
import { previousMonth, reportPeriod } from '../../commands/reporting/period.ts';
import { transactionStatistics } from '../../commands/reporting/tsr.ts';
import { reportExamplesDir } from '../../src/modules/reporting/artifacts.ts';
import { buildReports } from '../../src/modules/reporting/build.ts';
import { createReportValidator, type ReportValidator } from '../../src/modules/reporting/validate.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { ARTIFACTS, CACHE, needArtifacts } from '../validation/support/paths.ts';
import { DOC, sampleExchanges } from './support/exchanges.ts';

const OWN = 'PSK000001';
const NOVEMBER = reportPeriod('2026-11')!;

describeDatabaseFree('Peppol Reporting: EUSR and TSR of a month', function () {
  this.timeout(300_000); // the first run compiles the two rule files

  describe('the period', () => {
    it('is the UTC calendar month, both days inclusive', () => {
      expect(NOVEMBER.startDate).to.equal('2026-11-01');
      expect(NOVEMBER.endDate).to.equal('2026-11-30');
      expect(NOVEMBER.from.toISOString()).to.equal('2026-11-01T00:00:00.000Z');
      expect(NOVEMBER.to.toISOString()).to.equal('2026-12-01T00:00:00.000Z');
      expect(reportPeriod('2028-02')!.endDate).to.equal('2028-02-29');
      expect(reportPeriod('2026-13')).to.equal(null);
    });
    it('the monthly reports cover the month before', () => {
      expect(previousMonth(new Date('2026-12-01T00:00:00Z'))).to.equal('2026-11');
      expect(previousMonth(new Date('2027-01-15T12:00:00Z'))).to.equal('2026-12');
    });
  });

  describe('the counts', () => {
    it('EUSR: each end user once per set, whatever it exchanged', () => {
      const counts = endUserStatistics(sampleExchanges());
      expect(counts.fullSet).to.deep.equal({ sending: 2, receiving: 2, sendingOrReceiving: 3 });
      const sub = (type: string, keys: object) => counts.subsets.find((s) => s.type === type && Object.entries(keys).every(([k, v]) => (s as unknown as Record<string, unknown>)[k] === v));
      // invoices: sent by A and B, received by A and C
      expect(sub('PerDT-PR', { documentTypeId: DOC.INVOICE })).to.include({ sending: 2, receiving: 2, sendingOrReceiving: 3 });
      // credit notes: only A sent one
      expect(sub('PerDT-PR', { documentTypeId: DOC.CREDIT_NOTE })).to.include({ sending: 1, receiving: 0, sendingOrReceiving: 1 });
      expect(sub('PerEUC', { country: 'SK' })).to.include({ sending: 2, receiving: 1, sendingOrReceiving: 2 });
      expect(sub('PerEUC', { country: 'AT' })).to.include({ sending: 0, receiving: 1, sendingOrReceiving: 1 });
      expect(sub('PerDT-EUC', { documentTypeId: DOC.INVOICE, country: 'SK' })).to.include({ sending: 2, receiving: 1, sendingOrReceiving: 2 });
      expect(sub('PerDT-PR-EUC', { documentTypeId: DOC.CREDIT_NOTE, country: 'SK' })).to.include({ sending: 1, receiving: 0, sendingOrReceiving: 1 });
      expect(counts.subsets).to.have.length(2 + 3 + 3 + 2);
    });

    it('TSR: each document once per subtotal type; countries for incoming only; no other AP is ourselves', () => {
      const counts = transactionStatistics(sampleExchanges(), OWN);
      expect(counts.total).to.deep.equal({ incoming: 3, outgoing: 4 });
      const rows = counts.subtotals.map((s) => [s.type, s.serviceProvider ?? s.transportProfile, s.documentTypeId === DOC.CREDIT_NOTE ? 'CN' : s.documentTypeId ? 'INV' : '', s.senderCountry ?? '', s.receiverCountry ?? '', s.incoming, s.outgoing]);
      expect(rows).to.deep.equal([
        ['PerTP', 'peppol-transport-as4-v2_0', '', '', '', 3, 4],
        ['PerSP-DT-PR', 'PAT000002', 'INV', '', '', 0, 2],
        ['PerSP-DT-PR', 'PCZ000003', 'INV', '', '', 1, 0],
        ['PerSP-DT-PR', OWN, 'CN', '', '', 0, 1],
        ['PerSP-DT-PR', OWN, 'INV', '', '', 2, 1],
        ['PerSP-DT-PR-CC', 'PCZ000003', 'INV', 'CZ', 'SK', 1, 0],
        ['PerSP-DT-PR-CC', OWN, 'INV', 'DE', 'AT', 2, 0],
      ]);
    });
  });

  describe('checked with the official XSD and Schematron', () => {
    let validator: ReportValidator;
    before(needArtifacts);
    before(async () => {
      validator = await createReportValidator({ artifactsDir: ARTIFACTS, cacheDir: CACHE });
    });
    after(() => validator?.close());

    for (const kind of ['eusr', 'tsr'] as const) {
      it(`${kind}: every official example is valid, without a warning`, () => {
        const dir = reportExamplesDir(ARTIFACTS, kind);
        const files = fs.readdirSync(dir).filter((f) => f.endsWith('.xml'));
        expect(files).to.not.be.empty;
        for (const f of files) {
          const report = validator.validate(kind, fs.readFileSync(path.join(dir, f)));
          expect({ f, valid: report.valid, errors: report.errors, warnings: report.warnings }).to.deep.equal({ f, valid: true, errors: [], warnings: [] });
        }
      });
    }

    it('our reports of a month with traffic, and our zero reports, are valid', () => {
      for (const exchanges of [sampleExchanges(), []]) {
        const built = buildReports(exchanges, NOVEMBER, { seatId: OWN });
        for (const kind of ['eusr', 'tsr'] as const) {
          const report = validator.validate(kind, built[kind]);
          expect({ kind, n: exchanges.length, errors: report.errors, warnings: report.warnings, valid: report.valid }).to.deep.equal({ kind, n: exchanges.length, errors: [], warnings: [], valid: true });
        }
      }
    });

    it('a zero report has the totals only', () => {
      const built = buildReports([], NOVEMBER, { seatId: OWN });
      expect(built.tsr).to.include('<Incoming>0</Incoming>').and.include('<Outgoing>0</Outgoing>').and.not.include('Subtotal');
      expect(built.eusr).to.include('<SendingOrReceivingEndUsers>0</SendingOrReceivingEndUsers>').and.not.include('Subset');
      expect(built.eusr).to.include('<StartDate>2026-11-01</StartDate>').and.include('<EndDate>2026-11-30</EndDate>');
    });

    it('the rules run: a subtotal that does not sum to the total, a bad seat id and a schema error are found', () => {
      const built = buildReports(sampleExchanges(), NOVEMBER, { seatId: OWN });
      const wrongSum = built.tsr.replace('<Incoming>3</Incoming>', '<Incoming>4</Incoming>');
      expect(validator.validate('tsr', wrongSum).errors.map((e) => e.rule)).to.include.members(['SCH-TSR-04', 'SCH-TSR-08', 'SCH-TSR-12']);
      const badSeat = buildReports([], NOVEMBER, { seatId: 'our-ap' }).eusr;
      expect(validator.validate('eusr', badSeat).errors.map((e) => e.rule)).to.deep.equal(['SCH-EUSR-08']);
      const notInSchema = built.eusr.replace('<FullSet>', '<FullSet><Extra/>');
      expect(validator.validate('eusr', notInSchema).errors.map((e) => e.rule)).to.include('XSD');
    });
  });
});
