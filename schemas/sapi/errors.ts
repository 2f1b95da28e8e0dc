import { Type, type Static } from '@sinclair/typebox';

/** sapi-sk.md, Errors: the envelope of every /sapi refusal (unlike the native `{detail}`). */
export const SapiErrorBody = Type.Object(
  {
    error: Type.Object({
      category: Type.Union(['AUTH', 'VALIDATION', 'PROCESSING', 'QUOTA', 'TEMPORARY', 'PERMANENT'].map((c) => Type.Literal(c))),
      code: Type.String({ description: 'SAPI-…: the code to branch on (docs/sapi.md lists each with its status)' }),
      message: Type.String(),
      retryable: Type.Boolean({ description: 'retry only when true' }),
      correlation_id: Type.String({ description: 'also sent as the X-Correlation-Id header; quote it to support' }),
      details: Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }, { additionalProperties: true }), {
        description: 'a malformed JSON body\'s entry (field `body`, issue `malformed_json`) adds line, column, offset and reason',
      }),
      request_id: Type.Optional(Type.String({ description: 'the request\'s id: the same value as correlation_id and the X-Request-Id header (added on every answer as it leaves)' })),
    }, { additionalProperties: true }),
  },
  { $id: 'SapiError', title: 'SapiError', description: 'Every /sapi error, malformed JSON and unknown routes included.' },
);
export type SapiErrorBody = Static<typeof SapiErrorBody>;
