import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { expect } from 'chai';
import { sha256Hex } from '../../src/modules/identity/credential-secrets.ts';
import { matchesStoredHash, sameSecret } from '../../src/modules/identity/compare.ts';

/** Records every timingSafeEqual call made while `run` runs, through the real function. */
function spyOnTimingSafeEqual(run: () => void): Array<[Buffer, Buffer]> {
  const calls: Array<[Buffer, Buffer]> = [];
  const original = crypto.timingSafeEqual;
  crypto.timingSafeEqual = (a, b) => {
    calls.push([Buffer.from(a as Uint8Array), Buffer.from(b as Uint8Array)]);
    return original(a, b);
  };
  syncBuiltinESMExports(); // named `import { timingSafeEqual }` bindings follow the patched default export
  try {
    run();
  } finally {
    crypto.timingSafeEqual = original;
    syncBuiltinESMExports();
  }
  return calls;
}

describe('secret comparison', () => {
  it('tells equal and different secrets apart, of any lengths', () => {
    expect(sameSecret('whsec_abc', 'whsec_abc')).to.equal(true);
    expect(sameSecret('whsec_abc', 'whsec_abd')).to.equal(false);
    expect(sameSecret('short', 'a much longer secret')).to.equal(false);
    expect(sameSecret('', '')).to.equal(true);
  });

  it('compares in constant time, over fixed-length SHA-256 digests', () => {
    const calls = spyOnTimingSafeEqual(() => {
      sameSecret('x', 'a much longer secret than x');
      sameSecret('same', 'same');
    });
    expect(calls).to.have.length(2);
    for (const [a, b] of calls) {
      expect(a).to.have.length(32);
      expect(b).to.have.length(32);
    }
    expect(calls[0]?.[0].toString('hex')).to.equal(sha256Hex('x'));
  });

  it('checks a presented secret against its stored SHA-256 in constant time', () => {
    const stored = sha256Hex('client-secret');
    const calls = spyOnTimingSafeEqual(() => {
      expect(matchesStoredHash('client-secret', stored)).to.equal(true);
      expect(matchesStoredHash('client-secreT', stored)).to.equal(false);
    });
    expect(calls).to.have.length(2);
    expect(matchesStoredHash('client-secret', 'not-hex')).to.equal(false);
  });
});
