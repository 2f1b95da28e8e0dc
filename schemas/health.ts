import { Type } from '@sinclair/typebox';

/** The `peppol` field of GET /api/v1/health (issue 38): which network, and for AS4 our certificate. */
export const PeppolHealthSchema = Type.Union([
  Type.Object({ network: Type.Literal('sandbox') }, { additionalProperties: false }),
  Type.Object({
    network: Type.Literal('as4'),
    certificate: Type.Object({
      subject: Type.String({ description: 'our Access Point certificate\'s subject, `CN=POP000123, O=…, C=SK`' }),
      not_after: Type.String({ format: 'date-time', description: 'when it expires' }),
      days_to_expiry: Type.Integer({ description: 'whole days left (negative once expired); below 30 the status is `degraded`' }),
    }, { additionalProperties: false }),
  }, { additionalProperties: false }),
], { description: 'The Peppol network the service delivers over: `sandbox` (the embedded loop, the default) or `as4` (a real Access Point, PEPPOL_NETWORK=as4), with its certificate' });

/** Fields the native door's health adds to the platform's. */
export const nativeHealthFields = { peppol: PeppolHealthSchema };
