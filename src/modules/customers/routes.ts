import { Type } from '@sinclair/typebox';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { CustomerRow } from '../../../projections/customer-directory/entity.ts';
import { getCustomer, listCustomers, searchCustomers, type CustomerScope } from '../../../projections/customer-directory/queries.ts';
import { findCompany } from '../../../projections/tenancy/queries.ts';
import { ErrorBody, Page, Uuid } from '../../../schemas/common/index.ts';
import { Customer, CustomerCreate, CustomerListQuery, CustomerListRow, CustomerMatch, CustomerSearchQuery } from '../../../schemas/customers.ts';
import { customerStream } from '../../../events/customers.ts';
import { archiveCustomer, customerVisibleTo, registerCustomer, type Registered } from './customers.ts';
import { readCurrent } from '../../platform/readmodel/current-read.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import type { Core } from '../../platform/core.ts';
import { API_PREFIX } from '../../doors/native/prefix.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import { idempotent } from '../idempotency/index.ts';
import { recoverCustomerCreate } from './recovery.ts';
import { listPage, pageRequest } from '../../doors/native/list-page.ts';
import { ETAG_HEADER, LOCATION_HEADER, ifMatchHeader } from '../../platform/http/index.ts';

const iso = (d: Date) => d.toISOString();

function customerBody(row: CustomerRow): Customer {
  return {
    id: row.id, company_id: row.company_id, name: row.name, vat_id: row.vat_id, ico: row.ico, dic: row.dic, email: row.email,
    phone: row.phone, street: row.street, city: row.city, postal_code: row.postal_code, country_code: row.country_code,
    peppol_id: row.peppol_id, note: row.note, is_active: row.is_active, created_at: iso(row.created_at), updated_at: iso(row.updated_at),
    version: row.version,
  };
}

/** The customer as its registration decided it: the answer when read models lag past the bound. */
function registeredBody(r: Registered): Customer {
  return { id: r.customer_id, company_id: r.company_id, ...r.fields, is_active: true, created_at: r.registered_at, updated_at: r.registered_at, version: r.version };
}

const withVersion = (body: Customer) => ({ etag: `"${body.version}"` });
const CompanyParams = Type.Object({ company_id: Uuid });
const CustomerParams = Type.Object({ company_id: Uuid, customer_id: Uuid });
const notFound = { description: '`company_not_found` / `customer_not_found` (also for another organisation’s, or another company’s)', schema: ErrorBody };

export function customerRoutes(deps: Core): Route[] {
  const { readModels, projections, config } = deps;

  /** A company of the caller's organisation, as the scope of its customers; 404 otherwise. */
  async function companyScope(actor: Actor, companyId: string): Promise<CustomerScope> {
    const company = await findCompany(readModels, actor.organisationId, companyId);
    if (!company) throw new DomainError('company_not_found', 'company not found');
    return { organisationId: actor.organisationId, companyId };
  }

  async function readAfter(position: Position | null, scope: CustomerScope, id: string): Promise<CustomerRow | null> {
    if (position) await projections.caughtUp(position, config.readYourWritesTimeoutMs, ['customer-directory']);
    return getCustomer(readModels, scope, id);
  }

  async function create(actor: Actor, requestId: string, scope: CustomerScope, input: CustomerCreate) {
    const registered = await registerCustomer(deps, { actor, requestId, companyId: scope.companyId, input });
    const row = await readAfter(registered.position, scope, registered.customer_id);
    const body = row ? customerBody(row) : registeredBody(registered);
    const location = scope.companyId
      ? `${API_PREFIX}/companies/${scope.companyId}/customers/${body.id}`
      : `${API_PREFIX}/customers/${body.id}`;
    return { status: 201, body, headers: { ...withVersion(body), location } };
  }

  const created = {
    201: { description: 'the customer, with its id', schema: Customer, headers: [ETAG_HEADER, LOCATION_HEADER] },
    409: { description: '`customer_vat_id_conflict`: the VAT ID belongs to another customer of the organisation (its id in detail.customer_id)', schema: ErrorBody },
  };

  return [
    idempotent(deps, defineRoute({
      method: 'POST', path: '/companies/{company_id}/customers', operationId: 'createCustomer', tags: ['customers'], auth: 'api', permission: 'customers.write',
      summary: 'Add a customer to the directory',
      description: 'VAT ID unique in the organisation (409). Identifiers are checked by their Slovak rules: IČO check digit, DIČ 10 digits, IČ DPH = SK + DIČ divisible by 11.',
      params: CompanyParams, body: CustomerCreate,
      responses: { ...created, 404: notFound },
      handle: async ({ params, body, actor, requestId }) => create(actor, requestId, await companyScope(actor, params.company_id), body),
    }), { recover: recoverCustomerCreate(deps, registeredBody) }),
    idempotent(deps, defineRoute({
      method: 'POST', path: '/customers', operationId: 'createOrganisationCustomer', tags: ['customers'], auth: 'api', permission: 'customers.write',
      summary: 'Add an organisation-wide customer (visible to every company)',
      body: CustomerCreate,
      responses: created,
      handle: async ({ body, actor, requestId }) => create(actor, requestId, { organisationId: actor.organisationId, companyId: null }, body),
    }), { recover: recoverCustomerCreate(deps, registeredBody) }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/customers', operationId: 'listCustomers', tags: ['customers'], auth: 'api', permission: 'customers.read',
      summary: 'List customers: the company’s and the organisation-wide ones',
      params: CompanyParams, query: CustomerListQuery,
      responses: { 200: { description: 'one page', schema: Page(CustomerListRow) }, 404: notFound },
      async handle({ params, query, actor }) {
        const scope = await companyScope(actor, params.company_id);
        const found = await listCustomers(readModels, scope, { ...pageRequest(query), q: query.q, sort: query.sort });
        return {
          status: 200,
          body: listPage(found, query, (r) => ({
            id: r.id, name: r.name, vat_id: r.vat_id, ico: r.ico, city: r.city, country_code: r.country_code, peppol_id: r.peppol_id,
            is_active: r.is_active, created_at: iso(r.created_at), updated_at: iso(r.updated_at),
          })),
        };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/customers/search', operationId: 'searchCustomers', tags: ['customers'], auth: 'api', permission: 'customers.read',
      summary: 'Find up to 10 active customers by VAT ID, IČO or name fragment',
      params: CompanyParams, query: CustomerSearchQuery,
      responses: { 200: { description: 'matches, exact identifier matches first', schema: Type.Array(CustomerMatch) }, 404: notFound },
      async handle({ params, query, actor }) {
        const matches = await searchCustomers(readModels, await companyScope(actor, params.company_id), query.q);
        return { status: 200, body: matches.map((r) => ({ id: r.id, name: r.name, vat_id: r.vat_id, ico: r.ico, city: r.city, peppol_id: r.peppol_id })) };
      },
    }),
    defineRoute({
      method: 'GET', path: '/companies/{company_id}/customers/{customer_id}', operationId: 'getCustomer', tags: ['customers'], auth: 'api', permission: 'customers.read',
      summary: 'Read one customer', params: CustomerParams,
      responses: {
        200: { description: 'the customer; ETag carries its version', schema: Customer, headers: [ETAG_HEADER] },
        404: notFound,
        503: { description: '`read_model_behind`: the customer\'s last change is stored but not yet shown within the read-your-writes bound (another instance catching up); retry after retry_after', schema: ErrorBody },
      },
      async handle({ params, actor }) {
        const scope = await companyScope(actor, params.company_id);
        // as it stands on its stream, whichever instance wrote it (src/platform/readmodel/current-read.ts)
        const row = await readCurrent(deps, {
          stream: customerStream(params.customer_id), projectors: ['customer-directory'], resource: 'customer',
          read: () => getCustomer(readModels, scope, params.customer_id),
          versionOf: (found) => found?.version,
          visible: () => customerVisibleTo(deps, scope, params.customer_id),
        });
        if (!row) throw new DomainError('customer_not_found', 'customer not found');
        const body = customerBody(row);
        return { status: 200, body, headers: withVersion(body) };
      },
    }),
    defineRoute({
      method: 'POST', path: '/companies/{company_id}/customers/{customer_id}/archive', operationId: 'archiveCustomer', tags: ['customers'], auth: 'api', permission: 'customers.write',
      summary: 'Archive a customer (is_active becomes false); archiving again changes nothing',
      description: 'Optional If-Match with the customer version: 412 when it is stale.',
      params: CustomerParams,
      headerDocs: [ifMatchHeader('optional: the customer version read; 412 when stale')],
      responses: {
        200: { description: 'the archived customer', schema: Customer, headers: [ETAG_HEADER] },
        404: notFound,
        412: { description: '`version_mismatch`: If-Match is stale', schema: ErrorBody },
      },
      async handle({ params, actor, requestId, ifMatch }) {
        const scope = await companyScope(actor, params.company_id);
        const archived = await archiveCustomer(deps, { actor, requestId, companyId: scope.companyId, customerId: params.customer_id, expectedVersion: ifMatch });
        const row = await readAfter(archived.position, scope, params.customer_id);
        if (!row) throw new DomainError('customer_not_found', 'customer not found');
        const body = customerBody(row);
        return { status: 200, body, headers: withVersion(body) };
      },
    }),
  ];
}
