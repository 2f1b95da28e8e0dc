import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvoiceRuleViolation } from '../../commands/invoices/rule-violation.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { DOMAIN_ERROR_CODES, isUnavailable, type DomainErrorCode } from '../../commands/shared/error-codes.ts';
import { nativeErrors, nativeStatusOf, UNMAPPED_REFUSAL_STATUS } from '../../src/doors/native/errors.ts';
import type { FailedRequest } from '../../src/platform/http/index.ts';
import { sapiCodeOf, sapiErrors, sapiStatusOf } from '../../src/doors/sapi/errors.ts';
import { WrongExpectedRevision } from '../../src/platform/eventstore/port.ts';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/**
 * Every code thrown in commands/ and src/, read from the source: a DomainError, StandingRefusal or NotFound made
 * with a literal code, a DomainError subclass's literal `super(code`, and the participant lookup's
 * codes (its route passes them on). The types make a code outside DOMAIN_ERROR_CODES a compile
 * error; this catches what a cast would let through, and a declared code nothing throws any more.
 */
function thrownCodes(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const note = (code: string, file: string) => found.set(code, [...(found.get(code) ?? []), file]);
  for (const file of [...sources('commands'), ...sources('src')]) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const m of text.matchAll(/new (?:DomainError|StandingRefusal|NotFound|ParticipantLookupError)\(\s*'([^']+)'/g)) note(m[1]!, file);
    if (/extends DomainError\b(?!<)/.test(text)) for (const m of text.matchAll(/super\(\s*'([^']+)'/g)) note(m[1]!, file);
  }
  return found;
}

const request = (warnings: unknown[] = []): FailedRequest => ({
  requestId: 'req-1', method: 'PUT', path: '/x', header: () => '', warn: (fields) => warnings.push(fields),
});
const declared = Object.keys(DOMAIN_ERROR_CODES).sort() as DomainErrorCode[];

describe('domain error codes: declared once, each mapped by each front door', () => {
  it('every code thrown in commands/ and src/ is declared, and every declared code is thrown somewhere', () => {
    const thrown = thrownCodes();
    expect(thrown.size, 'the scan finds the codes at all').to.be.greaterThan(60);
    const undeclared = [...thrown].filter(([code]) => !Object.hasOwn(DOMAIN_ERROR_CODES, code)).map(([code, files]) => `${code} (${files.join(', ')})`);
    expect(undeclared, 'thrown but not in commands/shared/error-codes.ts').to.deep.equal([]);
    expect(declared.filter((code) => !thrown.has(code)), 'declared but thrown nowhere').to.deep.equal([]);
  });

  it('the native door has a status for exactly the declared codes, and answers each with it in {detail: {error}}', () => {
    expect(Object.keys(nativeStatusOf).sort()).to.deep.equal(declared);
    for (const code of declared) {
      const rendered = nativeErrors.render(new DomainError(code, 'why', { n: 1 }), request());
      expect(rendered?.status, code).to.equal(nativeStatusOf[code]);
      expect(rendered?.status, code).to.be.within(400, 599);
      expect(rendered?.body, code).to.deep.equal({ detail: { error: code, message: 'why', n: 1 } });
    }
  });

  it('the SAPI-SK door has a SAPI code for exactly the declared codes, and answers each in its envelope', () => {
    expect(Object.keys(sapiCodeOf).sort()).to.deep.equal(declared);
    for (const code of declared) {
      const rendered = sapiErrors.render(new DomainError(code, 'why'), request()) as { status: number; body: { error: { code: string; message: string } } };
      expect(rendered.body.error, code).to.include({ code: sapiCodeOf[code], message: 'why' });
      expect(rendered.status, code).to.equal(sapiStatusOf[sapiCodeOf[code]]);
    }
  });

  it('keeps the spec\'s statuses (native-api.md, Errors) and the ones the unit tests of the refusals used to assert', () => {
    expect(nativeStatusOf).to.include({
      invoice_not_found: 404, invalid_status: 409, invoice_number_conflict: 409, locked_credit_note: 409, not_creditable: 409,
      usage_limit_exceeded: 402, peppol_delivery_failed: 502, fs_submission_failed: 502, credit_limit_exceeded: 422,
      webhook_url_not_allowed: 422, feature_not_available: 403, if_match_required: 428,
      invalid_credentials: 401, weak_password: 422, totp_not_pending: 409, invalid_totp_code: 401, name_required: 422,
      invalid_refresh_token: 401, malformed_request: 400, insufficient_role: 403, company_not_found: 404, credit_note_not_found: 404,
      company_registry_unavailable: 502, api_key_required: 401, invalid_token: 401, read_model_behind: 503, user_exists: 409, export_too_large: 422,
    });
  });

  it('a code is `unavailable` exactly when the native door answers it 5xx (bulk import retries those rather than reporting a row)', () => {
    for (const code of declared) expect(isUnavailable(code), code).to.equal(nativeStatusOf[code] >= 500);
  });

  it('a code outside the tables is still a refusal on both doors, never a 500, and is logged as a warning', () => {
    const stray = new DomainError('not_declared_anywhere' as DomainErrorCode, 'why');
    const warnings: unknown[] = [];
    expect(nativeErrors.render(stray, request(warnings))).to.deep.include({ status: UNMAPPED_REFUSAL_STATUS, body: { detail: { error: 'not_declared_anywhere', message: 'why' } } });
    const sapi = sapiErrors.render(stray, request(warnings)) as { status: number; body: { error: { code: string; details: unknown[] } } };
    expect([sapi.status, sapi.body.error.code, sapi.body.error.details]).to.deep.equal([400, 'SAPI-VAL-001', [{ field: '', issue: 'not_declared_anywhere' }]]);
    expect(warnings).to.deep.equal([{ code: 'not_declared_anywhere' }, { code: 'not_declared_anywhere' }]);
  });

  it('an invoice refused by business rules: 422 whose errors[] holds only what refuses it, and its warnings apart', () => {
    const fatal = { rule: 'PEPPOL-EN16931-R010', message: 'no buyer address', severity: 'fatal', field: 'buyer.peppol_id' } as const;
    const warning = { rule: 'SK-R-005', message: 'no street', severity: 'warning', field: 'buyer.street' } as const;
    const rendered = nativeErrors.render(new InvoiceRuleViolation([warning, fatal]), request());
    expect(rendered).to.deep.equal({ status: 422, body: { detail: { message: 'the invoice breaks 1 business rule(s)', errors: [fatal], warnings: [warning] } } });
  });

  it('a race lost after the retries is a retryable SAPI-UNAVAILABLE under /sapi, not a 500', () => {
    const rendered = sapiErrors.render(new WrongExpectedRevision('sapi_document-1', 3, 4), request()) as { status: number; headers?: Record<string, string>; body: { error: { code: string; category: string; retryable: boolean } } };
    expect([rendered.status, rendered.body.error.code, rendered.body.error.category, rendered.body.error.retryable]).to.deep.equal([503, 'SAPI-UNAVAILABLE', 'TEMPORARY', true]);
    expect(rendered.headers?.['Retry-After']).to.equal('1');
  });
});
