import { Type } from '@sinclair/typebox';
import { Uuid } from './common/index.ts';

const Status = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('voided')], {
  description: '`pending` after request-approval, `approved` after approve, `rejected` after reject; `voided` when the document was changed (PUT) after the request or the approval (see `voided`): it is sent only once a new request is approved',
});
const Actor = (description: string) => Type.String({ description: `${description}: the user's id (UUID), or the API key's id or OAuth client_id that acted` });
const At = (description: string) => Type.String({ format: 'date-time', description });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** Why an approval was voided: which change, when, by whom. */
const ApprovalVoid = Type.Object({
  change: Type.Literal('invoice_updated', { description: 'the change that voided it: `invoice_updated`, a PUT of the invoice' }),
  changed_fields: Type.Array(Type.String(), { description: 'the invoice fields that differ from what was approved (`buyer`, `lines`, `note`, …); empty when the same content was put again' }),
  approved_total_gross: Type.String({ description: 'the total with VAT when it was approved (or asked for)' }),
  total_gross: Type.String({ description: 'the total with VAT after the change' }),
  by: Actor('who changed it'),
  at: At('when it was changed'),
}, { additionalProperties: false, $id: 'ApprovalVoid' });

/** The spec's approval record: the latest request of an invoice and its review. */
export const ApprovalRecord = Type.Object({
  id: Uuid,
  status: Status,
  requested_by: Actor('who asked for approval'),
  requested_at: At('when approval was asked for'),
  reviewed_by: nullable(Type.String({ description: 'the user (UUID) who approved or rejected it (records from before reviews were limited to users may name an API key or OAuth client); null while pending' })),
  reviewed_at: nullable(At('when it was approved or rejected; null while pending')),
  reason: nullable(Type.String({ description: 'why it was rejected; null otherwise' })),
  voided: Type.Union([ApprovalVoid, Type.Null()], { description: 'why it was voided (which change, when, by whom); null unless status is `voided`' }),
}, { additionalProperties: false, $id: 'ApprovalRecord' });

/** The spec's approval state response. */
export const ApprovalState = Type.Object({
  invoice_id: Uuid,
  approval: Type.Union([ApprovalRecord, Type.Null()], { description: 'the latest request and its review; null when approval was never asked for' }),
}, { additionalProperties: false, $id: 'ApprovalState' });

/** The spec's action acknowledgement of request-approval, approve and reject. */
export const ApprovalAck = Type.Object({
  id: Uuid,
  invoice_id: Uuid,
  status: Status,
  reason: nullable(Type.String({ description: 'the rejection reason (reject only); null otherwise' })),
}, { additionalProperties: false, $id: 'ApprovalAck' });

export const RejectBody = Type.Object({
  reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'why it is rejected (1-1000 characters, not blank); kept on the record and shown to the requester' }),
}, { additionalProperties: false });
