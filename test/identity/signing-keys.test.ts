import { generateKeyPairSync } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import { CLOCK_TOLERANCE_SECONDS, loadSigningKeys, SIGNING_KEY_FILE, SigningKeyConfigError, type SigningKeyRing } from '../../src/modules/identity/signing-keys.ts';
import { InvalidToken } from '../../src/modules/identity/invalid-token.ts';
import { issueAccessToken, OAUTH_CLIENT_AUDIENCE, USER_AUDIENCE, verifyAccessToken } from '../../src/modules/identity/tokens.ts';
import { configuredRing, secondsAgo, tempDir } from './support.ts';

const subject = { subject: 'u1', organisation_id: 'o1', role: 'admin', plan: 'Team Business', token_use: 'user' } as const;

async function refusal(load: Promise<SigningKeyRing>): Promise<unknown> {
  try {
    await load;
  } catch (error) {
    return error;
  }
  throw new Error('expected the key ring to be refused');
}

describe('signing keys', () => {
  describe('embedded default', () => {
    it('generates a key on first start and keeps it as a JWK readable only by the owner (0600)', async () => {
      const dataDir = await tempDir();
      const ring = await loadSigningKeys({ dataDir, embedded: true });
      const file = path.join(dataDir, SIGNING_KEY_FILE);
      expect((await stat(file)).mode & 0o777).to.equal(0o600);
      const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      expect(stored).to.include({ kty: 'RSA', kid: ring.kid, alg: 'RS256', use: 'sig' });
      expect(stored.d).to.be.a('string');
      expect(Buffer.from(stored.n ?? '', 'base64url').length * 8).to.equal(2048);
    });

    it('names the key by its RFC 7638 thumbprint', async () => {
      const ring = await loadSigningKeys({ dataDir: await tempDir(), embedded: true });
      const [key] = ring.jwks().keys;
      expect(ring.kid).to.equal(await calculateJwkThumbprint({ kty: 'RSA', n: key?.n ?? '', e: key?.e ?? '' }));
    });

    it('loads the same key on a later start, so tokens survive a restart', async () => {
      const dataDir = await tempDir();
      const first = await loadSigningKeys({ dataDir, embedded: true });
      const token = await issueAccessToken(first, subject);
      const second = await loadSigningKeys({ dataDir, embedded: true });
      expect(second.kid).to.equal(first.kid);
      expect((await verifyAccessToken(second, token)).sub).to.equal('u1');
    });

    it('refuses a key file that holds no private RSA key', async () => {
      const dataDir = await tempDir();
      await writeFile(path.join(dataDir, SIGNING_KEY_FILE), '{"kty":"RSA"}', { mode: 0o600 });
      expect(await refusal(loadSigningKeys({ dataDir, embedded: true }))).to.be.instanceOf(SigningKeyConfigError);
    });
  });

  describe('configured key', () => {
    it('refuses to start outside the embedded default without a configured key', async () => {
      const error = await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: '  ' }));
      expect(error).to.be.instanceOf(SigningKeyConfigError).with.property('message').that.matches(/no JWT signing key/);
    });

    it('signs with the configured PEM under the configured kid, writing nothing to disk', async () => {
      const dataDir = await tempDir();
      const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
      const ring = await loadSigningKeys({ dataDir, embedded: true, privateKeyPem: await exportPKCS8(privateKey), keyId: '2026-11' });
      expect(ring.kid).to.equal('2026-11');
      expect(await stat(path.join(dataDir, SIGNING_KEY_FILE)).catch(() => null)).to.equal(null);
    });

    it('defaults the kid to the thumbprint', async () => {
      const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
      const ring = await loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: await exportPKCS8(privateKey) });
      expect(ring.kid).to.match(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses a PEM that is not a PKCS#8 RSA private key', async () => {
      const error = await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----' }));
      expect(error).to.be.instanceOf(SigningKeyConfigError);
    });

    it('refuses an RSA key shorter than 2048 bits', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      const error = await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: pem }));
      expect(error).to.be.instanceOf(SigningKeyConfigError);
    });
  });

  describe('rotation', () => {
    it('a previous key still verifies after rotation, and new tokens carry the new kid', async () => {
      const old = await configuredRing('k-2026-10');
      const oldToken = await issueAccessToken(old.ring, subject);
      const current = await configuredRing('k-2026-11', JSON.stringify(old.ring.jwks()));
      expect((await verifyAccessToken(current.ring, oldToken)).sub).to.equal('u1');
      const newToken = await issueAccessToken(current.ring, subject);
      expect(JSON.parse(Buffer.from(newToken.split('.')[0] ?? '', 'base64url').toString())).to.include({ kid: 'k-2026-11' });
      expect(current.ring.jwks().keys.map((k) => k.kid)).to.deep.equal(['k-2026-11', 'k-2026-10']);
    });

    it('publishes only the public members of a previous key given with its private parts', async () => {
      const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
      const privateJwk = { ...(await exportJWK(privateKey)), kid: 'pasted-with-private-parts' };
      const ring = await loadSigningKeys({ dataDir: await tempDir(), embedded: true, previousPublicKeys: JSON.stringify({ keys: [privateJwk] }) });
      expect(ring.jwks().keys.map((k) => k.kid)).to.include('pasted-with-private-parts');
      for (const key of ring.jwks().keys) expect(key).to.have.all.keys('kty', 'n', 'e', 'kid', 'alg', 'use');
    });

    it('refuses previous keys that are not a JWK set', async () => {
      expect(await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: true, previousPublicKeys: '[' }))).to.be.instanceOf(SigningKeyConfigError);
      expect(await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: true, previousPublicKeys: '[]' }))).to.be.instanceOf(SigningKeyConfigError);
    });

    it('refuses a previous key that claims the current kid but is a different key', async () => {
      const other = await configuredRing('same');
      const { pem } = await configuredRing('unused');
      const error = await refusal(loadSigningKeys({ dataDir: await tempDir(), embedded: false, privateKeyPem: pem, keyId: 'same', previousPublicKeys: JSON.stringify(other.ring.jwks()) }));
      expect(error).to.be.instanceOf(SigningKeyConfigError);
    });
  });
  describe('a token verified before', () => {
    /** RSA verifications made by `run` (WebCrypto, which jose uses) */
    async function verifications(run: () => Promise<unknown>): Promise<number> {
      const subtle = globalThis.crypto.subtle;
      const original = subtle.verify.bind(subtle);
      let count = 0;
      subtle.verify = (async (...args: Parameters<SubtleCrypto['verify']>) => (count++, original(...args))) as SubtleCrypto['verify'];
      try {
        await run();
      } finally {
        subtle.verify = original;
      }
      return count;
    }
    const reason = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: unknown) => (error instanceof InvalidToken ? error.reason : String(error)));

    it('is verified again without its signature being checked again, with the time checks of the first', async () => {
      const { ring } = await configuredRing('k-memo');
      const issued = new Date();
      const token = await issueAccessToken(ring, subject, 900, issued);
      expect(await verifications(() => verifyAccessToken(ring, token, issued))).to.equal(1);
      expect(await verifications(async () => {
        for (let i = 0; i < 5; i++) expect((await verifyAccessToken(ring, token, issued)).sub).to.equal('u1');
      })).to.equal(0);
      // expiry and not-before as jwtVerify decides them, tolerance included
      expect(await reason(verifyAccessToken(ring, token, secondsAgo(-(900 + CLOCK_TOLERANCE_SECONDS - 1), issued)))).to.equal('accepted');
      expect(await reason(verifyAccessToken(ring, token, secondsAgo(-(900 + CLOCK_TOLERANCE_SECONDS), issued)))).to.equal('expired');
      expect(await reason(verifyAccessToken(ring, token, secondsAgo(CLOCK_TOLERANCE_SECONDS + 1, issued)))).to.equal('not_yet_valid');
      expect(await reason(verifyAccessToken(ring, token, issued))).to.equal('accepted');
    });

    it('is still refused for another audience, and a changed copy of it still fails its signature', async () => {
      const { ring } = await configuredRing('k-memo');
      const token = await issueAccessToken(ring, subject);
      await verifyAccessToken(ring, token);
      expect(await reason(ring.verify(token, { audience: 'another-audience', typ: 'JWT' }))).to.equal('wrong_audience');
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      expect(await reason(verifyAccessToken(ring, `${header}.${payload}.${flipped}`))).to.equal('bad_signature');
    });

    it('a copy of the claims is returned: changing it changes nothing remembered', async () => {
      const { ring } = await configuredRing('k-memo');
      const token = await issueAccessToken(ring, subject);
      (await ring.verify(token, { audience: [USER_AUDIENCE, OAUTH_CLIENT_AUDIENCE], typ: 'JWT' })).sub = 'someone else';
      expect((await verifyAccessToken(ring, token)).sub).to.equal('u1');
    });
  });
});
