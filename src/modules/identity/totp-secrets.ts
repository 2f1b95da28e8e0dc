import type { KeptTotpSecret } from '../../../commands/identity/user-credentials.ts';
import { sealedSecrets, type SealedSecrets, type SecretKeySource } from '../../platform/secret-box.ts';

/**
 * TOTP secrets at rest (issue 37): a code can only be checked with the secret itself, so it is kept
 * sealed (src/platform/secret-box.ts, AES-256-GCM) under TOTP_SECRET_KEY, as webhook secrets are
 * under WEBHOOK_SECRET_KEY: on the embedded default a key made once and kept in
 * DATA_DIR/totp-secret.key (0600); on a database of its own the key must be configured, or the
 * service does not start (main.ts).
 */
export type TotpSecrets = SealedSecrets;

const TOTP_KEY = { what: 'TOTP secret', variable: 'TOTP_SECRET_KEY', file: 'totp-secret.key' };

export const totpSecrets = (source: SecretKeySource): TotpSecrets => sealedSecrets(TOTP_KEY, source);

/** The secret in clear, for the moment a code is checked against it; never kept. */
export async function totpSecretInClear(secrets: TotpSecrets, kept: KeptTotpSecret): Promise<string> {
  return 'sealed' in kept ? (await secrets.box()).open(kept.sealed) : kept.plaintext;
}
