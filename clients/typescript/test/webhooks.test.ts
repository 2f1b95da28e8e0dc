import { expect } from 'chai';
import { legacySignature, svcSignature } from '../../../src/modules/webhooks/transport/signatures.ts';
import { verifyWebhook } from '../src/index.ts';

/** verifyWebhook against deliveries signed by the service's own signer (the same code its delivery worker runs). */
describe('SDK verifyWebhook', () => {
  const secret = 'whsec_current0123456789abcdef';
  const previous = 'whsec_previous0123456789abcdef';
  const body = '{"id":"evt_1","type":"invoice.delivered","data":{"invoice_id":"00000000-0000-4000-8000-000000000001"}}';
  const t = 1_790_000_000;
  const at = (unix: number) => new Date(unix * 1000);
  const signed = (over: string = body, signers: { secret: string; previous?: string; t?: number } = { secret }) => ({
    'svc-signature': svcSignature(signers.secret, signers.t ?? t, over, signers.previous),
    'x-webhook-signature': legacySignature(signers.secret, over),
  });

  it('accepts svc-signature over the raw body, as a string, as bytes, and from a Headers object', () => {
    expect(verifyWebhook(body, signed(), [secret], { now: at(t) })).to.deep.equal({ ok: true, scheme: 'svc-signature', timestamp: t });
    expect(verifyWebhook(Buffer.from(body, 'utf8'), signed(), [secret], { now: at(t) }).ok).to.equal(true);
    expect(verifyWebhook(body, new Headers(signed()), [secret], { now: t * 1000 }).ok).to.equal(true);
  });

  it('refuses a tampered body, a wrong secret and a malformed header', () => {
    expect(verifyWebhook(body.replace('evt_1', 'evt_2'), signed(), [secret], { now: at(t) })).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhook(body, signed(), ['whsec_other'], { now: at(t) })).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhook(body, { 'svc-signature': 'v1=abc' }, [secret], { now: at(t) })).to.deep.equal({ ok: false, reason: 'malformed' });
  });

  it('refuses a timestamp more than 300 s away either way, and takes another tolerance', () => {
    expect(verifyWebhook(body, signed(), [secret], { now: at(t + 300) }).ok).to.equal(true);
    expect(verifyWebhook(body, signed(), [secret], { now: at(t + 301) })).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhook(body, signed(), [secret], { now: at(t - 301) })).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhook(body, signed(), [secret], { now: at(t + 301), toleranceSeconds: 600 }).ok).to.equal(true);
  });

  it('during a rotation overlap accepts a consumer holding either secret, and a consumer holding both', () => {
    const overlap = signed(body, { secret, previous });
    expect(verifyWebhook(body, overlap, [secret], { now: at(t) }).ok).to.equal(true);
    expect(verifyWebhook(body, overlap, [previous], { now: at(t) }).ok).to.equal(true);
    // after the overlap the service signs with the new secret alone: a consumer holding both still verifies
    expect(verifyWebhook(body, signed(), [previous, secret], { now: at(t) }).ok).to.equal(true);
    expect(verifyWebhook(body, signed(), [previous], { now: at(t) }).ok).to.equal(false);
  });

  it('falls back to the legacy X-Webhook-Signature only when svc-signature is absent, and not when told', () => {
    const legacyOnly = { 'X-Webhook-Signature': signed()['x-webhook-signature'] };
    expect(verifyWebhook(body, legacyOnly, [secret])).to.deep.equal({ ok: true, scheme: 'legacy', timestamp: null });
    expect(verifyWebhook(body + ' ', legacyOnly, [secret])).to.deep.equal({ ok: false, reason: 'no_matching_signature' });
    expect(verifyWebhook(body, legacyOnly, [secret], { allowLegacy: false })).to.deep.equal({ ok: false, reason: 'missing_signature' });
    // a stale svc-signature is not rescued by a valid legacy one
    expect(verifyWebhook(body, signed(), [secret], { now: at(t + 3600) }).ok).to.equal(false);
    expect(verifyWebhook(body, {}, [secret])).to.deep.equal({ ok: false, reason: 'missing_signature' });
  });
});
