import type { SapiScope } from '../../../commands/sapi/scopes.ts';
import { routeDeclarer, type Caller, type ResolveCaller, type Route } from '../../platform/http/index.ts';

/** Who calls /sapi: one SAPI client of one company, as its access token says. */
export interface SapiActor {
  readonly type: 'sapi_client';
  clientId: string;
  organisationId: string;
  companyId: string;
  /** the participant the credentials are locked to */
  participantId: string;
  scopes: SapiScope[];
  plan: string;
  /** the token pair's family (revocation ends it) */
  familyId: string;
  /** the access token's own id and expiry (token status) */
  tokenId: string;
  expiresAt: Date;
}

export type SapiRoute = Route<SapiActor>;
export type SapiCaller = Caller<SapiActor>;
export type SapiResolveCaller = ResolveCaller<SapiActor>;
export const defineSapiRoute = routeDeclarer<SapiActor>();

/** Where the connector lives: the API host root + /sapi, never under /api/v1. */
export const SAPI_PREFIX = '/sapi';
