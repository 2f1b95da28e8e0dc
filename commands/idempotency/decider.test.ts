import { expect } from 'chai';
import type { IdempotencyEvent, IdempotencyKeyClaimed } from '../../events/idempotency.ts';
import { specFor } from '../shared/given.ts';
import { idempotencyDecider, LEASE_MS, resumesEarlierRequest, RETENTION_MS, type IdempotencyCommand } from './decider.ts';

const given = specFor(idempotencyDecider);
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();

const claimCommand = (offsetMs: number, overrides: Partial<Extract<IdempotencyCommand, { type: 'ClaimIdempotencyKey' }>> = {}): IdempotencyCommand => ({
  type: 'ClaimIdempotencyKey', key_hash: 'k', fingerprint: 'f1', operation: 'createInvoice', seed: `seed-${offsetMs}`, claim_id: `claim-${offsetMs}`,
  request_id: `req-${offsetMs}`, at: at(offsetMs), ...overrides,
});
const claimed = (offsetMs: number, seed = `seed-${offsetMs}`, expiresAt = at(offsetMs + RETENTION_MS)): IdempotencyKeyClaimed => ({
  type: 'IdempotencyKeyClaimed',
  data: {
    key_hash: 'k', fingerprint: 'f1', operation: 'createInvoice', seed, claim_id: `claim-${offsetMs}`, request_id: `req-${offsetMs}`,
    claimed_at: at(offsetMs), expires_at: expiresAt,
  },
});
const completed = (claimId: string): IdempotencyEvent => ({
  type: 'IdempotentRequestCompleted',
  data: { claim_id: claimId, status: 201, body: { id: 'x' }, headers: { etag: '"0"' }, withheld: [], completed_at: at(100) },
});
const released = (claimId: string): IdempotencyEvent => ({ type: 'IdempotencyKeyReleased', data: { claim_id: claimId, reason: 'status 500', released_at: at(100) } });

describe('idempotency keys', () => {
  it('an unused key is claimed for the request, kept 24 hours', () =>
    given([]).when(claimCommand(0)).then([claimed(0)]));

  it('a repeat of a completed request decides nothing: its answer is replayed', () =>
    given([claimed(0), completed('claim-0')]).when(claimCommand(5_000)).then([]));

  it('the key with another body or operation is refused: idempotency_key_reused (422)', () => {
    given([claimed(0), completed('claim-0')]).when(claimCommand(5_000, { fingerprint: 'f2' })).thenThrows('idempotency_key_reused');
    given([claimed(0)]).when(claimCommand(5_000, { fingerprint: 'f2' })).thenThrows('idempotency_key_reused');
    given([claimed(0), released('claim-0')]).when(claimCommand(5_000, { fingerprint: 'f2' })).thenThrows('idempotency_key_reused');
  });

  it('a repeat while the first request runs is told to come back: idempotency_key_in_progress (409, retry_after)', () =>
    given([claimed(0)]).when(claimCommand(LEASE_MS - 1)).thenThrows('idempotency_key_in_progress', { retry_after: 1 }));

  it('a claim whose lease ran out (its request died) is taken over on the same seed and retention', () =>
    given([claimed(0)]).when(claimCommand(LEASE_MS)).then([{ ...claimed(LEASE_MS, 'seed-0', at(RETENTION_MS)) }]));

  it('a released request runs again on the same seed', () =>
    given([claimed(0), released('claim-0')]).when(claimCommand(2_000)).then([claimed(2_000, 'seed-0', at(RETENTION_MS))]));

  it('past its retention the key starts afresh, for any request, with a new seed', () => {
    given([claimed(0), completed('claim-0')]).when(claimCommand(RETENTION_MS, { fingerprint: 'f2' }))
      .then([{ ...claimed(RETENTION_MS), data: { ...claimed(RETENTION_MS).data, fingerprint: 'f2' } }]);
    given([claimed(0), completed('claim-0')]).when(claimCommand(RETENTION_MS - 1)).then([]);
  });

  it('only the claim that holds the key completes it; one taken over cannot', () => {
    const complete = (claimId: string): IdempotencyCommand => ({ type: 'CompleteIdempotentRequest', claim_id: claimId, status: 201, body: { id: 'x' }, headers: { etag: '"0"' }, withheld: [], at: at(100) });
    given([claimed(0)]).when(complete('claim-0')).then([completed('claim-0')]);
    given([claimed(0), completed('claim-0')]).when(complete('claim-0')).then([]);
    given([claimed(0), claimed(LEASE_MS, 'seed-0')]).when(complete('claim-0')).thenThrows('idempotency_claim_lost');
  });

  it('a release frees only the holding claim; anything else is a no-op', () => {
    const release = (claimId: string): IdempotencyCommand => ({ type: 'ReleaseIdempotencyKey', claim_id: claimId, reason: 'status 500', at: at(100) });
    given([claimed(0)]).when(release('claim-0')).then([released('claim-0')]);
    given([claimed(0), completed('claim-0')]).when(release('claim-0')).then([]);
    given([claimed(0), claimed(LEASE_MS, 'seed-0')]).when(release('claim-0')).then([]);
  });

  it('a claim that kept an earlier seed resumes that request', () => {
    expect(resumesEarlierRequest(claimed(LEASE_MS, 'seed-0'), 'seed-60000')).to.equal(true);
    expect(resumesEarlierRequest(claimed(0), 'seed-0')).to.equal(false);
  });
});
