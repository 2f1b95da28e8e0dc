import { Secret, TOTP } from 'otpauth';

/** What authenticator apps assume; other parameters are silently ignored by several of them. */
const ALGORITHM = 'SHA1';
const DIGITS = 6;
const PERIOD_SECONDS = 30;
/** ±1 step forgives a phone clock up to 30 s off and a code typed as it rolls over. */
const WINDOW = 1;

/** 160 random bits (RFC 4226's recommended length), base32 as authenticator apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secret: string, issuer = '', account = ''): TOTP {
  return new TOTP({ issuer, label: account, algorithm: ALGORITHM, digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function totpUri({ issuer, account, secret }: { issuer: string; account: string; secret: string }): string {
  return totp(secret, issuer, account).toString();
}

/**
 * The time step (30 s counter) the code matched, or null. Callers record the step and refuse a
 * later code of the same or an earlier step, so an overheard code cannot be replayed.
 */
export function verifyTotp(secret: string, code: string, at: Date = new Date()): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const timestamp = at.getTime();
  const delta = totp(secret).validate({ token, timestamp, window: WINDOW });
  return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp }) + delta;
}

/** The code for a moment: for tests and for showing a check value, never sent to users. */
export function totpCode(secret: string, at: Date = new Date()): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}
