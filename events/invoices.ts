import type { DomainEvent } from './event.ts';
import type { InvoiceContentPayload, InvoiceTotalsPayload, RuleFindingPayload } from './invoice-document.ts';

export type InvoiceStatus =
  | 'draft'
  | 'validated'
  | 'approved'
  | 'pending_approval'
  | 'queued'
  | 'sent_peppol'
  | 'delivered'
  | 'sent_fs'
  | 'fs_acknowledged'
  | 'failed'
  | 'rejected'
  | 'cancelled'
  | 'voided';

/**
 * The computed totals travel in the event: the amounts an invoice was issued with stay exactly as
 * they were, whatever later versions of the computation do.
 */
export type InvoiceCreated = DomainEvent<
  'InvoiceCreated',
  {
    invoice_id: string;
    organisation_id: string;
    company_id: string;
    workspace_id: string;
    /** who created it (API key or user id) */
    created_by: string;
    /** 'series' when the number was reserved from the workspace pattern, 'client' when sent */
    number_source: 'series' | 'client';
    content: InvoiceContentPayload;
    totals: InvoiceTotalsPayload;
    warnings: RuleFindingPayload[];
    created_at: string;
  }
>;

export type InvoiceUpdated = DomainEvent<
  'InvoiceUpdated',
  { invoice_id: string; updated_by: string; content: InvoiceContentPayload; totals: InvoiceTotalsPayload; warnings: RuleFindingPayload[]; updated_at: string }
>;

export type InvoiceValidated = DomainEvent<
  'InvoiceValidated',
  { invoice_id: string; validated_by: string; validated_at: string }
>;

export type InvoiceEvent = InvoiceCreated | InvoiceUpdated | InvoiceValidated;

/**
 * The validate route found an invoice issued here not valid. Nothing about the invoice changes
 * (status, content and version stay), so it is recorded on a stream of its own,
 * `invoice_validation-{invoice_id}`, never on the invoice's, whose revision is the If-Match
 * version a client holds. invoice.validation_failed is published from it. `errors` keeps the
 * first 50 fatal findings (business rules, then XSD, CEN/Peppol and Slovak), `error_count` all of
 * them; a stage that could not run is null and fails the validation without a finding.
 */
export type InvoiceValidationFailed = DomainEvent<
  'InvoiceValidationFailed',
  {
    invoice_id: string;
    organisation_id: string;
    company_id: string;
    validated_by: string;
    business_rules_valid: boolean;
    xsd_valid: boolean | null;
    peppol_valid: boolean | null;
    slovak_valid: boolean | null;
    error_count: number;
    errors: { rule: string; message: string; location: string | null }[];
    failed_at: string;
  }
>;

/** An invoice number reserved from a series: `seq` is what the next reservation continues from. */
export type InvoiceNumberReserved = DomainEvent<
  'InvoiceNumberReserved',
  { series: string; seq: number; invoice_number: string; invoice_id: string; reserved_at: string }
>;

/** An invoice number taken in an organisation and tax year: the write-side uniqueness guard. */
export type InvoiceNumberClaimed = DomainEvent<
  'InvoiceNumberClaimed',
  { organisation_id: string; tax_year: string; invoice_number: string; invoice_id: string; claimed_at: string }
>;

export const invoiceStream = (invoiceId: string) => `invoice-${invoiceId}`;
export const invoiceValidationStream = (invoiceId: string) => `invoice_validation-${invoiceId}`;
export const invoiceSeriesStream = (workspaceId: string, series: string, year: string) => `invoice_series-${workspaceId}-${series}-${year}`;
