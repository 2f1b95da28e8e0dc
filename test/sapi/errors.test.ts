import { expect } from 'chai';
import { SAPI_ERRORS, SapiRefusal } from '../../commands/sapi/errors.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { PlatformError, RequestValidationError, TooManyRequests, type FailedRequest } from '../../src/platform/http/index.ts';
import { sapiErrors, sapiStatusOf } from '../../src/doors/sapi/errors.ts';

const request: FailedRequest = { requestId: 'req-1', method: 'POST', path: '/sapi/document/send', header: () => '' };
const render = (error: unknown) => {
  const rendered = sapiErrors.render(error, request);
  if (!rendered) throw new Error('not rendered');
  return rendered as { status: number; body: { error: Record<string, unknown> }; headers?: Record<string, string> };
};

describe('SAPI-SK error envelope', () => {
  it('gives every code of the table its status, category and retryable', () => {
    for (const [code, kind] of Object.entries(SAPI_ERRORS)) {
      const rendered = render(new SapiRefusal(code as keyof typeof SAPI_ERRORS, 'why', [{ field: 'f', issue: 'i' }]));
      expect(rendered.status, code).to.equal(sapiStatusOf[code as keyof typeof SAPI_ERRORS]);
      expect(rendered.body.error).to.deep.equal({ category: kind.category, code, message: 'why', retryable: kind.retryable, correlation_id: 'req-1', details: [{ field: 'f', issue: 'i' }] });
      expect(rendered.headers?.['X-Correlation-Id']).to.equal('req-1');
    }
  });

  it('keeps the spec\'s given statuses: AUTH-001 401, DOC-NOT-FOUND 404, QUOTA 402, DISABLED 503 retryable', () => {
    const statusOf = (code: keyof typeof SAPI_ERRORS) => render(new SapiRefusal(code, 'why')).status;
    expect(statusOf('SAPI-AUTH-001')).to.equal(401);
    expect(statusOf('SAPI-DOC-NOT-FOUND')).to.equal(404);
    expect(statusOf('SAPI-QUOTA-INVOICE-LIMIT')).to.equal(402);
    expect(SAPI_ERRORS['SAPI-QUOTA-INVOICE-LIMIT']).to.include({ category: 'QUOTA' });
    expect(statusOf('SAPI-DISABLED')).to.equal(503);
    expect(SAPI_ERRORS['SAPI-DISABLED']).to.include({ retryable: true });
  });

  it('answers the platform\'s own refusals in SAPI words', () => {
    expect(render(new PlatformError('malformed_json', 400, 'bad JSON')).body.error).to.include({ code: 'SAPI-VAL-001', category: 'VALIDATION' });
    expect(render(new PlatformError('not_authenticated', 401, 'no')).body.error).to.include({ code: 'SAPI-AUTH-001' });
    expect(render(new PlatformError('not_found', 404, 'no')).status).to.equal(404);
    expect(render(new PlatformError('method_not_allowed', 405, 'no')).body.error).to.include({ code: 'SAPI-NOT-FOUND' });
    expect(render(new PlatformError('payload_too_large', 413, 'big')).status).to.equal(413);
  });

  it('lists schema failures as details with dotted fields', () => {
    const rendered = render(new RequestValidationError([{ loc: ['body', 'metadata', 'documentId'], msg: 'Field required', type: 'missing' }, { loc: ['query', 'limit'], msg: 'too big', type: 'maximum' }]));
    expect(rendered.status).to.equal(400);
    expect(rendered.body.error.details).to.deep.equal([{ field: 'body.metadata.documentId', issue: 'Field required' }, { field: 'query.limit', issue: 'too big' }]);
  });

  it('answers a 429 in the envelope with Retry-After, not the native rate-limit body', () => {
    const rendered = render(new TooManyRequests(7, { limit: 60, plan: 'Starter' }));
    expect(rendered.status).to.equal(429);
    expect(rendered.headers?.['Retry-After']).to.equal('7');
    expect(rendered.body.error).to.include({ code: 'SAPI-RATE-LIMIT', category: 'TEMPORARY', retryable: true });
  });

  it('maps native refusals raised by shared code, and hides internals of the unknown', () => {
    expect(render(new DomainError('invalid_token', 'x')).body.error).to.include({ code: 'SAPI-AUTH-001' });
    expect(render(new DomainError('usage_limit_exceeded', 'x')).body.error).to.include({ code: 'SAPI-QUOTA-INVOICE-LIMIT' });
    expect(sapiErrors.render(new Error('boom'), request)).to.equal(undefined);
    const internal = sapiErrors.internal(request) as { status: number; body: { error: Record<string, unknown> } };
    expect(internal.status).to.equal(500);
    expect(internal.body.error).to.include({ code: 'SAPI-INTERNAL', retryable: true, message: 'internal error; quote the correlation id to support' });
  });
});
