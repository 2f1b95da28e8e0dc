import type { DataSource } from 'typeorm';
import type { MlsVerdict } from '../../../../commands/mls/answer.ts';
import { firstAt, parseUntrusted, type XmlElement } from '../../../platform/xml/index.ts';

/**
 * The sandbox's corner 5: a stand-in for the Financial Administration, reached like the real one,
 * as a Peppol participant (FS_PARTICIPANT_ID) to which a tax data document (TDD) is sent as a
 * Peppol message. Our receiving side hands it every TDD addressed to that participant (through the
 * sandbox network, or over AS4 when FS_CORNER5=sandbox); it judges the TDD by the rules it is
 * configured to enforce and answers, like FS, with a Message Level Status: AP, or RE with the
 * reasons, sent by our MLS machinery after FS_SANDBOX_DELAY_MS (FS processes asynchronously).
 * What it took lives in its own table, so tests can read every TDD filed. Nothing leaves the machine.
 */
export const FS_SANDBOX_RULES = {
  /** domestic B2B reporting needs the buyer's IČ DPH in the reported document */
  'buyer-vat-id': {
    id: 'SANDBOX-FS-01',
    message: 'The reported document carries no buyer VAT identifier (AccountingCustomerParty/PartyTaxScheme/CompanyID).',
    breaks: (has: (xpath: string) => boolean) =>
      !has('/pxs:TaxData/pxs:ReportedTransaction/pxs:ReportedDocument/cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID'),
  },
  /** for trying the rejection path: every TDD is refused */
  'reject-all': { id: 'SANDBOX-FS-99', message: 'The sandbox is configured to reject every tax data document.', breaks: () => true },
} as const;
export type FsSandboxRule = keyof typeof FS_SANDBOX_RULES;

const TDD_NS = {
  pxs: 'urn:peppol:schema:sk-taxdata:1.0',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** What corner 5 makes of one TDD, before it keeps it. */
export interface Judged {
  verdict: MlsVerdict;
  /** whether the sandbox could read the document (only then is its text kept) */
  readable: boolean;
  reporterRole: string;
  /** the reporting party and the reported document's number: what one filing is about (two TDDs about it are a duplicate) */
  reported: string;
}

const rejected = (issues: { rule: string; message: string; location: string | null }[], description: string): MlsVerdict => ({
  response_code: 'RE', description,
  issues: issues.map((i) => ({ location: i.location ?? 'NA', description: `[${i.rule}] ${i.message}`, reason: 'BV' })),
});

/** The configured rules on one TDD's text; a document that is not a TDD at all is refused too. */
function judge(tdd: string, rules: readonly FsSandboxRule[]): Judged {
  const parsed = parseUntrusted(tdd);
  if (!parsed.ok) {
    return { readable: false, reporterRole: '', reported: '', verdict: rejected([{ rule: parsed.finding.rule, message: parsed.finding.message, location: null }], 'The document is not readable XML.') };
  }
  const { doc } = parsed.parsed;
  try {
    return judgeRoot(doc.root, rules);
  } finally {
    doc.dispose();
  }
}

/**
 * The rules on a TDD's root element, as parsed alone or inside its envelope: the rules' absolute
 * paths are read from the element itself (`/pxs:TaxData/…` as `self::pxs:TaxData/…`), which is the
 * same question whichever document the element sits in.
 */
function judgeRoot(root: XmlElement, rules: readonly FsSandboxRule[]): Judged {
  const at = (xpath: string) => firstAt(root, xpath.replace(/^\/pxs:TaxData(?=\/|$)/, 'self::pxs:TaxData'), TDD_NS);
  const has = (xpath: string) => at(xpath) !== null;
  const text = (xpath: string) => at(xpath)?.content.trim() ?? '';
  const reporterRole = text('/pxs:TaxData/pxs:ReporterRole');
  const reported = `${text('/pxs:TaxData/pxs:ReportingParty/cbc:EndpointID')}/${text('/pxs:TaxData/pxs:ReportedTransaction/pxs:ReportedDocument/cbc:ID')}`;
  if (!has('/pxs:TaxData')) return { readable: true, reporterRole, reported, verdict: rejected([{ rule: 'SANDBOX-FS-00', message: 'root is not pxs:TaxData', location: '/*' }], 'The document is not a tax data document.') };
  const issues = rules.map((name) => FS_SANDBOX_RULES[name]).filter((rule) => rule.breaks(has)).map((rule) => ({ rule: rule.id, message: rule.message, location: null }));
  return { readable: true, reporterRole, reported, verdict: issues.length === 0 ? { response_code: 'AP', description: null, issues: [] } : rejected(issues, 'The tax data document was rejected.') };
}

export interface SandboxCorner5 {
  /** fault injection for tests: while down, the sandbox network cannot reach it (a transport failure) */
  faults: { down: boolean };
  /**
   * Takes one TDD, sent under the SBDH instance identifier `submissionId` (the same one sent again
   * is the same submission, counted again), and says what FS answers. `judged`: what judgeElement
   * made of the TDD as parsed inside its envelope (the receiving side's parse), so it is not parsed again.
   */
  take(submissionId: string, tdd: string, judged?: Judged): Promise<MlsVerdict>;
  /** The configured rules on a TDD's root element as the receiving side parsed it (for take). */
  judgeElement(root: XmlElement): Judged;
  /**
   * every TDD filed so far, oldest first (tests check them against the official rules); `arrivals`: how often it was filed,
   * repeats included; `tdd` is empty for a document the sandbox could not read as XML (refused, not kept)
   */
  filed(): Promise<{ submission_id: string; reporter_role: string; reported: string; tdd: string; outcome: string; arrivals: number }[]>;
}

export function sandboxCorner5(db: DataSource, options: { rules: readonly FsSandboxRule[] }, now: () => Date = () => new Date()): SandboxCorner5 {
  // made on first use, so the sandbox can be built before the read models are open
  let table: Promise<unknown> | undefined;
  const ready = () => (table ??= db.query(`CREATE TABLE IF NOT EXISTS fs_sandbox_corner5 (
    submission_id varchar(200) PRIMARY KEY, reporter_role varchar(10) NOT NULL, reported text NOT NULL, tdd text NOT NULL, outcome varchar(2) NOT NULL,
    reasons jsonb, received_at timestamptz NOT NULL, arrivals integer NOT NULL DEFAULT 1)`).catch((error: unknown) => {
    table = undefined;
    throw error;
  }));
  return {
    faults: { down: false },
    judgeElement: (root) => judgeRoot(root, options.rules),
    async take(submissionId, tdd, judged) {
      await ready();
      const { verdict, readable, reporterRole, reported } = judged ?? judge(tdd, options.rules);
      // An unreadable document is refused without keeping a copy: it may be tens of MB (a 10 MB text
      // node cost ~400 ms and ~100 MB of database memory to store) or hold what a text column cannot
      // (NUL, from UTF-16 bytes read as UTF-8), and no one reads a refused document back.
      await db.query(
        `INSERT INTO fs_sandbox_corner5 (submission_id, reporter_role, reported, tdd, outcome, reasons, received_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (submission_id) DO UPDATE SET arrivals = fs_sandbox_corner5.arrivals + 1`,
        [submissionId, reporterRole.slice(0, 10), reported.slice(0, 500), readable ? tdd : '', verdict.response_code, JSON.stringify(verdict.issues), now()],
      );
      return verdict;
    },
    async filed() {
      await ready();
      return db.query('SELECT submission_id, reporter_role, reported, tdd, outcome, arrivals FROM fs_sandbox_corner5 ORDER BY received_at, submission_id');
    },
  };
}
