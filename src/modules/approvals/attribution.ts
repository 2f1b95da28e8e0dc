import type { Requester } from '../../../commands/approvals/decider.ts';
import type { OAuthClientIssued } from '../../../events/identity.ts';
import { oauthClientStream } from '../../../events/identity.ts';
import type { ApiKeyIssued } from '../../../events/tenancy.ts';
import { apiKeyStream } from '../../../events/tenancy.ts';
import type { EventStore } from '../../platform/eventstore/port.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';

/** Keys make keys (an API key acts as admin): how many issuers back a chain is followed, well beyond any real one. */
const MAX_CHAIN = 16;

/** Who issued a credential, from its own stream's first event (ApiKeyIssued, OAuthClientIssued); null: it is neither. */
async function issuance(store: Pick<EventStore, 'readStream'>, id: string): Promise<{ kind: 'api_key' | 'oauth_client'; issued_by: string } | null> {
  for (const [kind, stream] of [['api_key', apiKeyStream(id)], ['oauth_client', oauthClientStream(id)]] as const) {
    const [first] = await store.readStream(stream);
    if (!first) continue;
    const issued = domainEvent<ApiKeyIssued | OAuthClientIssued>(first);
    if (issued.type === 'ApiKeyIssued' || issued.type === 'OAuthClientIssued') return { kind, issued_by: issued.data.issued_by };
  }
  return null;
}

/**
 * Who stands behind an approval request's `requested_by` (a user id, API key id or OAuth
 * client_id), read from the event store rather than a read model so that every key ever issued
 * answers, and at once: a user is themselves; a key or client, whoever its Issued event names
 * (`issued_by`, the actor that created it), followed back while that is a key in turn, to the
 * user at the root. A root that is no user's id (the demo bootstrap, a test seed) is named as it
 * is: it matches no reviewer, which is right, since no person created that key.
 */
export async function attributeRequester(store: Pick<EventStore, 'readStream'>, requestedBy: string): Promise<Requester> {
  const first = await issuance(store, requestedBy);
  if (!first) return { kind: 'user', id: requestedBy, person: requestedBy };
  let issuer = first.issued_by;
  for (let step = 0; step < MAX_CHAIN; step++) {
    const next = await issuance(store, issuer);
    if (!next) break;
    issuer = next.issued_by;
  }
  return { kind: first.kind, id: requestedBy, person: issuer };
}
