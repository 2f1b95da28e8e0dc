import { apiKeys } from '../../../projections/api-keys/projector.ts';
import { identity } from '../../../projections/identity/projector.ts';
import { tenancy } from '../../../projections/tenancy/projector.ts';
import type { Core } from '../../platform/core.ts';
import { apiKeyRoutes } from './api-key-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { securityEventRoutes } from './security-event-routes.ts';
import type { Credentials } from './credentials.ts';
import type { SigningKeys } from './signing-keys.ts';
import type { Limits } from '../../platform/limits/limits.ts';
import type { Module } from '../module.ts';
import { sealTotpSecrets } from './seal-totp-secrets.ts';
import type { TotpSecrets } from './totp-secrets.ts';

interface IdentityDeps extends Core {
  auth: Credentials;
  identity: SigningKeys;
  /** the failure guard counts bad passwords and TOTP codes */
  limits: Limits;
  /** the box TOTP secrets are sealed in */
  totpSecrets: TotpSecrets;
}

/** Tenancy and identity: organisations, companies, users, sign-in, API keys, OAuth clients, security events. */
export function identityModule(deps: IdentityDeps): Module {
  return {
    routes: [...authRoutes(deps), ...apiKeyRoutes(deps), ...oauthRoutes(deps), ...securityEventRoutes(deps)],
    projectors: [tenancy, apiKeys, identity],
    reactors: [],
    rewrites: [sealTotpSecrets(deps.totpSecrets)],
  };
}
