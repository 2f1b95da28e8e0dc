import { expect } from 'chai';
import { InvalidFields } from '../shared/invalid-fields.ts';
import { canonicalJson, checkIdempotencyKey, requestFingerprint } from './key.ts';

describe('idempotency key values', () => {
  it('a key is 1 to 255 printable ASCII characters; anything else is a 422 at loc header/idempotency-key', () => {
    expect(checkIdempotencyKey('order-42/retry')).to.equal('order-42/retry');
    expect(checkIdempotencyKey('x'.repeat(255))).to.have.length(255);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'č']) {
      let caught: unknown;
      try {
        checkIdempotencyKey(bad);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(bad)).to.be.instanceOf(InvalidFields);
      expect((caught as InvalidFields).problems[0]?.loc).to.deep.equal(['header', 'idempotency-key']);
      expect(String((caught as InvalidFields).problems[0]?.input).length).to.be.at.most(64);
    }
  });

  it('the fingerprint ignores key order and whitespace, not values, params or the operation', () => {
    const base = { operation: 'createInvoice', params: { company_id: 'c' }, body: { a: 1, b: { d: [1, 2], c: 'x' } } };
    const same = requestFingerprint({ ...base, body: JSON.parse('{ "b": {"c":"x", "d":[1,2]},\n "a": 1 }') });
    expect(same).to.equal(requestFingerprint(base));
    expect(requestFingerprint({ ...base, body: { a: 2, b: base.body.b } })).not.to.equal(same);
    expect(requestFingerprint({ ...base, params: { company_id: 'd' } })).not.to.equal(same);
    expect(requestFingerprint({ ...base, operation: 'createInvoiceUnscoped' })).not.to.equal(same);
    expect(canonicalJson({ b: [1, { z: 1, a: null }], a: 'é' })).to.equal('{"a":"é","b":[1,{"a":null,"z":1}]}');
  });
});
