import { Type, type Static } from '@sinclair/typebox';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '../commands/tenancy/api-key.ts';
import { Page, Uuid } from './common/index.ts';

const Scope = Type.Union(API_KEY_SCOPES.map((s) => Type.Literal(s)), { description: 'recorded on the key; not enforced in v1 (every key has full access)' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const ApiKeyCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX }),
    scopes: Type.Optional(Type.Array(Scope, { description: 'default: invoices:read, invoices:write, invoices:send' })),
    expires_in_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 365, description: 'null: the key does not expire' }))),
  },
  { additionalProperties: false },
);
export type ApiKeyCreate = Static<typeof ApiKeyCreate>;

export const ApiKeyUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX, description: 'omit to keep' })),
    scopes: Type.Optional(Type.Array(Scope, { description: 'omit to keep' })),
  },
  { additionalProperties: false },
);
export type ApiKeyUpdate = Static<typeof ApiKeyUpdate>;

export const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    key_prefix: Type.String({ description: 'the first characters of the key, to tell keys apart; never the key' }),
    scopes: Type.Array(Type.String()),
    is_active: Type.Boolean({ description: 'false once revoked' }),
    last_used_at: Nullable(Type.String({ format: 'date-time', description: 'written in batches: up to 15 s behind' })),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Nullable(Type.String({ format: 'date-time' })),
  },
  {},
);
export type ApiKey = Static<typeof ApiKey>;

export const ApiKeyCreated = Type.Composite([ApiKey, Type.Object({ api_key: Type.String({ description: 'the key itself, shown this once: store it now' }) })]);

export const ApiKeyList = Page(ApiKey);

export const ApiKeyRevoked = Type.Object({ id: Uuid, message: Type.String() });
