import { randomUUID } from 'node:crypto';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import { keptSecretFile } from '../../platform/db/data-dir-secret.ts';
import { InvalidToken, type InvalidTokenReason } from './invalid-token.ts';

/** Who signs every token this service issues; verification refuses any other. */
export const ISSUER = 'sk-einvoicing';
export const ALGORITHM = 'RS256';
/** Slack for clocks of other instances; small, because it lengthens every token's life. */
export const CLOCK_TOLERANCE_SECONDS = 30;
export const SIGNING_KEY_FILE = 'jwt-signing-key.json';
const MIN_RSA_BITS = 2048;

/** A verification key as published: only the public RSA members, never d, p, q, dp, dq, qi. */
export interface PublicSigningJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: typeof ALGORITHM;
  use: 'sig';
}

/** Claims a caller chooses. iss, iat, nbf, exp and jti belong to the ring and are always set by it. */
type SignableClaims = { sub: string; aud: string } & Record<string, unknown>;

export interface SigningKeyRing {
  /** kid of the key that signs new tokens; the ring also holds previous keys for verification */
  readonly kid: string;
  /** A compact JWS `{alg: RS256, kid, typ}` (typ defaults to JWT). */
  sign(claims: SignableClaims, lifetimeSeconds: number, options?: { typ?: string; now?: Date }): Promise<string>;
  /**
   * Verifies with the algorithm pinned to RS256, the key chosen by kid among the ring's keys, and
   * iss, aud, typ, exp and nbf checked; throws InvalidToken with the reason.
   */
  verify(token: string, options: { audience: string | readonly string[]; typ: string; now?: Date }): Promise<JWTPayload>;
  jwks(): { keys: PublicSigningJwk[] };
}

interface SigningKeyOptions {
  /** where the embedded default keeps its generated key */
  dataDir: string;
  /** the self-contained default: may generate and keep its own key */
  embedded: boolean;
  /** PKCS#8 PEM of the RSA private key that signs */
  privateKeyPem?: string;
  /** its kid; defaults to the RFC 7638 thumbprint */
  keyId?: string;
  /** JWK set (JSON) of earlier public keys still accepted while their tokens live out a rotation */
  previousPublicKeys?: string;
}

/** A deployment whose signing keys are missing or unusable: the service must not start. */
export class SigningKeyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningKeyConfigError';
  }
}

interface VerificationKey {
  jwk: PublicSigningJwk;
  key: CryptoKey;
}

/**
 * Configured key first; otherwise the embedded default generates one on first start and keeps it
 * (0600) in the data directory, so tokens survive a restart. A non-embedded deployment without a
 * configured key is refused: instances with their own generated keys could not verify each other.
 */
export async function loadSigningKeys(options: SigningKeyOptions): Promise<SigningKeyRing> {
  const previous = options.previousPublicKeys?.trim() ? await previousKeys(options.previousPublicKeys) : [];
  if (options.privateKeyPem?.trim()) return ring(await configuredKey(options.privateKeyPem, options.keyId?.trim() || undefined), previous);
  if (!options.embedded) {
    throw new SigningKeyConfigError('no JWT signing key is configured: give a PKCS#8 PEM RSA private key and its kid');
  }
  return ring(await embeddedKey(options.dataDir), previous);
}

interface SigningKey extends VerificationKey {
  privateKey: CryptoKey;
}

/** How many verified tokens a ring remembers (the oldest go first); each is a few hundred bytes. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * The time checks of jwtVerify (nbf and exp, with the clock tolerance), for a token whose signature
 * and other claims were verified before: nothing else about it can change, as a ring's keys never do.
 */
function stillInTime(payload: JWTPayload, now: Date): JWTPayload {
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof payload.nbf === 'number' && payload.nbf > seconds + CLOCK_TOLERANCE_SECONDS) throw new InvalidToken('not_yet_valid');
  if (typeof payload.exp === 'number' && payload.exp <= seconds - CLOCK_TOLERANCE_SECONDS) throw new InvalidToken('expired');
  return payload;
}

function ring(current: SigningKey, previous: VerificationKey[]): SigningKeyRing {
  // Tokens this ring verified, by exact text and the audience and typ asked for: a repeat needs only
  // the time checks, not another RSA verification (most of a small SAPI request's CPU). Sound because
  // a ring's keys are fixed when it is made; revocation is never the ring's business (the gates and
  // the revocation list run on every request whatever this says). A refused token is never kept.
  const verified = new Map<string, JWTPayload>();
  const remember = (memoKey: string, payload: JWTPayload) => {
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value as string);
    verified.set(memoKey, payload);
  };
  const recall = (memoKey: string, now: Date): JWTPayload | null => {
    const known = verified.get(memoKey);
    if (!known) return null;
    try {
      return { ...stillInTime(known, now) };
    } catch (error) {
      verified.delete(memoKey);
      throw error;
    }
  };
  const byKid = new Map<string, VerificationKey>([[current.jwk.kid, current]]);
  for (const key of previous) {
    const known = byKid.get(key.jwk.kid);
    if (known && known.jwk.n !== key.jwk.n) throw new SigningKeyConfigError(`previous key ${key.jwk.kid} has the kid of a different key`);
    if (!known) byKid.set(key.jwk.kid, key);
  }
  return {
    kid: current.jwk.kid,
    async sign(claims, lifetimeSeconds, { typ = 'JWT', now = new Date() } = {}) {
      if (!Number.isInteger(lifetimeSeconds) || lifetimeSeconds <= 0) throw new Error('token lifetime must be a positive whole number of seconds');
      const iat = Math.floor(now.getTime() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ALGORITHM, kid: current.jwk.kid, typ })
        .setIssuer(ISSUER)
        .setIssuedAt(iat)
        .setNotBefore(iat)
        .setExpirationTime(iat + lifetimeSeconds)
        .setJti(randomUUID())
        .sign(current.privateKey);
    },
    async verify(token, { audience, typ, now }) {
      const memoKey = `${JSON.stringify([typ, audience])}${token}`;
      const known = recall(memoKey, now ?? new Date());
      if (known) return known;
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            if (header.alg !== ALGORITHM) throw new InvalidToken('wrong_algorithm');
            const key = header.kid === undefined ? undefined : byKid.get(header.kid);
            if (!key) throw new InvalidToken('unknown_key');
            return key.key;
          },
          {
            algorithms: [ALGORITHM],
            issuer: ISSUER,
            audience: typeof audience === 'string' ? audience : [...audience],
            typ,
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            requiredClaims: ['sub', 'iat', 'nbf', 'exp', 'jti'],
            ...(now ? { currentDate: now } : {}),
          },
        );
        remember(memoKey, payload);
        return { ...payload };
      } catch (error) {
        throw new InvalidToken(reasonOf(error));
      }
    },
    jwks: () => ({ keys: [...byKid.values()].map((k) => ({ ...k.jwk })) }),
  };
}

function reasonOf(error: unknown): InvalidTokenReason {
  if (error instanceof InvalidToken) return error.reason;
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'wrong_algorithm';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad_signature';
  if (error instanceof errors.JWTClaimValidationFailed && error.reason === 'check_failed') {
    const byClaim: Record<string, InvalidTokenReason> = { nbf: 'not_yet_valid', iss: 'wrong_issuer', aud: 'wrong_audience', typ: 'wrong_type' };
    return byClaim[error.claim] ?? 'malformed';
  }
  return 'malformed';
}

/** The public half as published; built from an allowlist, so no private member can slip through. */
async function publicJwk(jwk: JWK, kid?: string): Promise<PublicSigningJwk> {
  if (jwk.kty !== 'RSA' || typeof jwk.n !== 'string' || typeof jwk.e !== 'string') throw new SigningKeyConfigError('a JWT signing key must be an RSA key');
  if (Buffer.from(jwk.n, 'base64url').length * 8 < MIN_RSA_BITS) throw new SigningKeyConfigError(`a JWT signing key must have at least ${MIN_RSA_BITS} bits`);
  const members = { kty: 'RSA' as const, n: jwk.n, e: jwk.e };
  return { ...members, kid: kid ?? (await calculateJwkThumbprint(members, 'sha256')), alg: ALGORITHM, use: 'sig' };
}

async function verificationKey(jwk: PublicSigningJwk): Promise<CryptoKey> {
  return (await importJWK({ kty: jwk.kty, n: jwk.n, e: jwk.e }, ALGORITHM)) as CryptoKey;
}

async function signingKey(privateJwk: JWK, kid?: string): Promise<SigningKey> {
  const jwk = await publicJwk(privateJwk, kid);
  const { kty, n, e, d, p, q, dp, dq, qi } = privateJwk;
  const privateKey = (await importJWK({ kty, n, e, d, p, q, dp, dq, qi }, ALGORITHM)) as CryptoKey;
  return { jwk, key: await verificationKey(jwk), privateKey };
}

async function configuredKey(pem: string, kid: string | undefined): Promise<SigningKey> {
  let privateJwk: JWK;
  try {
    privateJwk = await exportJWK(await importPKCS8(pem.trim(), ALGORITHM, { extractable: true }));
  } catch (cause) {
    throw new SigningKeyConfigError(`the configured JWT signing key is not a PKCS#8 PEM RSA private key (${(cause as Error).message})`);
  }
  return signingKey(privateJwk, kid);
}

async function embeddedKey(dataDir: string): Promise<SigningKey> {
  const text = await keptSecretFile(dataDir, SIGNING_KEY_FILE, async () => {
    const { privateKey } = await generateKeyPair(ALGORITHM, { modulusLength: MIN_RSA_BITS, extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const { kid } = await publicJwk(privateJwk);
    return `${JSON.stringify({ ...privateJwk, kid, alg: ALGORITHM, use: 'sig' })}\n`;
  });
  return storedKey(text, path.join(dataDir, SIGNING_KEY_FILE));
}

function storedKey(text: string, file: string): Promise<SigningKey> {
  let jwk: JWK | null = null;
  try {
    jwk = JSON.parse(text) as JWK;
  } catch {
    // reported below
  }
  if (jwk?.kty !== 'RSA' || typeof jwk.d !== 'string') throw new SigningKeyConfigError(`${file} does not hold an RSA private JWK`);
  return signingKey(jwk, typeof jwk.kid === 'string' ? jwk.kid : undefined);
}

async function previousKeys(json: string): Promise<VerificationKey[]> {
  let set: unknown;
  try {
    set = JSON.parse(json);
  } catch {
    throw new SigningKeyConfigError('the previous public keys are not valid JSON');
  }
  const keys = (set as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new SigningKeyConfigError('the previous public keys must be a JWK set: {"keys": [...]}');
  return Promise.all(
    (keys as JWK[]).map(async (key) => {
      if ((key.alg !== undefined && key.alg !== ALGORITHM) || (key.use !== undefined && key.use !== 'sig')) {
        throw new SigningKeyConfigError(`previous key ${key.kid ?? '(no kid)'} is not an RS256 signing key`);
      }
      const jwk = await publicJwk(key, typeof key.kid === 'string' ? key.kid : undefined);
      return { jwk, key: await verificationKey(jwk) };
    }),
  );
}

/**
 * The key ring as services get it: loaded on first use, so CLI commands need no key; the service
 * loads it at start (a missing key outside the embedded default stops it there).
 */
export interface SigningKeys {
  ring(): Promise<SigningKeyRing>;
}
