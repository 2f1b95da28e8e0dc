import { Type, type Static } from '@sinclair/typebox';

const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

const Finding = Type.Object({ rule: Type.String(), location: Type.String(), message: Type.String() });

/** One report (EUSR or TSR) of a month as the operator sees it. */
export const PeppolReportStatus = Type.Object({
  status: Type.Union([Type.Literal('built'), Type.Literal('invalid'), Type.Literal('sending'), Type.Literal('sent'), Type.Literal('failed')], {
    description: '`built`: valid, not sent yet; `invalid`: fails its official XSD or Schematron (or they were not available), never sent; '
      + '`sending`: an attempt is due (`retry_at`); `sent`: the reporting receiver took it; `failed`: refused, or not sent by the end of the 15th',
  }),
  valid: Type.Union([Type.Boolean(), Type.Null()], { description: 'null: the rules were not available' }),
  errors: Type.Array(Finding, { description: 'the fatal findings of its XSD and Schematron' }),
  built_at: DateTime('when it was built'),
  message_id: nullable(Type.String({ description: 'the SBDH instance identifier it is sent as (an MLS names it); null before the first attempt' })),
  attempts: Type.Integer({ minimum: 0, description: 'failed attempts' }),
  retry_at: nullable(DateTime('when the next attempt is due')),
  last_error: nullable(Type.String()),
  sent_at: nullable(DateTime('when the receiving Access Point took it')),
  mls: Type.Union([Type.Object({
    response_code: Type.Union([Type.Literal('AP'), Type.Literal('AB'), Type.Literal('RE')], { description: 'AP accepted, AB acknowledged with remarks, RE rejected' }),
    reasons: Type.Array(Type.Object({ rule: Type.Optional(Type.String()), location: Type.String(), message: Type.String(), reason_code: Type.String() })),
    received_at: DateTime('when the MLS arrived'),
  }), Type.Null()], { description: "OpenPeppol's Message Level Status about it; null until one arrives" }),
});
export type PeppolReportStatus = Static<typeof PeppolReportStatus>;

/** GET /operator/peppol-reporting */
export const PeppolReportingMonths = Type.Object({
  items: Type.Array(Type.Object({
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'the month reported (YYYY-MM, UTC)' }),
    eusr: Type.Union([PeppolReportStatus, Type.Null()]),
    tsr: Type.Union([PeppolReportStatus, Type.Null()]),
  }), { description: 'the months built, newest first' }),
}, { $id: 'PeppolReportingMonths' });
export type PeppolReportingMonths = Static<typeof PeppolReportingMonths>;

export const PeppolReportingQuery = Type.Object({
  months: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, default: 24, description: 'how many of the latest months' })),
}, { additionalProperties: false });
