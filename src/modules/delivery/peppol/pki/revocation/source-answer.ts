/** What one revocation source (OCSP or a CRL) said about one certificate. */
export type SourceAnswer =
  /** `until`: when the answer stops being fresh (its nextUpdate), null when it did not say */
  | { status: 'good' | 'revoked'; until: number | null }
  | { status: 'unknown'; why: string };
