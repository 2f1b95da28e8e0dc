import type { X509Certificate } from 'node:crypto';
import { X509Certificate as ParsedCertificate } from './x509.ts';

/** The subject on one line, RFC 4514 style (`CN=POP000123, O=…, C=SK`), for health and messages. */
export function subjectOf(certificate: X509Certificate): string {
  return new ParsedCertificate(certificate.raw).subject;
}

/**
 * The subject's CN: a Peppol Access Point's seat id (`POP000123`), which AS4 puts in
 * From/To PartyId. Undefined when there is none, or more than one.
 */
export function commonNameOf(certificate: X509Certificate): string | undefined {
  const names = new ParsedCertificate(certificate.raw).subjectName.getField('CN');
  return names.length === 1 ? names[0] : undefined;
}
