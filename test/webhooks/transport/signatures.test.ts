import { expect } from 'chai';
import {
  legacySignature,
  svcSignature,
  verifyLegacySignature,
  verifySvcSignature,
} from '../../../src/modules/webhooks/transport/signatures.ts';

/** The published test vectors (the README's webhook guide); checked against `openssl dgst -sha256 -hmac`. */
const VECTOR = {
  secret: 'whsec_8xK2mQ7vN4pR1tY6wZ3bC9dF5gH0jL2s',
  previousSecret: 'whsec_Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz1Xc',
  timestamp: 1700000000,
  body: '{"id":"evt_00000000000000000000000000000001","type":"test.vector","data":{"text":"Faktúra č. 2024/001 – Žilina"}}',
  svc: 't=1700000000,v1=bfa9f37f982109ac7dc19d01fadc91d692a1aaa094f49c7cf827dcb27cf1a2f2',
  svcDuringRotation:
    't=1700000000,v1=bfa9f37f982109ac7dc19d01fadc91d692a1aaa094f49c7cf827dcb27cf1a2f2,v1=0b18f280fa788ecdfdcdb23be7770850fe868e9a982b496e40726a1ea7b80e4c',
  legacy: 'sha256=f1d3bd8d1cd0dfd3db9c05c4e0668be1b7c8d1f751bf46377ec83a22b4a5f7e6',
};

describe('webhook signatures', () => {
  const { secret, previousSecret, timestamp: t, body } = VECTOR;

  describe('test vectors', () => {
    it('svc-signature', () => {
      expect(Buffer.byteLength(body, 'utf8')).to.equal(118);
      expect(svcSignature(secret, t, body)).to.equal(VECTOR.svc);
      expect(svcSignature(secret, t, Buffer.from(body, 'utf8'))).to.equal(VECTOR.svc);
    });

    it('svc-signature during a rotation overlap: the new secret first, then the previous one', () => {
      expect(svcSignature(secret, t, body, previousSecret)).to.equal(VECTOR.svcDuringRotation);
    });

    it('X-Webhook-Signature', () => {
      expect(legacySignature(secret, body)).to.equal(VECTOR.legacy);
    });
  });

  describe('svc-signature, as a consumer verifies it', () => {
    it('accepts the vector within the tolerance, either side of t', () => {
      expect(verifySvcSignature(VECTOR.svc, secret, body, t)).to.deep.equal({ ok: true });
      expect(verifySvcSignature(VECTOR.svc, secret, Buffer.from(body), t + 300)).to.deep.equal({ ok: true });
      expect(verifySvcSignature(VECTOR.svc, secret, body, t - 300)).to.deep.equal({ ok: true });
    });

    it('refuses a timestamp 301 s old or 301 s ahead', () => {
      expect(verifySvcSignature(VECTOR.svc, secret, body, t + 301)).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
      expect(verifySvcSignature(VECTOR.svc, secret, body, t - 301)).to.deep.equal({ ok: false, reason: 'timestamp_out_of_tolerance' });
    });

    it('refuses another secret, another body, another timestamp or a tampered digest', () => {
      const mismatch = { ok: false, reason: 'no_matching_signature' };
      expect(verifySvcSignature(VECTOR.svc, 'whsec_other', body, t)).to.deep.equal(mismatch);
      expect(verifySvcSignature(VECTOR.svc, secret, body.replace('Žilina', 'Zilina'), t)).to.deep.equal(mismatch);
      expect(verifySvcSignature(VECTOR.svc.replace('t=1700000000', 't=1700000001'), secret, body, t)).to.deep.equal(mismatch);
      expect(verifySvcSignature(VECTOR.svc.slice(0, -1) + '3', secret, body, t)).to.deep.equal(mismatch);
      expect(verifySvcSignature(VECTOR.svc.toUpperCase().replace('T=', 't=').replace('V1=', 'v1='), secret, body, t)).to.deep.equal(mismatch);
    });

    it('accepts any matching v1 during a rotation overlap, whichever secret the consumer holds', () => {
      expect(verifySvcSignature(VECTOR.svcDuringRotation, secret, body, t)).to.deep.equal({ ok: true });
      expect(verifySvcSignature(VECTOR.svcDuringRotation, previousSecret, body, t)).to.deep.equal({ ok: true });
      expect(verifySvcSignature(VECTOR.svcDuringRotation, 'whsec_other', body, t).ok).to.equal(false);
    });

    it('refuses a header without t or without v1', () => {
      for (const header of [undefined, '', 'v1=abc', 't=1700000000', 't=abc,v1=' + '0'.repeat(64), 'garbage']) {
        expect(verifySvcSignature(header, secret, body, t), String(header)).to.deep.equal({ ok: false, reason: 'malformed' });
      }
    });

    it('signs whole unix seconds only', () => {
      expect(() => svcSignature(secret, 1700000000.5, body)).to.throw(RangeError);
    });
  });

  describe('X-Webhook-Signature, as a consumer verifies it', () => {
    it('accepts the vector, and refuses another secret, body or digest', () => {
      expect(verifyLegacySignature(VECTOR.legacy, secret, body)).to.equal(true);
      expect(verifyLegacySignature(VECTOR.legacy, secret, Buffer.from(body))).to.equal(true);
      expect(verifyLegacySignature(VECTOR.legacy, 'whsec_other', body)).to.equal(false);
      expect(verifyLegacySignature(VECTOR.legacy, secret, body + ' ')).to.equal(false);
      expect(verifyLegacySignature(VECTOR.legacy.slice(0, -1) + '0', secret, body)).to.equal(false);
      expect(verifyLegacySignature(VECTOR.legacy.slice('sha256='.length), secret, body)).to.equal(false);
      expect(verifyLegacySignature(undefined, secret, body)).to.equal(false);
    });
  });
});
