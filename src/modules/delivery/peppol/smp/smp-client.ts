/**
 * The SMP step (Peppol SMP 1.x): the participant's ServiceGroup, and the SignedServiceMetadata of a
 * document type, its signature verified and its signer checked as a Peppol SMP certificate,
 * following a Redirect element once (the destination must sign with the certificate the Redirect
 * names in CertificateUID).
 *
 * Each ServiceMetadata is fetched from the SMP the SML named, at the URL the specification defines
 * (`<smp>/<participant>/services/<document type>`, each identifier percent-encoded whole), using
 * the document type rather than the ServiceGroup's reference URL itself: the specification forbids
 * references to other SMPs, and this way a ServiceGroup cannot send our server to arbitrary hosts.
 * A Redirect is the one place where another host is legitimate, and it is followed once only.
 * Every request goes through the guard (smp-http.ts). Errors name the participant, never a URL.
 */
import type { CheckCertificate } from '../certificate-check.ts';
import type { ParticipantId } from './participant-id.ts';
import { PARTICIPANT_SCHEME, participantValue, qualifiedParticipantId } from './participant-id.ts';
import { readServiceGroup } from './service-group.ts';
import { readServiceMetadata, type ServiceInformation, type ServiceMetadata } from './service-metadata.ts';
import { getSmpResource, type SmpHttpOptions } from './smp-http.ts';
import { verifySmpSignature } from './smp-signature.ts';
import { sameSubject } from './subject-name.ts';
import { failed, withSmpXml, type SmpIdentifier } from './smp-xml.ts';

/** More than any real participant publishes; bounds the requests one lookup can cause. */
const MAX_DOCUMENT_TYPES = 200;
const PARALLEL_REQUESTS = 8;

export interface SmpClientOptions extends SmpHttpOptions {
  checkCertificate: CheckCertificate;
}

type SmpParticipant = { registered: false } | { registered: true; services: ServiceInformation[] };

/** Everything the participant's SMP says it receives (for POST /tools/peppol-check). */
export async function readParticipantFromSmp(smpUrl: string, id: ParticipantId, options: SmpClientOptions): Promise<SmpParticipant> {
  const about = `participant ${participantValue(id)}`;
  const groupResponse = await getSmpResource(smpResourceUrl(smpUrl, qualifiedParticipantId(id)), about, options);
  if (groupResponse.status === 'not_found') return { registered: false };
  const source = `the SMP's ServiceGroup of ${about}`;
  const group = withSmpXml(groupResponse.body, source, (root) => readServiceGroup(root, source));
  if (group.participant !== null) checkParticipant(group.participant, id, source);
  if (group.documentTypes.length > MAX_DOCUMENT_TYPES) {
    throw failed(`${source} lists ${group.documentTypes.length} document types; at most ${MAX_DOCUMENT_TYPES} are read`);
  }
  const services = await mapLimited(group.documentTypes, PARALLEL_REQUESTS, (documentType) => readSignedService(smpUrl, id, documentType, options));
  return { registered: true, services: services.filter((s): s is ServiceInformation => s !== null) };
}

/**
 * The verified ServiceMetadata of one document type, or null when the SMP has none (404: the
 * participant does not receive it, or a stale reference).
 */
export async function readSignedService(smpUrl: string, id: ParticipantId, documentType: SmpIdentifier, options: SmpClientOptions): Promise<ServiceInformation | null> {
  const about = `participant ${participantValue(id)}`;
  const url = smpResourceUrl(smpUrl, qualifiedParticipantId(id), 'services', `${documentType.scheme}::${documentType.value}`);
  const first = await readVerified(url, about, options, undefined);
  if (first === null) return null;
  let metadata = first;
  if (metadata.kind === 'redirect') {
    const redirected = await readVerified(redirectTarget(metadata.href, about), about, options, metadata.certificateUid);
    if (redirected === null) return null;
    if (redirected.kind === 'redirect') throw failed(`the SMP's ServiceMetadata for ${about} redirects twice; only one redirect is followed`);
    metadata = redirected;
  }
  const source = `the SMP's ServiceMetadata for ${about}`;
  checkParticipant(metadata.service.participant, id, source);
  const found = metadata.service.documentType;
  if (found.scheme !== documentType.scheme || found.value !== documentType.value) throw failed(`${source} describes another document type than the one asked for`);
  return metadata.service;
}

/**
 * Fetches, vets (hardened parser), verifies the signature and its signer, and reads only what the
 * signature covers. `signer`: on a redirect's destination, the CertificateUID it must sign with.
 */
async function readVerified(url: string, about: string, options: SmpClientOptions, signer: string | null | undefined): Promise<ServiceMetadata | null> {
  const response = await getSmpResource(url, about, options);
  if (response.status === 'not_found') return null;
  const source = `the SMP's ServiceMetadata for ${about}`;
  withSmpXml(response.body, source, () => null); // DOCTYPE, size and depth refused before any other parser sees it
  const verified = verifySmpSignature(Buffer.from(response.body).toString('utf8'));
  if (!verified.ok) throw failed(`${source} ${verified.reason}`);
  const verdict = await options.checkCertificate(verified.certificate, 'smp');
  if (!verdict.ok) throw failed(`${source} is signed with a certificate that is not a Peppol SMP certificate (${verdict.reason}: ${verdict.message})`);
  if (signer !== undefined && (signer === null || !sameSubject(signer, verified.certificate.subject))) {
    throw failed(`${source} was redirected to an SMP that does not sign with the certificate the redirect names`);
  }
  return withSmpXml(Buffer.from(verified.signedXml, 'utf8'), source, (root) => readServiceMetadata(root, source));
}

function redirectTarget(href: string, about: string): string {
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    throw failed(`the SMP's ServiceMetadata for ${about} redirects to something that is not a URL`);
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw failed(`the SMP's ServiceMetadata for ${about} redirects to a ${target.protocol} URL`);
  return target.href;
}

/** An SMP answering for another participant is misconfigured; what it says is not about ours. */
function checkParticipant(found: SmpIdentifier, id: ParticipantId, source: string): void {
  const same = found.scheme.toLowerCase() === PARTICIPANT_SCHEME && found.value.toLowerCase() === participantValue(id);
  if (!same) throw failed(`${source} describes participant ${found.scheme}::${found.value}, not ${qualifiedParticipantId(id)}`);
}

/** `<base>/<segment>/…`, each segment percent-encoded as SMP 1.x requires (`:` → %3A, `#` → %23). */
export function smpResourceUrl(base: string, ...segments: string[]): string {
  return [base.replace(/\/+$/, ''), ...segments.map(encodeURIComponent)].join('/');
}

async function mapLimited<T, R>(items: readonly T[], limit: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await map(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
