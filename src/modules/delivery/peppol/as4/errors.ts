/**
 * The ebMS errors this Access Point answers with (ebMS 3.0 core 6.7, AS4 profile 2.2 for 0303).
 * Every refusal of the codec is an As4Error carrying one of these codes and a reason a person can
 * read; the route turns it into an ebMS Error signal (error-signal.ts) and creates nothing.
 */

export type EbmsErrorCode = 'EBMS:0004' | 'EBMS:0101' | 'EBMS:0102' | 'EBMS:0303';

interface EbmsErrorKind {
  shortDescription: string;
  category: 'Content' | 'Processing' | 'Communication';
  origin: 'ebMS' | 'security';
}

export const EBMS_ERRORS: Record<EbmsErrorCode, EbmsErrorKind> = {
  'EBMS:0004': { shortDescription: 'Other', category: 'Content', origin: 'ebMS' },
  'EBMS:0101': { shortDescription: 'FailedAuthentication', category: 'Processing', origin: 'security' },
  'EBMS:0102': { shortDescription: 'FailedDecryption', category: 'Processing', origin: 'security' },
  'EBMS:0303': { shortDescription: 'DecompressionFailure', category: 'Communication', origin: 'ebMS' },
};

export class As4Error extends Error {
  constructor(
    readonly code: EbmsErrorCode,
    readonly reason: string,
    /** the eb:MessageId of the message in error, when it could be read */
    readonly refToMessageId?: string,
  ) {
    super(`${code} ${EBMS_ERRORS[code].shortDescription}: ${reason}`);
    this.name = 'As4Error';
  }
}

/** Shorthands: the codec's checks read as the spec names them. */
export const failedAuthentication = (reason: string) => new As4Error('EBMS:0101', reason);
export const failedDecryption = (reason: string) => new As4Error('EBMS:0102', reason);
export const decompressionFailure = (reason: string) => new As4Error('EBMS:0303', reason);
export const otherError = (reason: string) => new As4Error('EBMS:0004', reason);
