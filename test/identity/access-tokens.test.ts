import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { exportSPKI, importJWK, jwtVerify, SignJWT, type CryptoKey } from 'jose';
import { DomainError } from '../../commands/shared/domain-error.ts';
import { issueLoginChallenge, LOGIN_CHALLENGE_AUDIENCE } from '../../src/modules/identity/login-challenge.ts';
import type { SigningKeyRing } from '../../src/modules/identity/signing-keys.ts';
import {
  InvalidToken,
  ISSUER,
  issueAccessToken,
  jwks,
  OAUTH_CLIENT_AUDIENCE,
  USER_AUDIENCE,
  verifyAccessToken,
  type AccessTokenSubject,
  type InvalidTokenReason,
} from '../../src/modules/identity/tokens.ts';
import { base64url, configuredRing, secondsAgo } from './support.ts';

const user: AccessTokenSubject = { subject: 'u1', organisation_id: 'o1', role: 'accountant', plan: 'Solo Lite', token_use: 'user', session_id: 'f1' };

async function refusedBecause(ring: SigningKeyRing, token: string, now?: Date): Promise<InvalidTokenReason> {
  try {
    await verifyAccessToken(ring, token, now);
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidToken);
    return (error as InvalidToken).reason;
  }
  throw new Error('expected the token to be refused');
}

const parts = (token: string) => token.split('.') as [string, string, string];
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

describe('access tokens', () => {
  let ring: SigningKeyRing;
  let privateKey: CryptoKey;
  before(async () => ({ ring, privateKey } = await configuredRing('k1')));

  /** What someone holding our private key could sign: for claims the ring itself never produces. */
  const forged = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT', ...header }).sign(privateKey);
  const validClaims = () => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: ISSUER, aud: USER_AUDIENCE, sub: 'u1', iat: now, nbf: now, exp: now + 900, jti: 'j1', org: 'o1', role: 'admin', plan: 'Solo Free', token_use: 'user' };
  };

  it('issues an RS256 JWS naming its key, with the spec claims, verifiable for 15 minutes', async () => {
    const token = await issueAccessToken(ring, user);
    expect(decode(parts(token)[0])).to.deep.equal({ alg: 'RS256', kid: 'k1', typ: 'JWT' });
    const claims = await verifyAccessToken(ring, token);
    expect(claims).to.include({ iss: ISSUER, aud: USER_AUDIENCE, sub: 'u1', org: 'o1', role: 'accountant', plan: 'Solo Lite', token_use: 'user', sid: 'f1' });
    expect(claims.exp - claims.iat).to.equal(900);
    expect(claims.nbf).to.equal(claims.iat);
    expect(claims.jti).to.match(/^[0-9a-f-]{36}$/);
  });

  it('an OAuth client token carries its own audience and its scopes', async () => {
    const token = await issueAccessToken(ring, { subject: 'c1', organisation_id: 'o1', role: 'admin', plan: 'Team Business', token_use: 'oauth_client', scopes: ['invoices:read', 'validate:only'] });
    expect(await verifyAccessToken(ring, token)).to.include({ aud: OAUTH_CLIENT_AUDIENCE, token_use: 'oauth_client', scope: 'invoices:read validate:only' });
  });

  it('a refusal is a 401 invalid_token DomainError', async () => {
    const error = await verifyAccessToken(ring, 'nonsense').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DomainError).and.include({ code: 'invalid_token' });
  });

  describe('refuses', () => {
    it("a token with alg 'none' and an empty signature", async () => {
      const [, payload] = parts(await issueAccessToken(ring, user));
      const none = `${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`;
      expect(await refusedBecause(ring, none)).to.equal('wrong_algorithm');
      const noneWithKid = `${base64url({ alg: 'none', kid: 'k1', typ: 'JWT' })}.${payload}.`;
      expect(await refusedBecause(ring, noneWithKid)).to.equal('wrong_algorithm');
    });

    it('HS256 signed with the RSA public key (PEM bytes) as the HMAC secret', async () => {
      const publicPem = await exportSPKI((await importJWK({ ...ring.jwks().keys[0] }, 'RS256', { extractable: true })) as CryptoKey);
      const token = await new SignJWT(validClaims()).setProtectedHeader({ alg: 'HS256', kid: 'k1', typ: 'JWT' }).sign(Buffer.from(publicPem));
      expect(await refusedBecause(ring, token)).to.equal('wrong_algorithm');
    });

    it('HS256 signed with the published JWK (JSON bytes) as the HMAC secret', async () => {
      const secret = Buffer.from(JSON.stringify(jwks(ring).keys[0]));
      // built by hand too, in case a library refused to produce it
      const signingInput = `${base64url({ alg: 'HS256', kid: 'k1', typ: 'JWT' })}.${base64url(validClaims())}`;
      const token = `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
      expect(await refusedBecause(ring, token)).to.equal('wrong_algorithm');
    });

    it('an expired token, beyond the 30 s tolerance', async () => {
      const token = await issueAccessToken(ring, user, 900, secondsAgo(900 + 31));
      expect(await refusedBecause(ring, token)).to.equal('expired');
    });

    it('but not one expired within the tolerance', async () => {
      const token = await issueAccessToken(ring, user, 900, secondsAgo(900 + 20));
      expect((await verifyAccessToken(ring, token)).sub).to.equal('u1');
    });

    it('a token not yet valid (nbf in the future beyond the tolerance)', async () => {
      const token = await issueAccessToken(ring, user, 900, secondsAgo(-60));
      expect(await refusedBecause(ring, token)).to.equal('not_yet_valid');
      const slightlyAhead = await issueAccessToken(ring, user, 900, secondsAgo(-20));
      expect((await verifyAccessToken(ring, slightlyAhead)).sub).to.equal('u1');
    });

    it('a token signed by another RSA key under our kid', async () => {
      const other = await configuredRing('k1');
      expect(await refusedBecause(ring, await issueAccessToken(other.ring, user))).to.equal('bad_signature');
    });

    it('a token whose payload was altered after signing', async () => {
      const [header, , signature] = parts(await issueAccessToken(ring, user));
      const promoted = `${header}.${base64url({ ...validClaims(), role: 'admin' })}.${signature}`;
      expect(await refusedBecause(ring, promoted)).to.equal('bad_signature');
    });

    it('a token naming a key the ring does not hold, or none', async () => {
      expect(await refusedBecause(ring, await forged(validClaims(), { kid: 'k0' }))).to.equal('unknown_key');
      expect(await refusedBecause(ring, await forged(validClaims(), { kid: undefined }))).to.equal('unknown_key');
    });

    it('a login challenge presented as an access token', async () => {
      const challenge = await issueLoginChallenge(ring, { user_id: 'u1', organisation_id: 'o1' });
      expect(await refusedBecause(ring, challenge)).to.equal('wrong_type');
    });

    it('a token for another audience, even with the access token typ', async () => {
      const token = await ring.sign({ sub: 'u1', aud: LOGIN_CHALLENGE_AUDIENCE, org: 'o1', role: 'admin', plan: 'Solo Free', token_use: 'user' }, 900);
      expect(await refusedBecause(ring, token)).to.equal('wrong_audience');
    });

    it('a token of another issuer', async () => {
      expect(await refusedBecause(ring, await forged({ ...validClaims(), iss: 'someone-else' }))).to.equal('wrong_issuer');
    });

    it('a token whose token_use does not match its audience', async () => {
      expect(await refusedBecause(ring, await forged({ ...validClaims(), token_use: 'oauth_client' }))).to.equal('malformed');
    });

    it('a token with an unknown role or without its organisation', async () => {
      expect(await refusedBecause(ring, await forged({ ...validClaims(), role: 'superuser' }))).to.equal('malformed');
      const { org: _org, ...withoutOrg } = validClaims();
      expect(await refusedBecause(ring, await forged(withoutOrg))).to.equal('malformed');
    });

    it('a token without an expiry', async () => {
      const { exp: _exp, ...forever } = validClaims();
      expect(await refusedBecause(ring, await forged(forever))).to.equal('malformed');
    });

    it('a token signed by our own key to live longer than the spec\'s 900 s, however little is left of it', async () => {
      expect(await refusedBecause(ring, await issueAccessToken(ring, user, 901))).to.equal('lifetime_too_long');
      expect(await refusedBecause(ring, await issueAccessToken(ring, user, 86_400, secondsAgo(86_000)))).to.equal('lifetime_too_long');
      const now = Math.floor(Date.now() / 1000);
      // an iat pushed back makes the token no younger: exp - iat is what counts
      expect(await refusedBecause(ring, await forged({ ...validClaims(), iat: now - 600, nbf: now, exp: now + 600 }))).to.equal('lifetime_too_long');
      expect((await verifyAccessToken(ring, await issueAccessToken(ring, user, 900))).sub).to.equal('u1');
    });

    it('something that is not a JWS at all', async () => {
      for (const token of ['', 'a.b', 'a.b.c', `${base64url({ alg: 'RS256', kid: 'k1' })}.!!!.x`]) {
        expect(await refusedBecause(ring, token)).to.equal('malformed');
      }
    });
  });

  describe('JWKS', () => {
    it('publishes each key with kid, alg RS256 and use sig, and no private member', async () => {
      const old = await configuredRing('k0');
      const rotated = (await configuredRing('k1', JSON.stringify(old.ring.jwks()))).ring;
      const published = jwks(rotated);
      expect(published.keys).to.have.length(2);
      for (const key of published.keys) {
        expect(key).to.include({ kty: 'RSA', alg: 'RS256', use: 'sig' });
        expect(key).to.have.property('kid');
        for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key).not.to.have.property(member);
      }
      expect(JSON.stringify(published)).not.to.match(/"(d|p|q|dp|dq|qi)":/);
    });

    it('holds the public key of the private key that signs', async () => {
      const token = await issueAccessToken(ring, user);
      const [key] = jwks(ring).keys;
      const { payload } = await jwtVerify(token, await importJWK({ ...key }, 'RS256'), { algorithms: ['RS256'] });
      expect(payload.sub).to.equal('u1');
    });
  });
});
