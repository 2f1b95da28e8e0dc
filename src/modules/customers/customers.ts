import { customerFields, type CustomerInput } from '../../../commands/customers/customer-fields.ts';
import { customerDecider } from '../../../commands/customers/decider.ts';
import { vatIdClaimScope, vatIdReservationDecider } from '../../../commands/customers/vat-id-reservation.ts';
import { visibleTo, type RequestScope } from '../../../commands/shared/access.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { customerStream, type CustomerFields } from '../../../events/customers.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { handleCommand } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import type { Core } from '../../platform/core.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

type Deps = Pick<Core, 'store' | 'ids' | 'clock'>;

export interface Registered {
  customer_id: string;
  organisation_id: string;
  company_id: string | null;
  fields: CustomerFields;
  registered_at: string;
  version: number;
  position: Position;
}


/** Registers a directory customer: fields checked, then the customer written with its VAT ID's claim in the organisation. */
export async function registerCustomer(
  deps: Deps,
  request: { actor: Actor; requestId: string; companyId: string | null; input: CustomerInput },
): Promise<Registered> {
  const fields = customerFields(request.input);
  const customerId = deps.ids.next();
  const organisationId = request.actor.organisationId;
  const metadata = requestMetadata(request.actor, request.requestId);
  const at = deps.clock.now().toISOString();
  // the VAT ID is claimed in the organisation together with the customer's first event
  const claim = fields.vat_id
    ? { decider: vatIdReservationDecider, scope: vatIdClaimScope(organisationId), value: fields.vat_id, holderId: customerId, holderStream: customerStream }
    : undefined;
  const handled = await handleCommand(
    deps,
    customerStream(customerId),
    customerDecider,
    { type: 'RegisterCustomer', customer_id: customerId, organisation_id: organisationId, company_id: request.companyId, fields, at },
    { metadata, expected: { newStream: true }, claim },
  );
  return {
    customer_id: customerId,
    organisation_id: organisationId,
    company_id: request.companyId,
    fields,
    registered_at: at,
    version: handled.version,
    position: handled.position as Position,
  };
}

export async function archiveCustomer(
  deps: Deps,
  request: { actor: Actor; requestId: string; companyId: string | null; customerId: string; expectedVersion?: number },
): Promise<{ position: Position | null; version: number }> {
  const handled = await handleCommand(
    deps,
    customerStream(request.customerId),
    customerDecider,
    {
      type: 'ArchiveCustomer',
      customer_id: request.customerId,
      scope: { organisationId: request.actor.organisationId, companyId: request.companyId },
      at: deps.clock.now().toISOString(),
    },
    { metadata: requestMetadata(request.actor, request.requestId), expected: request.expectedVersion === undefined ? undefined : { ifMatch: request.expectedVersion } },
  );
  return { position: handled.position, version: handled.version };
}

/** Whether the caller may see the customer, from its stream (the read model may not show it yet). */
export async function customerVisibleTo(deps: Pick<Core, 'store'>, scope: RequestScope, customerId: string): Promise<boolean> {
  const { state } = await readAndFold(deps.store, customerStream(customerId), customerDecider);
  return state.status !== 'none' && visibleTo(state, scope);
}
