import type { FsRejectionReasons } from '../../../../events/delivery.ts';

/**
 * The FS port: filing a tax data document (TDD) with the Slovak Financial Administration's
 * corner 5, and reading its verdict. The sandbox adapter (src/modules/delivery/sandbox/fs.ts) decides
 * locally; the real FS endpoint implements the same interface.
 */
export interface FsFiling {
  /** the TDD (urn:peppol:taxdata:sk-1) */
  tdd: string;
  tdd_uuid: string;
  reporter_role: 'C2' | 'C3';
  /** our reference, echoed in the verdict; FS never sees it as business data */
  invoice_id: string;
}

export interface FsVerdict {
  submission_id: string;
  outcome: 'acknowledged' | 'rejected';
  tdd_uuid: string;
  /** Peppol MLS response code: AP accepted, RE rejected */
  mls_response_code: string;
  reasons: FsRejectionReasons | null;
  decided_at: string;
}

export interface FsAuthority {
  /** Files one TDD; resolves with FS's submission id. Throws FsTransportError when it may be retried. */
  submit(filing: FsFiling): Promise<{ submission_id: string }>;
  /** The verdict on a submission, or null while FS is still processing it. */
  verdict(submissionId: string): Promise<FsVerdict | null>;
  /** Throws FsTransportError when FS cannot take filings now. */
  ready(): Promise<void>;
}

export class FsTransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FsTransportError';
  }
}
