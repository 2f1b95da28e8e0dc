import type { X509Certificate } from 'node:crypto';
import { AuthorityInfoAccessExtension, CRLDistributionPointsExtension, X509Certificate as ParsedCertificate } from '../x509.ts';

/** Where a certificate says its revocation status is published: OCSP responders (AIA) and CRL distribution points, http(s) ones only. */
export interface RevocationSources {
  ocsp: string[];
  crl: string[];
}

export function revocationSourcesOf(certificate: X509Certificate): RevocationSources {
  const parsed = new ParsedCertificate(certificate.raw);
  const aia = parsed.getExtension(AuthorityInfoAccessExtension);
  const ocsp = (aia?.ocsp ?? []).filter((name) => name.type === 'url').map((name) => name.value);
  const points = parsed.getExtension(CRLDistributionPointsExtension)?.distributionPoints ?? [];
  const crl = points.flatMap((point) => point.distributionPoint?.fullName ?? []).flatMap((name) => (name.uniformResourceIdentifier ? [name.uniformResourceIdentifier] : []));
  const web = (url: string) => /^https?:\/\//i.test(url);
  return { ocsp: ocsp.filter(web), crl: crl.filter(web) };
}
