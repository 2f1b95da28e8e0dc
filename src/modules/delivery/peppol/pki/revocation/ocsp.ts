import type { X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';
import { RevocationFetchError, type RevocationFetch } from './bounded-fetch.ts';
import type { SourceAnswer } from './source-answer.ts';

/** An OCSP answer is a few KB (a signature, maybe the responder's certificate). */
const MAX_OCSP_BYTES = 64 * 1024;

/**
 * Asks the certificate's OCSP responder (RFC 6960, POST) about it. pkijs builds the request,
 * parses the answer and verifies its signature: by the issuer itself, or by a responder the issuer
 * delegated to (id-kp-OCSPSigning), checked by pkijs against the issuer. `issuers`: the path above
 * the certificate, its issuer first (from the trust bundle).
 */
export async function askOcsp(certificate: X509Certificate, issuers: readonly X509Certificate[], url: string, fetch: RevocationFetch, at: Date): Promise<SourceAnswer> {
  const subject = pkijs.Certificate.fromBER(certificate.raw);
  const [issuerCertificate, ...above] = issuers.map((c) => pkijs.Certificate.fromBER(c.raw));
  if (!issuerCertificate) return { status: 'unknown', why: 'no issuer to ask about' };
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(subject, { hashAlgorithm: 'SHA-1', issuerCertificate });
  let bytes: Uint8Array;
  try {
    bytes = await fetch({ url, method: 'POST', body: new Uint8Array(request.toSchema(true).toBER()), contentType: 'application/ocsp-request', accept: 'application/ocsp-response' });
  } catch (error) {
    return { status: 'unknown', why: `OCSP responder ${error instanceof RevocationFetchError ? error.message : 'failed'}` };
  }
  if (bytes.byteLength > MAX_OCSP_BYTES) return { status: 'unknown', why: 'OCSP answer too large' };
  try {
    return await readAnswer(bytes, subject, issuerCertificate, [issuerCertificate, ...above], at);
  } catch (error) {
    return { status: 'unknown', why: `OCSP answer unusable (${error instanceof Error ? error.message : String(error)})` };
  }
}

async function readAnswer(bytes: Uint8Array, subject: pkijs.Certificate, issuer: pkijs.Certificate, anchors: pkijs.Certificate[], at: Date): Promise<SourceAnswer> {
  const response = pkijs.OCSPResponse.fromBER(new Uint8Array(bytes));
  const status = response.responseStatus.valueBlock.valueDec;
  if (status !== 0) return { status: 'unknown', why: `OCSP responder answered status ${status}` };
  if (!response.responseBytes || response.responseBytes.responseType !== pkijs.id_PKIX_OCSP_Basic) return { status: 'unknown', why: 'OCSP answer is not a basic response' };
  const basic = pkijs.BasicOCSPResponse.fromBER(new Uint8Array(response.responseBytes.response.valueBlock.valueHexView));
  // signed by the issuer itself, the answer need not carry the issuer's certificate: pkijs looks for the signer there
  if (!basic.certs || basic.certs.length === 0) basic.certs = [issuer];
  // the issuer is trusted already (it is from our bundle): its own signature needs no chain; a
  // delegated responder's certificate must chain to the bundle's certificates above it
  const verified = await basic.verify({ trustedCerts: anchors, issuerCerts: [issuer], trustedResponders: [issuer] }).catch(() => false);
  if (!verified) return { status: 'unknown', why: 'OCSP answer not signed by the issuer or a responder it authorised' };

  const single = await singleResponseFor(basic, subject, issuer);
  if (!single) return { status: 'unknown', why: 'OCSP answer is about another certificate' };
  const thisUpdate = single.thisUpdate.getTime();
  const nextUpdate = single.nextUpdate?.getTime();
  if (thisUpdate > at.getTime() + CLOCK_SKEW_MS) return { status: 'unknown', why: 'OCSP answer dated in the future' };
  if (nextUpdate !== undefined && nextUpdate < at.getTime() - CLOCK_SKEW_MS) return { status: 'unknown', why: 'OCSP answer is stale (past its nextUpdate)' };
  const tag = single.certStatus.idBlock as { tagNumber: number; isConstructed: boolean };
  const until = nextUpdate ?? null;
  if (tag.tagNumber === 0 && !tag.isConstructed) return { status: 'good', until };
  if (tag.tagNumber === 1) return { status: 'revoked', until };
  return { status: 'unknown', why: 'OCSP responder does not know the certificate' };
}

/** Responders and clocks disagree by a little; RFC 6960 leaves the tolerance to the client. */
const CLOCK_SKEW_MS = 5 * 60_000;

async function singleResponseFor(basic: pkijs.BasicOCSPResponse, subject: pkijs.Certificate, issuer: pkijs.Certificate): Promise<pkijs.SingleResponse | undefined> {
  const engine = pkijs.getCrypto(true);
  for (const single of basic.tbsResponseData.responses) {
    const hashAlgorithm = engine.getAlgorithmByOID(single.certID.hashAlgorithm.algorithmId, true, 'CertID.hashAlgorithm');
    const mine = await pkijs.CertID.create(subject, { hashAlgorithm: hashAlgorithm.name, issuerCertificate: issuer });
    if (single.certID.isEqual(mine)) return single;
  }
  return undefined;
}
