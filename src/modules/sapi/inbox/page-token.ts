import { SapiRefusal } from '../../../../commands/sapi/errors.ts';
import { INBOX_STATUSES, type InboxStatus } from '../../../../commands/sapi/inbox.ts';
import type { SigningKeyRing } from '../../identity/index.ts';

/** Its own audience and type: a page token is never an access token, nor the other way round. */
const AUDIENCE = 'sk-einvoicing:sapi-inbox-page';
const TYP = 'sapi-page+jwt';
/** A listing is resumed within a day; after that the client starts again from the top. */
const PAGE_TOKEN_SECONDS = 24 * 3600;

/** Where the next page starts: after `after` (a read-model position) in `status`, for one company. */
interface PageCursor {
  companyId: string;
  status: InboxStatus;
  after: string;
}

/**
 * The opaque nextPageToken: a JWS signed by the service's key ring (the library does the crypto),
 * naming the company, the status and the position of the page's last document. Tampering breaks
 * the signature; another company's token names another company.
 */
export function issuePageToken(ring: SigningKeyRing, cursor: PageCursor, now: Date): Promise<string> {
  return ring.sign({ sub: cursor.companyId, aud: AUDIENCE, st: cursor.status, after: cursor.after }, PAGE_TOKEN_SECONDS, { typ: TYP, now });
}

const invalid = (issue: string) => new SapiRefusal('SAPI-VAL-001', 'the pageToken is not valid: list again without it', [{ field: 'pageToken', issue }]);

/** The cursor of a page token this service issued for `companyId`; SAPI-VAL-001 for anything else. */
export async function readPageToken(ring: SigningKeyRing, token: string, companyId: string, now: Date): Promise<PageCursor> {
  let claims;
  try {
    claims = await ring.verify(token, { audience: AUDIENCE, typ: TYP, now });
  } catch {
    throw invalid('not a page token of this service, altered, or expired');
  }
  const { sub, st, after } = claims;
  if (typeof sub !== 'string' || typeof after !== 'string' || !(INBOX_STATUSES as readonly unknown[]).includes(st)) throw invalid('malformed');
  if (sub !== companyId) throw invalid('issued to another participant');
  return { companyId: sub, status: st as InboxStatus, after };
}
