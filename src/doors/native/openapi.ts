import { OAUTH_CLIENT_SCOPES } from '../../../commands/identity/oauth-client.ts';
import { ErrorBody, InvoiceRulesBody, RateLimitedBody, ValidationErrorBody } from '../../../schemas/common/index.ts';
import { isExemptRequest } from '../../platform/limits/exempt.ts';
import type { OpenApiDoor, PublicHosts } from '../../platform/http/index.ts';
import { API_PREFIX } from './prefix.ts';

const SCOPE_TEXT: Record<(typeof OAUTH_CLIENT_SCOPES)[number], string> = {
  'invoices:read': 'read invoices, credit notes and their documents',
  'invoices:write': 'create and change invoices and credit notes',
  'invoices:send': 'send invoices over Peppol and file them with FS',
  'validate:only': 'validate invoices without keeping them',
};

/**
 * The native API's OpenAPI door: who it is, its tags, the three ways to authenticate, its error
 * bodies and its 429 (documented as deployed, even where a test turns the limiter off).
 */
export function nativeOpenApiDoor(hosts?: PublicHosts): OpenApiDoor {
  return {
    ...(hosts ? { hosts } : {}),
    info: {
      title: 'Slovak e-invoicing service',
      version: '1.0.0',
      description: 'Issues, validates, delivers (Peppol BIS Billing 3.0) and files (FS) electronic invoices for Slovak businesses.',
      license: { name: 'Proprietary: use of the API under the terms of service', identifier: 'LicenseRef-Proprietary' },
    },
    tags: {
      'api keys': 'Server-to-server keys of an organisation (admins): shown once, stored hashed.',
      approvals: 'Four-eyes approval of invoices and credit notes before they are sent.',
      auth: 'Users: sign-in with password and TOTP, sessions with rotating refresh tokens, password and two-factor changes.',
      'credit notes': 'Credit notes against an issued invoice, never beyond what is left to credit, and the allowance per VAT bucket.',
      customers: 'The customer directory: buyers of one company or of the whole organisation.',
      delivery: 'Peppol and FS delivery of an invoice: its legs, attempts and verdicts.',
      lookup: 'Slovak companies by IČO or name, from the public registers (RPO, RegisterUZ, VIES), to fill a buyer without retyping it.',
      invoices: 'Invoices: drafts, totals and VAT, validation (XSD, CEN, Peppol, Slovak), UBL, sending, and the received ones.',
      oauth2: 'OAuth 2.0 client-credentials clients of an organisation, and their tokens.',
      operator: 'The service operator\'s views (METRICS_TOKEN, or loopback): the monthly Peppol Reporting to OpenPeppol.',
      payments: 'Payments recorded against invoices, and refunds against credit notes.',
      'sapi-sk connector': 'Installing and managing the SAPI-SK clients of a company (the /sapi front door has its own document).',
      security: 'The organisation\'s security log.',
      system: 'Health of the service.',
      tools: 'Helpers: Peppol participant lookup.',
      workspaces: 'Workspaces of an organisation and the companies in them, with the caller\'s role.',
      webhooks: 'Webhook endpoints (API key only): registration, secrets, test pings and delivery attempts.',
      Webhooks: 'Requests the service sends to a registered endpoint, signed with svc-signature.',
    },
    securitySchemes: {
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'API key (server to server); acts as an admin of its organisation' },
      Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A user\'s JWT access token, an OAuth 2.0 client-credentials token, or an API key starting with svc_' },
      OAuth2: {
        type: 'oauth2',
        description: 'OAuth 2.0 client credentials: POST the client id and secret to the token URL (form-encoded as RFC 6749 sends it, or JSON; the client may authenticate with HTTP Basic instead), send the token as Bearer.',
        flows: { clientCredentials: { tokenUrl: `${API_PREFIX}/oauth2/token`, scopes: SCOPE_TEXT } },
      },
      WebhookSignature: {
        type: 'apiKey', in: 'header', name: 'svc-signature',
        description: 'On requests the service sends to webhook endpoints: `t=<unix seconds>,v1=<hex HMAC-SHA256>` over `{t}.{raw body}` with the endpoint\'s whsec_ secret.',
      },
    },
    security: [{ ApiKey: [] }, { Bearer: [] }, { OAuth2: [] }],
    errorBody: ErrorBody,
    validationErrorBody: ValidationErrorBody,
    // an invoice command refused by business rules answers {detail: {message, errors[]}} wherever it runs
    moreValidationBodies: [InvoiceRulesBody],
    rateLimited: {
      description: '`rate_limit_exceeded`: the caller\'s plan allows so many requests per minute (per API key, user or OAuth client); wait Retry-After seconds.',
      schema: RateLimitedBody,
      exempt: (path) => isExemptRequest('GET', path),
    },
  };
}
