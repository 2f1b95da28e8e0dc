// The official EUSR and TSR examples, the reports we build (a month with traffic and a zero month),
// and single-edit variants of ours that break a rule each (the key-based uniqueness rules among
// them), to compare our validator with the publisher's XSLT under Java Saxon-HE.
import fs from 'node:fs';
import path from 'node:path';
import { reportPeriod } from '../../../commands/reporting/period.ts';
import { reportExamplesDir, type ReportKind } from '../../../src/modules/reporting/artifacts.ts';
import { buildReports } from '../../../src/modules/reporting/build.ts';
import { ARTIFACTS } from '../../validation/support/paths.ts';
import { sampleExchanges } from './exchanges.ts';

export interface ReportDocument {
  name: string;
  xml: string;
}

type Edit = [from: string | RegExp, to: (match: string) => string];

/** The first element `<name …>…</name>` whose start tag contains `marker`, written twice. */
const twice = (name: string, marker: string): Edit => [new RegExp(`<${name}[^>]*${marker}[^>]*>[\\s\\S]*?</${name}>`), (m) => `${m}\n  ${m}`];
const replace = (from: string, to: string): Edit => [from, () => to];

const VARIANTS: Record<ReportKind, [name: string, edits: Edit[]][]> = {
  eusr: [
    ['a PerDT-PR subset twice', [twice('Subset', 'PerDT-PR"')]],
    ['a PerDT-PR-EUC subset twice', [twice('Subset', 'PerDT-PR-EUC')]],
    ['a PerDT-EUC subset twice', [twice('Subset', 'PerDT-EUC')]],
    ['a PerEUC subset twice', [twice('Subset', 'PerEUC')]],
    ['full set: either larger than sending plus receiving', [replace('<SendingOrReceivingEndUsers>3</SendingOrReceivingEndUsers>\n  </FullSet>', '<SendingOrReceivingEndUsers>5</SendingOrReceivingEndUsers>\n  </FullSet>')]],
    ['full set: either smaller than sending', [replace('<SendingOrReceivingEndUsers>3</SendingOrReceivingEndUsers>\n  </FullSet>', '<SendingOrReceivingEndUsers>1</SendingOrReceivingEndUsers>\n  </FullSet>')]],
    ['a reporter that is no seat id', [replace('>PSK000001<', '>our-ap<')]],
    ['end before start', [replace('<EndDate>2026-11-30</EndDate>', '<EndDate>2026-10-30</EndDate>')]],
    ['a subset of an unknown type', [replace('type="PerEUC"', 'type="PerXY"')]],
    ['a country code not in the list', [replace('schemeID="EndUserCountry">AT<', 'schemeID="EndUserCountry">XX<')]],
    ['wrong CustomizationID', [replace('end-user-statistics-report:1.1</CustomizationID>', 'end-user-statistics-report:9.9</CustomizationID>')]],
  ],
  tsr: [
    ['a PerTP subtotal twice', [twice('Subtotal', 'PerTP')]],
    ['a PerSP-DT-PR subtotal twice', [twice('Subtotal', 'PerSP-DT-PR"')]],
    ['a PerSP-DT-PR-CC subtotal twice', [twice('Subtotal', 'PerSP-DT-PR-CC')]],
    ['incoming total off by one', [replace('<Incoming>3</Incoming>\n    <Outgoing>4</Outgoing>\n  </Total>', '<Incoming>4</Incoming>\n    <Outgoing>4</Outgoing>\n  </Total>')]],
    ['a reporter that is no seat id', [replace('schemeID="CertSubjectCN">PSK000001</ReporterID>', 'schemeID="CertSubjectCN">our-ap</ReporterID>')]],
    ['a service provider that is no seat id', [replace('schemeID="CertSubjectCN">PAT000002<', 'schemeID="CertSubjectCN">AT-2<')]],
    ['a sender country not in the list', [replace('schemeID="SenderCountry">CZ<', 'schemeID="SenderCountry">XX<')]],
    ['a subtotal of an unknown type', [replace('type="PerTP"', 'type="PerXY"')]],
    ['wrong ProfileID', [replace('edec:bis:reporting:1.0</ProfileID>', 'edec:bis:reporting:2.0</ProfileID>')]],
  ],
};

/** Official examples (by file name), our two built reports, then the variants of the month with traffic. */
export function reportDocuments(kind: ReportKind): ReportDocument[] {
  const dir = reportExamplesDir(ARTIFACTS, kind);
  const examples = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.xml')).sort() : [];
  const period = reportPeriod('2026-11');
  if (!period) throw new Error('no period');
  const traffic = buildReports(sampleExchanges(), period, { seatId: 'PSK000001' })[kind];
  const zero = buildReports([], period, { seatId: 'PSK000001' })[kind];
  const variants = VARIANTS[kind].map(([name, edits]) => ({
    name,
    xml: edits.reduce((xml, [from, to]) => {
      const match = typeof from === 'string' ? (xml.includes(from) ? from : null) : from.exec(xml)?.[0] ?? null;
      if (match === null) throw new Error(`variant "${name}": ${String(from)} is not in our ${kind}`);
      return xml.replace(match, to(match));
    }, traffic),
  }));
  return [
    ...examples.map((f) => ({ name: f, xml: fs.readFileSync(path.join(dir, f), 'utf8') })),
    { name: `our ${kind} of a month with traffic`, xml: traffic },
    { name: `our zero ${kind}`, xml: zero },
    ...variants,
  ];
}
