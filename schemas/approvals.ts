import { Type } from '@sinclair/typebox';
import { Uuid } from './common/index.ts';

const Status = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')], {
  description: '`pending` after request-approval, `approved` after approve, `rejected` after reject',
});
const Actor = (description: string) => Type.String({ description: `${description}: the user's id (UUID), or the API key's id or OAuth client_id that acted` });
const At = (description: string) => Type.String({ format: 'date-time', description });
const nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

/** The spec's approval record: the latest request of an invoice and its review. */
export const ApprovalRecord = Type.Object({
  id: Uuid,
  status: Status,
  requested_by: Actor('who asked for approval'),
  requested_at: At('when approval was asked for'),
  reviewed_by: nullable(Actor('who approved or rejected it; null while pending')),
  reviewed_at: nullable(At('when it was approved or rejected; null while pending')),
  reason: nullable(Type.String({ description: 'why it was rejected; null otherwise' })),
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
