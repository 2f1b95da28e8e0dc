import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { ErrorBody } from '../../../schemas/common/index.ts';
import { ParticipantLookupError } from './peppol/participants.ts';
import type { ParticipantDirectory } from './peppol/participants.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';

const PeppolCheckRequest = Type.Object(
  { participant_id: Type.String({ minLength: 3, maxLength: 100, description: '`<scheme>:<identifier>`, e.g. 0245:2020273893 or 9950:sk2020273893svctest' }) },
  { additionalProperties: false },
);
const Capability = Type.Object({
  document_type_id: Type.String({ description: 'Peppol document type identifier (busdox-docid-qns)' }),
  name: Type.Union([Type.String(), Type.Null()]),
  process_ids: Type.Array(Type.String()),
  transport_profiles: Type.Array(Type.String()),
  endpoint_urls: Type.Array(Type.String()),
});
const PeppolCheckResult = Type.Object(
  {
    participant_id: Type.String({ description: 'normalised: scheme, colon, identifier in lower case' }),
    scheme: Type.String(),
    identifier: Type.String(),
    registered: Type.Boolean({ description: 'the directory knows the participant' }),
    can_receive: Type.Boolean({ description: 'registered and accepting a Peppol BIS Billing 3.0 invoice or credit note' }),
    can_receive_invoice: Type.Boolean(),
    can_receive_credit_note: Type.Boolean(),
    document_types: Type.Array(Capability),
    source: Type.Union([Type.Literal('sandbox'), Type.Literal('smp')], { description: 'sandbox: companies of this service; smp: the Peppol SML and the participant’s SMP' }),
    smp_url: Type.Union([Type.String(), Type.Null()], { description: 'the SMP the SML named; null in the sandbox, for a static routing entry, or when the SML does not know the participant' }),
  },
  { $id: 'PeppolCheckResult' },
);

export function toolRoutes(deps: { participants: ParticipantDirectory }): Route[] {
  return [
    defineRoute({
      method: 'POST', path: '/tools/peppol-check', operationId: 'peppolCheck', tags: ['tools'], auth: 'api', permission: 'invoices.read',
      summary: 'Can a Peppol participant receive, and which document types?',
      description: [
        'In the sandbox the answer comes from this service’s own companies (any organisation’s: Peppol addresses are public).',
        'With PEPPOL_NETWORK=as4 (or PEPPOL_DIRECTORY=smp) it comes from Peppol discovery, the same that finds where to send: the static routing table (PEPPOL_STATIC_ENDPOINTS) first,',
        'else the SML (BDXL DNS lookup in SML_ZONE) and the participant’s SMP, whose signed metadata is verified; endpoints whose certificate is not a Peppol Access Point certificate are left out.',
        'An unknown participant is a 200 with registered false. A malformed id is 422 invalid_participant_id; an unreachable or untrustworthy directory 502 participant_lookup_failed, whose message names the participant (never the SMP’s address or status).',
      ].join(' '),
      body: PeppolCheckRequest,
      responses: {
        200: { description: 'the lookup', schema: PeppolCheckResult },
        422: { description: 'request-body errors, or `invalid_participant_id`' },
        502: { description: '`participant_lookup_failed`', schema: ErrorBody },
      },
      async handle({ body }) {
        try {
          return { status: 200, body: await deps.participants.lookup(body.participant_id) };
        } catch (error) {
          if (!(error instanceof ParticipantLookupError)) throw error;
          throw new DomainError(error.code, error.message);
        }
      },
    }),
  ];
}
