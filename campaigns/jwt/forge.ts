// The forged and misused tokens of the jwt campaign (issue 21, item 6). Each is built from a real
// token's claims, so the only thing wrong with it is the forgery it stands for.
import { createHmac } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';

export interface Forgery {
  kind: string;
  token: string;
}

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const decodePart = (token: string, i: number) => JSON.parse(Buffer.from(token.split('.')[i] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
export const claimsOf = (token: string) => decodePart(token, 1) as JWTPayload;
export const headerOf = (token: string) => decodePart(token, 0);

/** A JWS by hand: any header, any payload, HS256 with any secret (jose refuses some of these keys, an attacker does not). */
function hs256(header: Record<string, unknown>, payload: JWTPayload, secret: string | Buffer): string {
  const input = `${b64url(JSON.stringify({ ...header, alg: 'HS256' }))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

function unsigned(header: Record<string, unknown>, payload: JWTPayload, alg = 'none'): string {
  return `${b64url(JSON.stringify({ ...header, alg }))}.${b64url(JSON.stringify(payload))}.`;
}

export interface ForgeInput {
  /** the service's public signing key, as the JWKS endpoint serves it */
  publicJwk: JWK & { kid: string };
  /** the service's private key (the campaign configured it), to sign tokens that are wrong only in their claims */
  privateJwk: JWK;
  /** a real native access token and a real SAPI access token, whose claims the forgeries copy */
  native: string;
  sapi: string;
  /** where a jku / x5u header points: the canary server, which counts any fetch */
  canary: string;
}

/** Every forgery against one door: `token` is the real token of that door, `other` the other door's. */
export async function forgeries(input: ForgeInput, door: 'native' | 'sapi', extra: Forgery[] = []): Promise<Forgery[]> {
  const real = door === 'native' ? input.native : input.sapi;
  const claims = claimsOf(real);
  const header = headerOf(real);
  const kid = input.publicJwk.kid;
  const pem = await exportSPKI((await importJWK(input.publicJwk, 'RS256')) as CryptoKey);
  const { publicKey: otherPublic, privateKey: otherPrivate } = await generateKeyPair('RS256', { extractable: true });
  const otherJwk = { ...(await exportJWK(otherPublic)), kid: 'attacker', alg: 'RS256', use: 'sig' };
  const realKey = (await importJWK(input.privateJwk, 'RS256')) as CryptoKey;
  const now = Math.floor(Date.now() / 1000);
  const rs256 = (key: CryptoKey, h: Record<string, unknown>, payload: JWTPayload) =>
    new SignJWT(payload).setProtectedHeader({ ...h, alg: 'RS256' } as { alg: string }).sign(key);
  const fresh = { ...claims, iat: now, nbf: now, exp: now + 600 };
  const out: Forgery[] = [
    { kind: 'alg none', token: unsigned(header, fresh) },
    { kind: 'alg none', token: unsigned(header, fresh, 'NONE') },
    { kind: 'alg none', token: `${unsigned(header, fresh)}${b64url('x')}` },
    { kind: 'HS256 keyed with the RSA public key (PEM)', token: hs256(header, fresh, pem) },
    { kind: 'HS256 keyed with the RSA public key (PEM)', token: hs256(header, fresh, pem.trim()) },
    { kind: 'HS256 keyed with the RSA public key (JWK)', token: hs256(header, fresh, JSON.stringify(input.publicJwk)) },
    { kind: 'HS256 keyed with the RSA public key (JWK)', token: hs256(header, fresh, Buffer.from(input.publicJwk.n ?? '', 'base64url')) },
    { kind: 'RS256 signed with another key', token: await rs256(otherPrivate, header, fresh) },
    { kind: 'unknown or path-like kid', token: await rs256(otherPrivate, { ...header, kid: 'no-such-key' }, fresh) },
    { kind: 'unknown or path-like kid', token: await rs256(otherPrivate, { ...header, kid: '../../../../../../dev/null' }, fresh) },
    { kind: 'unknown or path-like kid', token: hs256({ ...header, kid: '../../../../../../dev/null' }, fresh, '') },
    { kind: 'unknown or path-like kid', token: await rs256(otherPrivate, { ...header, kid: "x' UNION SELECT 'k" }, fresh) },
    { kind: 'unknown or path-like kid', token: await rs256(otherPrivate, { ...header, kid: `file://${'/etc/hostname'}` }, fresh) },
    { kind: 'jku / x5u / jwk header (ignored)', token: await rs256(otherPrivate, { ...header, kid: 'attacker', jku: `${input.canary}/jwks.json` }, fresh) },
    { kind: 'jku / x5u / jwk header (ignored)', token: await rs256(otherPrivate, { ...header, kid, jku: `${input.canary}/jwks.json` }, fresh) },
    { kind: 'jku / x5u / jwk header (ignored)', token: await rs256(otherPrivate, { ...header, kid: 'attacker', x5u: `${input.canary}/cert.pem` }, fresh) },
    { kind: 'jku / x5u / jwk header (ignored)', token: await rs256(otherPrivate, { ...header, kid: 'attacker', jwk: otherJwk }, fresh) },
    { kind: 'jku / x5u / jwk header (ignored)', token: await rs256(otherPrivate, { ...header, kid, jwk: otherJwk }, fresh) },
    { kind: 'expired', token: await rs256(realKey, header, { ...claims, iat: now - 3600, nbf: now - 3600, exp: now - 3000 }) },
    { kind: 'future nbf', token: await rs256(realKey, header, { ...claims, iat: now, nbf: now + 3600, exp: now + 600 }) },
    { kind: 'missing exp', token: await rs256(realKey, header, (({ exp: _exp, ...rest }) => ({ ...rest, iat: now, nbf: now }))(claims)) },
    { kind: 'wrong iss', token: await rs256(realKey, header, { ...fresh, iss: 'https://evil.example' }) },
    { kind: 'wrong iss', token: await rs256(realKey, header, (({ iss: _iss, ...rest }) => rest)(fresh)) },
    { kind: 'wrong aud', token: await rs256(realKey, header, { ...fresh, aud: 'sk-einvoicing:someone-else' }) },
    { kind: 'wrong aud', token: await rs256(realKey, header, { ...fresh, aud: [String(claims.aud), 'x'] }) },
    { kind: 'wrong aud', token: await rs256(realKey, header, (({ aud: _aud, ...rest }) => rest)(fresh)) },
    { kind: door === 'native' ? 'a SAPI token on /api/v1' : 'a native token on /sapi', token: door === 'native' ? input.sapi : input.native },
    ...extra,
  ];
  return out;
}
