import { Type, type Static } from '@sinclair/typebox';

/**
 * Every error body of the native API carries the request's id at its top level, beside what the
 * spec defines (`detail`, or the 429's own fields): the only place all its shapes can take it.
 * Optional in the schema because a body is checked before it leaves, the id added as it does.
 */
export const RequestIdField = Type.Optional(Type.String({ description: 'the request\'s id, also the X-Request-Id header: quote it to support; it finds the request\'s log line' }));

/** Domain error body: clients branch on detail.error; other keys depend on the error. */
export const ErrorBody = Type.Object(
  {
    detail: Type.Object(
      {
        error: Type.String({ description: 'machine-readable error code' }),
        message: Type.Optional(Type.String({ description: 'human-readable explanation' })),
      },
      { additionalProperties: true },
    ),
    request_id: RequestIdField,
  },
  { title: 'ErrorBody', description: 'Domain error: `detail.error` is the code to branch on.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** One request-validation problem, shaped like pydantic's error entries. */
export const ValidationIssue = Type.Object(
  {
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
      description: "where: first 'body', 'query', 'path' or 'header', then keys and array indices",
    }),
    msg: Type.String(),
    type: Type.String({ description: 'problem kind, e.g. missing, string_too_long, extra_forbidden' }),
    input: Type.Optional(Type.Unknown({ description: 'the offending value' })),
    ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { title: 'ValidationIssue' },
);
export type ValidationIssue = Static<typeof ValidationIssue>;

/** 422 request-validation body: one entry per problem. */
export const ValidationErrorBody = Type.Object(
  { detail: Type.Array(ValidationIssue), request_id: RequestIdField },
  { title: 'ValidationErrorBody', description: 'Request validation failed (path, query or body).' },
);
export type ValidationErrorBody = Static<typeof ValidationErrorBody>;

const RuleFinding = Type.Object({ rule: Type.String(), message: Type.String(), severity: Type.String() }, { additionalProperties: true });

/**
 * The invoice-validation flavour of 422 (spec, 422 flavours 2): business-rule findings with rule ids
 * and severities. errors holds only what refuses the invoice; warnings, an extension, what does not.
 */
export const InvoiceRulesBody = Type.Object(
  {
    detail: Type.Object(
      {
        message: Type.String(),
        errors: Type.Array(RuleFinding, { description: 'what refuses the invoice: one entry per finding, severity `fatal`' }),
        warnings: Type.Optional(Type.Array(RuleFinding, {
          description: 'Extension: the warnings the content also gets (severity `warning`, as validate lists them); they refuse nothing',
        })),
      },
      { additionalProperties: true },
    ),
    request_id: RequestIdField,
  },
  { title: 'InvoiceRulesBody', description: 'The invoice breaks business rules: errors[] lists what refuses it, warnings[] what does not.' },
);

/** The spec's 429 (Rate limiting): top level, not under `detail`. */
export const RateLimitedBody = Type.Object(
  {
    error: Type.Literal('rate_limit_exceeded'),
    retry_after: Type.Integer({ minimum: 1, description: 'seconds; also the Retry-After header' }),
    limit: Type.Integer({ description: 'the plan\'s requests per minute' }),
    plan: Type.Union([Type.String(), Type.Null()]),
    upgrade_url: Type.String({ description: 'where to change the plan (the deployment\'s UPGRADE_URL)' }),
    request_id: RequestIdField,
  },
  { $id: 'RateLimited', title: 'RateLimited', description: 'Too many requests for the caller\'s plan: wait Retry-After seconds.' },
);
