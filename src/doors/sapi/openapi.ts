import { SapiErrorBody } from '../../../schemas/sapi/errors.ts';
import type { OpenApiDoor, PublicHosts } from '../../platform/http/index.ts';
import { SAPI_PREFIX } from './route.ts';

/**
 * The SAPI-SK door's OpenAPI: every refusal, the platform's own included, is the SAPI envelope;
 * callers prove themselves with the SAPI access token only; the 429 is SAPI-RATE-LIMIT.
 */
export function sapiOpenApiDoor(exempt: (path: string) => boolean, hosts?: PublicHosts): OpenApiDoor {
  return {
    ...(hosts ? { hosts } : {}),
    info: {
      title: 'SAPI-SK connector',
      version: '1.0.0',
      description:
        'The Slovak standard interface between accounting software and an Access Point: send a ready-made UBL Invoice or CreditNote, follow its Peppol and FS legs, and poll and acknowledge inbound documents. Errors are the SAPI-SK envelope; see docs/sapi.md for every code.',
      license: { name: 'Proprietary: use of the API under the terms of service', identifier: 'LicenseRef-Proprietary' },
    },
    tags: {
      auth: 'SAPI-SK tokens: client credentials in a JSON body, renewal with the refresh token, revocation and status.',
      'SAPI documents': 'Sending a UBL document with its Idempotency-Key, and its status (Peppol and FS).',
      inbox: 'Documents received for the company: the list, one document byte for byte, and its acknowledgement.',
      system: 'Health of the connector.',
    },
    securitySchemes: {
      SapiToken: {
        type: 'http', scheme: 'bearer',
        description: `The access_token of POST ${SAPI_PREFIX}/auth/token (client credentials in a JSON body, 900 s); every document route also needs X-Peppol-Participant-Id.`,
      },
    },
    security: [{ SapiToken: [] }],
    responseHeaders: { 'X-Correlation-Id': { description: 'the same id as X-Request-Id, under the name SAPI-SK clients read', schema: { type: 'string' } } },
    errorBody: SapiErrorBody,
    validationErrorBody: SapiErrorBody,
    rateLimited: { description: '`SAPI-RATE-LIMIT`: too many requests for the SAPI client\'s plan; wait Retry-After seconds.', schema: SapiErrorBody, exempt },
  };
}
