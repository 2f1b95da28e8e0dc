import { Type } from '@sinclair/typebox';

const TrustHealthSchema = (what: string) => Type.Object({
  source: Type.Union([Type.Literal('file'), Type.Literal('peppol-test'), Type.Literal('peppol-production')], {
    description: '`file`: the operator\'s PEM bundle; `peppol-test` / `peppol-production`: the Peppol CAs shipped with the service for PEPPOL_STAGE, used when the variable is unset',
  }),
  issuing_cas: Type.Array(Type.String(), { description: 'the CNs of the issuing CAs, `PEPPOL ACCESS POINT TEST CA - G3`' }),
}, { additionalProperties: false, description: `the CAs trusted for ${what}` });

/** The `peppol` field of GET /api/v1/health (issue 38): which network, and for AS4 our certificate and the trust in use. */
export const PeppolHealthSchema = Type.Union([
  Type.Object({ network: Type.Literal('sandbox') }, { additionalProperties: false }),
  Type.Object({
    network: Type.Literal('as4'),
    certificate: Type.Object({
      subject: Type.String({ description: 'our Access Point certificate\'s subject, `CN=POP000123, O=…, C=SK`' }),
      not_after: Type.String({ format: 'date-time', description: 'when it expires' }),
      days_to_expiry: Type.Integer({ description: 'whole days left (negative once expired); below 30 the status is `degraded`' }),
    }, { additionalProperties: false }),
    trust: Type.Object({
      ap: TrustHealthSchema('Access Point certificates (PEPPOL_AP_TRUST)'),
      smp: TrustHealthSchema('SMP signing certificates (PEPPOL_SMP_TRUST)'),
    }, { additionalProperties: false, description: 'the CAs trusted for peers\' certificates' }),
  }, { additionalProperties: false }),
], { description: 'The Peppol network the service delivers over: `sandbox` (the embedded loop, the default) or `as4` (a real Access Point, PEPPOL_NETWORK=as4), with its certificate' });

/** Fields the native door's health adds to the platform's. */
export const nativeHealthFields = { peppol: PeppolHealthSchema };
