import { Type, type Static } from '@sinclair/typebox';
import { MAX_ALLOWLIST_ENTRIES } from '../../commands/sapi/client-allowlist.ts';
import { Page } from '../common/index.ts';

/* Native /api/v1 routes that install and manage SAPI-SK credentials (not in the spec: ours). */

const DateTime = Type.String({ format: 'date-time' });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const SapiClient = Type.Object(
  {
    client_id: Type.String(),
    company_id: Type.String({ format: 'uuid' }),
    participant_id: Type.String({ description: 'the Peppol participant the credentials are locked to (the company\'s)' }),
    base_url: Type.String({ description: 'the connector\'s base address: the API host root + /sapi' }),
    enabled: Type.Boolean({ description: 'a disabled client\'s requests get SAPI-DISABLED (503)' }),
    allowlist: Type.Array(Type.String(), { description: 'CIDRs the client may call from; empty = any address' }),
    locked_until: nullable(DateTime),
    secret_rotated_at: nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { title: 'SapiClient', description: 'SAPI-SK credentials without their secret' },
);
export type SapiClient = Static<typeof SapiClient>;

export const SapiClientWithSecret = Type.Object(
  { ...SapiClient.properties, client_secret: Type.String({ description: 'shown in this answer only; only its SHA-256 is stored' }) },
  { title: 'SapiClientWithSecret' },
);

export const SapiClientList = Type.Object(Page(SapiClient).properties, { title: 'SapiClientList' });

export const SapiAllowlistUpdate = Type.Object(
  {
    cidrs: Type.Array(Type.String({ maxLength: 64 }), {
      maxItems: MAX_ALLOWLIST_ENTRIES,
      description: 'IPv4/IPv6 addresses or CIDRs (`203.0.113.0/24`); stored in canonical form; empty = any address',
    }),
  },
  { title: 'SapiAllowlistUpdate' },
);
