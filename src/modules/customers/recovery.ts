import { customerStream, type CustomerEvent } from '../../../events/customers.ts';
import type { Customer } from '../../../schemas/customers.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import type { Core } from '../../platform/core.ts';
import { domainEvent } from '../../platform/handling/read-and-fold.ts';
import { firstWrite, type Recover } from '../idempotency/index.ts';
import type { Registered } from './customers.ts';

/** A customer create resumed under its Idempotency-Key: the customer its first run registered. */
export const recoverCustomerCreate = (deps: Pick<Core, 'store'>, toBody: (registered: Registered) => Customer): Recover => async ({ actor, resourceId }) => {
  const written = firstWrite(await deps.store.readStream(customerStream(resourceId)));
  const registered = written && domainEvent<CustomerEvent>(written.first);
  if (!written || registered?.type !== 'CustomerRegistered') return null;
  const { customer_id, organisation_id, company_id, registered_at, ...fields } = registered.data;
  if (organisation_id !== actor.organisationId) return null;
  const body = toBody({ customer_id, organisation_id, company_id, fields, registered_at, version: written.version, position: written.first.position });
  const location = company_id ? `${API_PREFIX}/companies/${company_id}/customers/${customer_id}` : `${API_PREFIX}/customers/${customer_id}`;
  return { status: 201, body, headers: { etag: `"${body.version}"`, location } };
};

