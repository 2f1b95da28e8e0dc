import { DomainError } from '../shared/domain-error.ts';
import { NotFound } from '../shared/access.ts';

/** The registries a lookup consults, in the order their answers take precedence. */
export type SourceName = 'rpo' | 'registeruz' | 'vies';
export const SOURCE_ORDER: readonly SourceName[] = ['rpo', 'registeruz', 'vies'];

/** What one source knows of a company. A field it does not carry is absent; one it carries but has no value for is null. */
export interface CompanyFacts {
  name?: string | null;
  street?: string | null;
  city?: string | null;
  postal_code?: string | null;
  /** ISO 3166-1 alpha-2 of the seat */
  country_code?: string | null;
  dic?: string | null;
  legal_form_code?: string | null;
  terminated?: boolean;
  /** VIES: whether SK + DIČ is a valid VAT number today */
  vat_registered?: boolean;
}

/** How one source answered. `not_asked`: VIES when no DIČ was known to ask it with. */
export type SourceOutcome =
  | { source: SourceName; status: 'found'; facts: CompanyFacts }
  | { source: SourceName; status: 'not_found' }
  | { source: SourceName; status: 'unavailable'; reason: string }
  | { source: SourceName; status: 'not_asked' };

export const companyNotFound = (ico: string) => new NotFound('company_not_found', `no company with IČO ${ico} in the registers`);

/** `unavailable` (502 natively): the registers that could answer did not (down, too slow, or answering nonsense); safe to retry. */
export function registryUnavailable(unavailable: readonly SourceName[]): DomainError {
  return new DomainError('company_registry_unavailable', 'the company registers did not answer; try again later', { unavailable: [...unavailable] });
}
