// Issue 21, item 6: forged and misused tokens on the authenticated routes. The short seeded form of
// `npm run campaign -- jwt` (a sample of the router's routes, every forgery kind), and the regression
// tests of what that campaign found.
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { exportPKCS8, generateKeyPair, importPKCS8, SignJWT } from 'jose';
import { attackJwt } from '../../campaigns/jwt/index.ts';
import { SAPI_SCOPES } from '../../commands/sapi/scopes.ts';
import { loadSigningKeys, ISSUER } from '../../src/modules/identity/signing-keys.ts';
import { InvalidToken, USER_AUDIENCE } from '../../src/modules/identity/tokens.ts';
import { issueSapiAccessToken, SAPI_AUDIENCE, verifySapiAccessToken } from '../../src/modules/sapi/auth/tokens.ts';

const SEED = Number(process.env.JWT_SEED ?? 21);

describe('security: forged tokens on the router\'s authenticated routes (short jwt campaign)', function () {
  this.timeout(0);

  it(`accepts none of them (seed ${SEED}, 24 routes, every forgery kind), and fetches no jku or x5u`, async () => {
    const result = await attackJwt({ seed: SEED, maxRoutes: 24 });
    const accepted = [...result.kinds].filter(([, k]) => k.accepted > 0).map(([kind, k]) => `${kind}: ${k.examples.join('; ')}`);
    expect(accepted, `seed ${SEED}`).to.deep.equal([]);
    expect(result.canaryHits).to.equal(0);
    expect(result.controlRefused, 'routes the real credentials do not pass').to.deep.equal([]);
    expect([...result.kinds.keys()]).to.include.members([
      'alg none', 'HS256 keyed with the RSA public key (PEM)', 'HS256 keyed with the RSA public key (JWK)', 'RS256 signed with another key',
      'unknown or path-like kid', 'jku / x5u / jwk header (ignored)', 'expired', 'future nbf', 'missing exp', 'wrong iss', 'wrong aud',
      'a refresh token used as an access token', 'a SAPI token on /api/v1', 'a native token on /sapi',
    ]);
    expect([...result.kinds.values()].reduce((s, k) => s + k.tried, 0)).to.be.greaterThan(500);
  });
});

describe('security: SAPI access token audience (found by the jwt campaign)', () => {
  it('refuses a token whose aud is an array that merely contains the SAPI audience: it would pass both doors', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const ring = await loadSigningKeys({ dataDir: '/nonexistent', embedded: false, privateKeyPem: pem });
    const subject = { client_id: 'c', organisation_id: randomUUID(), company_id: randomUUID(), participant_id: '9950:sk2020000001', scopes: [...SAPI_SCOPES], plan: 'free', family_id: randomUUID() };
    // the real shape passes
    expect((await verifySapiAccessToken(ring, await issueSapiAccessToken(ring, subject))).client_id).to.equal('c');
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ sub: 'c', org: subject.organisation_id, company: subject.company_id, participant: subject.participant_id, scope: SAPI_SCOPES.join(' '), plan: 'free', sid: subject.family_id })
      .setProtectedHeader({ alg: 'RS256', kid: ring.kid, typ: 'JWT' })
      .setIssuer(ISSUER).setAudience([SAPI_AUDIENCE, USER_AUDIENCE]).setIssuedAt(now).setNotBefore(now).setExpirationTime(now + 600).setJti(randomUUID())
      .sign(await importPKCS8(pem, 'RS256'));
    const refused = await verifySapiAccessToken(ring, token).then(() => null, (e: unknown) => e);
    expect(refused).to.be.instanceOf(InvalidToken);
    expect((refused as InvalidToken).reason).to.equal('wrong_audience');
  });
});
