import type { SignInLockedOut } from '../../../../events/identity.ts';
import type { SapiClientLockedOut } from '../../../../events/sapi-clients.ts';
import { companyStream, type CompanyRegistered } from '../../../../events/tenancy.ts';
import type { EventStore, RecordedEvent } from '../../../platform/eventstore/port.ts';
import { domainEvent } from '../../../platform/handling/read-and-fold.ts';
import { sapiClientLockedOutEvent, userLockedOutEvent, type WebhookEventOut } from './envelopes.ts';

/** The lock-outs that raise a webhook: a SAPI-SK client's (on its stream) and a user's sign-in (on the security log). */
const LOCKOUT_SOURCES = ['SapiClientLockedOut', 'SignInLockedOut'] as const;

export const isLockoutSource = (type: string): boolean => (LOCKOUT_SOURCES as readonly string[]).includes(type);

/**
 * sapi_client.locked_out or user.locked_out. A client's lock carries its company, whose workspace its
 * first event fixes for good (workspace endpoints must hear their companies' clients).
 */
export async function lockoutEvents(store: Pick<EventStore, 'readStream'>, source: RecordedEvent): Promise<WebhookEventOut[]> {
  if (source.type === 'SignInLockedOut') return [userLockedOutEvent(source.id, domainEvent<SignInLockedOut>(source).data)];
  if (source.type !== 'SapiClientLockedOut') return [];
  const lock = domainEvent<SapiClientLockedOut>(source).data;
  const [registered] = await store.readStream(companyStream(lock.company_id));
  const workspaceId = registered?.type === 'CompanyRegistered' ? domainEvent<CompanyRegistered>(registered).data.workspace_id : null;
  return [sapiClientLockedOutEvent(source.id, lock, workspaceId)];
}
