import type { X509Certificate } from 'node:crypto';
import { selfSigned } from './trust.ts';

export type CertificatePath =
  | { ok: true; /** the certificate first, then each issuer up to the last one the bundle holds (its root when present) */ path: X509Certificate[] }
  | { ok: false; reason: 'untrusted_issuer' | 'not_a_ca'; message: string };

/**
 * The path from `certificate` up through `anchors` (a trust bundle). Each link is an issuer whose
 * name and key identifiers match (Node's checkIssued: OpenSSL's X509_check_issued, which also
 * refuses an issuer whose keyUsage forbids signing certificates) and whose key verifies the
 * signature (Node's verify). Issuers come from the bundle only: a peer cannot bring its own.
 */
export function pathToAnchor(certificate: X509Certificate, anchors: readonly X509Certificate[]): CertificatePath {
  const path = [certificate];
  let current = certificate;
  // a bundle of n certificates makes at most n links; more means a loop among cross-signed CAs
  for (let links = 0; links <= anchors.length; links++) {
    if (links > 0 && selfSigned(current)) return { ok: true, path };
    const issuer = anchors.find((candidate) => !sameCertificate(candidate, current) && current.checkIssued(candidate) && current.verify(candidate.publicKey));
    if (!issuer) {
      if (links > 0) return { ok: true, path }; // an issuing CA of the bundle whose root the bundle leaves out
      return { ok: false, reason: 'untrusted_issuer', message: `${oneLine(certificate.subject)} is not issued by a trusted CA (issuer ${oneLine(certificate.issuer)})` };
    }
    if (!issuer.ca) return { ok: false, reason: 'not_a_ca', message: `${oneLine(issuer.subject)} signs certificates but is not a CA certificate` };
    path.push(issuer);
    current = issuer;
  }
  return { ok: false, reason: 'untrusted_issuer', message: `${oneLine(certificate.subject)}: the trust bundle's certificates issue each other in a loop` };
}

function sameCertificate(a: X509Certificate, b: X509Certificate): boolean {
  return a.raw.equals(b.raw);
}

/** Node writes a name one attribute a line. */
export function oneLine(name: string): string {
  return name.split('\n').join(', ');
}
