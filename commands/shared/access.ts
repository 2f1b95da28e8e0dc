import type { DomainErrorCode } from './error-codes.ts';
import { StandingRefusal } from './preconditions.ts';

/** Whose a resource is: its organisation, and its company (null: organisation-wide, as a customer may be). */
export interface Owner {
  organisation_id: string;
  company_id: string | null;
}

/**
 * Who asks: the caller's organisation, and the company the route names (null: an
 * organisation-wide route, such as GET /invoices/{id}).
 */
export interface RequestScope {
  organisationId: string;
  companyId: string | null;
}

/**
 * The one access rule for invoices, customers and credit notes: a resource is seen only in its
 * own organisation, and through a company's routes only when it is that company's or
 * organisation-wide.
 */
export function visibleTo(owner: Owner, scope: RequestScope): boolean {
  if (owner.organisation_id !== scope.organisationId) return false;
  return scope.companyId === null || owner.company_id === null || owner.company_id === scope.companyId;
}

/**
 * A resource that does not exist, or that the caller may not see: the same refusal with the
 * resource's not-found code for both (a 404), never a forbidden one, so the answer never shows
 * that it exists. A standing refusal: a missing If-Match or a stale one does not come first
 * either (preconditions.ts).
 */
export class NotFound extends StandingRefusal {
  constructor(code: DomainErrorCode, message: string) {
    super(code, message);
  }
}
