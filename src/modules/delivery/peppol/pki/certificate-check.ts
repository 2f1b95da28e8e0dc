import type { X509Certificate } from 'node:crypto';
import { X509Certificate as ParsedCertificate } from './x509.ts';
import type { RevocationMode } from '../../../../platform/config.ts';
import { oneLine, pathToAnchor } from './certificate-path.ts';
import type { RevocationLookup } from './revocation/revocation.ts';
import type { TrustAnchors } from './trust.ts';
import { refused, type CertificatePurpose, type CertificateVerdict } from './verdict.ts';

export interface CertificateCheckDeps {
  trust: Record<CertificatePurpose, TrustAnchors>;
  revocation: RevocationMode;
  lookup: RevocationLookup;
  /** soft mode says here what it let through */
  log: { warn(fields: Record<string, unknown>, message: string): void };
}

/** Checks a peer's certificate for a purpose at a time. */
export type CertificateCheck = (certificate: X509Certificate, purpose: CertificatePurpose, at: Date) => Promise<CertificateVerdict>;

/**
 * A certificate is trusted for `purpose` when: it chains to a CA of that purpose's bundle, every
 * certificate on the path is within its validity period at `at`, for `ap` it is a Peppol Access
 * Point certificate (an end-entity certificate issued directly by an issuing CA of the AP bundle),
 * and its revocation status allows it under PEPPOL_REVOCATION. The order is phase4's: issuer,
 * validity, revocation (the network is asked last, and only about a certificate that passed the rest).
 */
export function certificateCheck(deps: CertificateCheckDeps): CertificateCheck {
  return async (certificate, purpose, at) => {
    const trust = deps.trust[purpose];
    const found = pathToAnchor(certificate, trust.certificates);
    if (!found.ok) return refused(found.reason, found.message);
    const [, issuer] = found.path;
    if (!issuer) return refused('untrusted_issuer', `${oneLine(certificate.subject)} has no issuer in the trust bundle`);

    for (const link of found.path) {
      const { notBefore, notAfter } = new ParsedCertificate(link.raw);
      const who = link === certificate ? oneLine(certificate.subject) : `its CA ${oneLine(link.subject)}`;
      if (at.getTime() < notBefore.getTime()) return refused('not_yet_valid', `${who} is not valid before ${notBefore.toISOString()}`);
      if (at.getTime() > notAfter.getTime()) return refused('expired', `${who} expired on ${notAfter.toISOString()}`);
    }

    if (purpose === 'ap') {
      if (certificate.ca) return refused('not_access_point', `${oneLine(certificate.subject)} is a CA certificate, not an Access Point certificate`);
      if (!trust.issuingCas.some((ca) => ca.raw.equals(issuer.raw))) {
        return refused('not_access_point', `${oneLine(certificate.subject)} is not issued by a Peppol Access Point CA (issuer ${oneLine(certificate.issuer)})`);
      }
    }

    if (deps.revocation !== 'off') {
      const status = await deps.lookup(certificate, found.path.slice(1), at);
      if (status.status === 'revoked') return refused('revoked', `${oneLine(certificate.subject)} is revoked (${status.source === 'ocsp' ? 'OCSP' : 'CRL'})`);
      if (status.status === 'unknown') {
        if (deps.revocation === 'hard') return refused('revocation_unknown', `the revocation status of ${oneLine(certificate.subject)} could not be learned (${status.why})`);
        deps.log.warn({ subject: oneLine(certificate.subject), purpose, why: status.why }, 'certificate revocation status unknown: accepted (PEPPOL_REVOCATION=soft)');
      }
    }
    return { ok: true, subject: oneLine(certificate.subject), notAfter: new ParsedCertificate(certificate.raw).notAfter };
  };
}
