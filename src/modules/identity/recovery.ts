import { oauthClientStream } from '../../../events/identity.ts';
import { apiKeyStream } from '../../../events/tenancy.ts';
import type { Core } from '../../platform/core.ts';
import { secretShownOnce, type Recover } from '../idempotency/index.ts';

/*
 * An API key or OAuth client create resumed under its Idempotency-Key: its secret was shown once,
 * by the run that died, so the resumed request can only say that the resource exists.
 */
type Deps = Pick<Core, 'store'>;
const exists = (deps: Deps, stream: (id: string) => string) => async (id: string) => (await deps.store.readStream(stream(id))).length > 0;
export const recoverApiKeyCreate = (deps: Deps): Recover => secretShownOnce(exists(deps, apiKeyStream));
/** the client id is made from the minted id as createOAuthClient makes it */
export const recoverOAuthClientCreate = (deps: Deps): Recover => secretShownOnce(exists(deps, (id) => oauthClientStream(`oc_${id.replace(/-/g, '')}`)));
