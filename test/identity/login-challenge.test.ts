import { expect } from 'chai';
import { issueLoginChallenge, verifyLoginChallenge } from '../../src/modules/identity/login-challenge.ts';
import type { SigningKeyRing } from '../../src/modules/identity/signing-keys.ts';
import { InvalidToken, issueAccessToken } from '../../src/modules/identity/tokens.ts';
import { configuredRing, secondsAgo } from './support.ts';

async function refused(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).to.be.instanceOf(InvalidToken);
  return (error as InvalidToken).reason;
}

describe('login challenge', () => {
  let ring: SigningKeyRing;
  before(async () => ({ ring } = await configuredRing('k1')));
  const user = { user_id: 'u1', organisation_id: 'o1' };

  it('names the user and lives 5 minutes', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const challenge = await verifyLoginChallenge(ring, await issueLoginChallenge(ring, user, now), now);
    expect(challenge).to.include(user);
    expect(challenge.expires_at.toISOString()).to.equal('2026-11-22T10:05:00.000Z');
    expect(challenge.challenge_id).to.be.a('string');
  });
  it('has its own typ, so it is never mistaken for an access token', async () => {
    const token = await issueLoginChallenge(ring, user);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).to.include({ typ: 'login-challenge+jwt' });
  });
  it('refuses an expired challenge', async () =>
    expect(await refused(verifyLoginChallenge(ring, await issueLoginChallenge(ring, user, secondsAgo(300 + 31))))).to.equal('expired'));
  it('refuses an access token presented as a challenge', async () => {
    const access = await issueAccessToken(ring, { subject: 'u1', organisation_id: 'o1', role: 'admin', plan: 'Solo Free', token_use: 'user' });
    expect(await refused(verifyLoginChallenge(ring, access))).to.equal('wrong_type');
  });
  it('refuses a challenge signed by another key', async () => {
    const other = await configuredRing('k1');
    expect(await refused(verifyLoginChallenge(ring, await issueLoginChallenge(other.ring, user)))).to.equal('bad_signature');
  });
});
