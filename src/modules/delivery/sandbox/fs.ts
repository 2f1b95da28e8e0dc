import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { FsRejectionReasons } from '../../../../events/delivery.ts';
import { firstAt, parseUntrusted } from '../../../platform/xml/index.ts';
import { FsTransportError, type FsAuthority, type FsFiling, type FsVerdict } from '../fs/fs-authority.ts';

/**
 * The FS sandbox: a stand-in for the Financial Administration's corner 5. It takes every TDD,
 * decides it at once by the rules it is configured to enforce, and reveals the verdict after a
 * delay, like FS processing asynchronously. Its submissions live in its own table, so a verdict
 * survives a restart of the service. Nothing leaves the machine.
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

interface FsSandboxOptions {
  /** how long FS "processes" a TDD before its verdict is ready */
  delayMs: number;
  /** the rules it enforces (FS_SANDBOX_REJECT_RULES) */
  rules: readonly FsSandboxRule[];
}

interface Judged {
  reasons: FsRejectionReasons | null;
  /** whether the sandbox could read the document (only then is its text kept) */
  readable: boolean;
}

/** Findings of the configured rules on one TDD; a document that is not a TDD at all is refused too. */
function judge(tdd: string, rules: readonly FsSandboxRule[]): Judged {
  const parsed = parseUntrusted(tdd);
  if (!parsed.ok) {
    return { readable: false, reasons: { description: 'The document is not readable XML.', issues: [{ rule: parsed.finding.rule, message: parsed.finding.message, location: null }] } };
  }
  const { doc } = parsed.parsed;
  try {
    // the rules ask absolute paths, which read the same from the root element
    const has = (xpath: string) => firstAt(doc.root, xpath, TDD_NS) !== null;
    if (!has('/pxs:TaxData')) return { readable: true, reasons: { description: 'The document is not a tax data document.', issues: [{ rule: 'SANDBOX-FS-00', message: 'root is not pxs:TaxData', location: '/*' }] } };
    const issues = rules.map((name) => FS_SANDBOX_RULES[name]).filter((rule) => rule.breaks(has)).map((rule) => ({ rule: rule.id, message: rule.message, location: null }));
    return { readable: true, reasons: issues.length === 0 ? null : { description: 'The tax data document was rejected.', issues } };
  } finally {
    doc.dispose();
  }
}

interface SubmissionRow {
  submission_id: string;
  tdd_uuid: string;
  outcome: 'acknowledged' | 'rejected';
  reasons: FsRejectionReasons | null;
  ready_at: Date;
}

export interface FsSandbox extends FsAuthority {
  /** fault injection for tests: while down, submit and ready throw FsTransportError */
  faults: { down: boolean };
  /**
   * every TDD filed so far, oldest first (tests check them against the official rules); `arrivals`: how often it was filed,
   * repeats included; `tdd` is empty for a document the sandbox could not read as XML (refused, not kept)
   */
  filed(): Promise<{ submission_id: string; invoice_id: string; reporter_role: string; tdd: string; arrivals: number }[]>;
}

export function sandboxFs(db: DataSource, options: FsSandboxOptions, now: () => Date = () => new Date()): FsSandbox {
  // made on first use, so the sandbox can be built before the read models are open
  let table: Promise<unknown> | undefined;
  const ready = () => (table ??= db.query(`CREATE TABLE IF NOT EXISTS fs_sandbox_submissions (
    submission_id uuid PRIMARY KEY, tdd_uuid varchar(64) NOT NULL UNIQUE, invoice_id uuid NOT NULL, reporter_role varchar(2) NOT NULL,
    tdd text NOT NULL, outcome varchar(12) NOT NULL, reasons jsonb, submitted_at timestamptz NOT NULL, ready_at timestamptz NOT NULL);
    ALTER TABLE fs_sandbox_submissions ADD COLUMN IF NOT EXISTS arrivals integer NOT NULL DEFAULT 1`).catch((error: unknown) => {
    table = undefined;
    throw error;
  }));
  const faults = { down: false };
  const up = () => {
    if (faults.down) throw new FsTransportError('the FS sandbox is down (fault injected)');
  };
  return {
    faults,
    async ready() {
      up();
    },
    async submit(filing: FsFiling) {
      up();
      await ready();
      const { reasons, readable } = judge(filing.tdd, options.rules);
      // An unreadable document is refused without keeping a copy: it may be tens of MB (a 10 MB text
      // node cost ~400 ms and ~100 MB of database memory to store) or hold what a text column cannot
      // (NUL, from UTF-16 bytes read as UTF-8), and no one reads a refused document back.
      const kept = readable ? filing.tdd : '';
      const submitted = now();
      // the same TDD (same UUID) filed again is the same submission: a repeated reaction files once;
      // `arrivals` counts every filing that reached FS, repeats included (the crash-effects campaign reads it)
      const rows: { submission_id: string }[] = await db.query(
        `INSERT INTO fs_sandbox_submissions (submission_id, tdd_uuid, invoice_id, reporter_role, tdd, outcome, reasons, submitted_at, ready_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (tdd_uuid) DO UPDATE SET arrivals = fs_sandbox_submissions.arrivals + 1 RETURNING submission_id`,
        [randomUUID(), filing.tdd_uuid, filing.invoice_id, filing.reporter_role, kept, reasons ? 'rejected' : 'acknowledged', reasons,
          submitted, new Date(submitted.getTime() + options.delayMs)],
      );
      return { submission_id: rows[0]?.submission_id ?? '' };
    },
    async verdict(submissionId: string): Promise<FsVerdict | null> {
      up();
      await ready();
      const rows: SubmissionRow[] = await db.query('SELECT submission_id, tdd_uuid, outcome, reasons, ready_at FROM fs_sandbox_submissions WHERE submission_id = $1', [submissionId]);
      const row = rows[0];
      if (!row) throw new FsTransportError(`FS knows no submission ${submissionId}`);
      if (row.ready_at.getTime() > now().getTime()) return null;
      return {
        submission_id: row.submission_id, outcome: row.outcome, tdd_uuid: row.tdd_uuid, mls_response_code: row.outcome === 'acknowledged' ? 'AP' : 'RE',
        reasons: row.reasons, decided_at: row.ready_at.toISOString(),
      };
    },
    async filed() {
      await ready();
      return db.query('SELECT submission_id, invoice_id, reporter_role, tdd, arrivals FROM fs_sandbox_submissions ORDER BY submitted_at, submission_id');
    },
  };
}
