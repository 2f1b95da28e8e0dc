import type { TotpEnrolmentStarted, TotpSecretIssued } from '../../../events/identity.ts';
import type { StoredEventRewrite } from '../../platform/eventstore/rewrite.ts';
import type { TotpSecrets } from './totp-secrets.ts';

/**
 * The migration of TOTP secrets stored before they were sealed (issue 37): each TotpEnrolmentStarted,
 * whose payload holds the secret in plaintext, becomes the TotpSecretIssued the service writes today,
 * the same secret sealed under the TOTP key, at the same id, stream, revision and position (the
 * user's enrolment, pending or enabled, keeps working with the same authenticator app). Once per
 * store, at start; the metadata says it was rewritten. Nothing else holds the secret: no read model
 * projects it, and the enrolment answer is not kept.
 */
export function sealTotpSecrets(secrets: TotpSecrets): StoredEventRewrite {
  return {
    name: 'seal-totp-secrets',
    type: 'TotpEnrolmentStarted',
    async rewrite(event) {
      const { user_id, secret, started_at } = event.data as TotpEnrolmentStarted['data'];
      const data: TotpSecretIssued['data'] = { user_id, secret_ciphertext: (await secrets.box()).seal(secret), issued_at: started_at };
      return { type: 'TotpSecretIssued', data, metadata: { ...event.metadata, rewrittenFrom: 'TotpEnrolmentStarted' } };
    },
  };
}
