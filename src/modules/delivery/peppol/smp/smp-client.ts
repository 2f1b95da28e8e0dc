/**
 * The SMP step (Peppol SMP 1.x): the participant's ServiceGroup, then the SignedServiceMetadata of
 * each document type it references, following a Redirect element once.
 *
 * Each ServiceMetadata is fetched from the SMP the SML named, at the URL the specification defines
 * (`<smp>/<participant>/services/<document type>`), using the document type the reference names
 * rather than the reference URL itself: the specification forbids references to other SMPs, and
 * this way a ServiceGroup cannot send our server to arbitrary hosts. A Redirect is the one place
 * where another host is legitimate, and it is followed once only, as the specification says.
 */
import type { ParticipantId } from './participant-id.ts';
import { PARTICIPANT_SCHEME, participantValue, qualifiedParticipantId } from './participant-id.ts';
import { readServiceGroup } from './service-group.ts';
import { readServiceMetadata, type ServiceInformation } from './service-metadata.ts';
import { getSmpResource, type SmpHttpOptions } from './smp-http.ts';
import { failed, withSmpXml, type SmpIdentifier } from './smp-xml.ts';

/** More than any real participant publishes; bounds the requests one lookup can cause. */
const MAX_DOCUMENT_TYPES = 200;
const PARALLEL_REQUESTS = 8;

type SmpParticipant = { registered: false } | { registered: true; services: ServiceInformation[] };

export async function readParticipantFromSmp(smpUrl: string, id: ParticipantId, options: SmpHttpOptions): Promise<SmpParticipant> {
  const groupUrl = smpResourceUrl(smpUrl, qualifiedParticipantId(id));
  const groupResponse = await getSmpResource(groupUrl, options);
  if (groupResponse.status === 'not_found') return { registered: false };
  const group = withSmpXml(groupResponse.body, `ServiceGroup ${groupUrl}`, (root) => readServiceGroup(root, `ServiceGroup ${groupUrl}`));
  if (group.participant !== null) checkParticipant(group.participant, id, groupUrl);
  if (group.documentTypes.length > MAX_DOCUMENT_TYPES) {
    throw failed(`ServiceGroup ${groupUrl} lists ${group.documentTypes.length} document types; at most ${MAX_DOCUMENT_TYPES} are read`);
  }
  const services = await mapLimited(group.documentTypes, PARALLEL_REQUESTS, (documentType) =>
    readService(smpResourceUrl(smpUrl, qualifiedParticipantId(id), 'services', `${documentType.scheme}::${documentType.value}`), id, options),
  );
  return { registered: true, services: services.filter((s): s is ServiceInformation => s !== null) };
}

/** null when the SMP no longer has the referenced metadata (a stale reference: the type is not offered). */
async function readService(url: string, id: ParticipantId, options: SmpHttpOptions): Promise<ServiceInformation | null> {
  const first = await readMetadata(url, options);
  if (first === null) return null;
  let metadata = first;
  if (metadata.kind === 'redirect') {
    const target = redirectTarget(metadata.href, url);
    const redirected = await readMetadata(target, options);
    if (redirected === null) return null;
    if (redirected.kind === 'redirect') throw failed(`ServiceMetadata ${url} redirects twice (${target} → ${redirected.href}); only one redirect is followed`);
    metadata = redirected;
  }
  checkParticipant(metadata.service.participant, id, url);
  return metadata.service;
}

async function readMetadata(url: string, options: SmpHttpOptions) {
  const response = await getSmpResource(url, options);
  if (response.status === 'not_found') return null;
  return withSmpXml(response.body, `ServiceMetadata ${url}`, (root) => readServiceMetadata(root, `ServiceMetadata ${url}`));
}

function redirectTarget(href: string, from: string): string {
  let target: URL;
  try {
    target = new URL(href);
  } catch {
    throw failed(`ServiceMetadata ${from} redirects to "${href}", which is not a URL`);
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw failed(`ServiceMetadata ${from} redirects to a ${target.protocol} URL`);
  return target.href;
}

/** An SMP answering for another participant is misconfigured; what it says is not about ours. */
function checkParticipant(found: SmpIdentifier, id: ParticipantId, url: string): void {
  const same = found.scheme.toLowerCase() === PARTICIPANT_SCHEME && found.value.toLowerCase() === participantValue(id);
  if (!same) throw failed(`${url} describes participant ${found.scheme}::${found.value}, not ${qualifiedParticipantId(id)}`);
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
