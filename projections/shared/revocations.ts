import type { EntityManager } from 'typeorm';
import { REVOCATION_CHANNEL, type RevocationNotice } from './revocation-notice.ts';

/**
 * A batch's revocations announced in one statement, in order, from inside the projector's
 * transaction (delivered on commit), as announceRevocation does one at a time.
 */
export async function announceRevocations(tx: EntityManager, notices: readonly RevocationNotice[]): Promise<void> {
  if (notices.length === 0) return;
  await tx.query('SELECT pg_notify($1, n.payload) FROM unnest($2::text[]) WITH ORDINALITY AS n(payload, ord) ORDER BY n.ord', [
    REVOCATION_CHANNEL, notices.map((n) => JSON.stringify(n)),
  ]);
}
