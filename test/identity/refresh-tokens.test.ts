import { expect } from 'chai';
import { sha256Hex } from '../../src/modules/identity/credential-secrets.ts';
import { newRefreshToken, parseRefreshToken, refreshTokenExpiry } from '../../src/modules/identity/refresh-tokens.ts';

describe('refresh tokens', () => {
  it('names its family and carries 256 random bits', () => {
    const { token } = newRefreshToken('0b6f3c1e-4f7a-4b8e-9d3c-2a1b0c9d8e7f');
    expect(token).to.match(/^rt_0b6f3c1e-4f7a-4b8e-9d3c-2a1b0c9d8e7f\.[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.split('.')[1] ?? '', 'base64url')).to.have.length(32);
  });
  it('is stored only as its SHA-256', () => {
    const { token, hash } = newRefreshToken('f1');
    expect(hash).to.equal(sha256Hex(token)).and.match(/^[0-9a-f]{64}$/);
  });
  it('is never the same twice', () => expect(newRefreshToken('f1').token).not.to.equal(newRefreshToken('f1').token));
  it('parses back to its family and hash', () => {
    const { token, hash } = newRefreshToken('f1');
    expect(parseRefreshToken(token)).to.deep.equal({ familyId: 'f1', hash });
  });
  it('refuses what cannot be one of ours', () => {
    const { token } = newRefreshToken('f1');
    for (const bad of ['', 'rt_', 'rt_f1', `${token}x`, token.replace('rt_', 'xx_'), `rt_.${token.split('.')[1]}`, 'svc_abc', `${token}.x`]) {
      expect(parseRefreshToken(bad), bad).to.equal(null);
    }
  });
  it('refuses a family id that would make the token ambiguous', () => expect(() => newRefreshToken('a.b')).to.throw());
  it('expires 30 days after issue', () => expect(refreshTokenExpiry(new Date('2026-11-22T10:00:00Z'))).to.equal('2026-12-22T10:00:00.000Z'));
});
