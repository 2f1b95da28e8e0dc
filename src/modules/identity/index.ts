import { apiKeys } from '../../../projections/api-keys/projector.ts';
import { identity } from '../../../projections/identity/projector.ts';
import { tenancy } from '../../../projections/tenancy/projector.ts';
import type { Core } from '../../core.ts';
import { apiKeyRoutes } from '../../http/api-keys.ts';
import { authRoutes } from '../../http/auth.ts';
import { oauthRoutes } from '../../http/oauth.ts';
import { securityEventRoutes } from '../../http/security-events.ts';
import type { Credentials } from '../../identity/credentials.ts';
import type { SigningKeys } from '../../identity/signing-keys.ts';
import type { Limits } from '../../limits/limits.ts';
import type { Module } from '../module.ts';

export interface IdentityDeps extends Core {
  auth: Credentials;
  identity: SigningKeys;
  /** the failure guard counts bad passwords and TOTP codes */
  limits: Limits;
}

/** Tenancy and identity: organisations, companies, users, sign-in, API keys, OAuth clients, security events. */
export function identityModule(deps: IdentityDeps): Module {
  return {
    routes: [...authRoutes(deps), ...apiKeyRoutes(deps), ...oauthRoutes(deps), ...securityEventRoutes(deps)],
    projectors: [tenancy, apiKeys, identity],
    reactors: [],
  };
}
