import type { CodeLists } from '../../../commands/invoices/code-lists.ts';
import { toInvoiceContent, type ContentDefaults } from '../../../commands/invoices/content.ts';
import type { PrecedingInvoiceFound } from '../../../commands/invoices/corrected-invoice.ts';
import { checkInvoiceContent, invoiceDecider, replaceableInvoice, type InvoiceState } from '../../../commands/invoices/decider.ts';
import { requireVersion } from '../../../commands/shared/preconditions.ts';
import type { InvoiceStreamEvent } from '../../../commands/invoices/state.ts';
import type { Party, SellerDetails } from '../../../commands/invoices/model.ts';
import { findCompany } from '../../../projections/tenancy/queries.ts';
import {
  DEFAULT_PATTERNS,
  claimSeriesNumber,
  invoiceNumberClaimDecider,
  invoiceNumberKey,
  invoiceNumberScope,
  invoiceSeriesDecider,
  previewNumber,
  type SeriesKind,
} from '../../../commands/invoices/numbering.ts';
import { visibleTo, type RequestScope } from '../../../commands/shared/access.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { invoiceSeriesStream, invoiceStream, type InvoiceCreated } from '../../../events/invoices.ts';
import type { CompanyRow } from '../../../projections/tenancy/rows.ts';
import type { InvoiceRequest } from '../../../schemas/invoices.ts';
import type { Position } from '../../platform/eventstore/port.ts';
import { revisionIn } from '../../platform/handling/append.ts';
import { claimStream } from '../../../events/claims.ts';
import { handleCommand, ifMatchOr, toNewEvents, type Handled } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import type { Core } from '../../platform/core.ts';
import type { Lookups } from './lookups.ts';
import type { SeriesReservations } from './series-reservations.ts';
import type { SettlementReader } from '../payments/index.ts';
import { buyerOf } from './lookups.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';

export type InvoiceDeps = Pick<Core, 'store' | 'ids' | 'clock' | 'readModels'> & { series: SeriesReservations; lookups: Lookups; codeLists: CodeLists };

/** What the invoice routes are given: the core, the number series, the lookups, and the code lists (null when they are not loaded). */
export type InvoicingDeps = Core & {
  series: SeriesReservations; lookups: Lookups; codeLists: CodeLists | null;
  /** what single-document reads show of credit notes and payments (settlement.ts) */
  settlement: SettlementReader;
};

/** Invoice rules need the official code lists; without them invoices are refused, not half-checked. */
export function withCodeLists(deps: InvoicingDeps): InvoiceDeps {
  const { codeLists } = deps;
  if (!codeLists) throw new DomainError('code_lists_unavailable', 'the official code lists are not loaded (VALIDATION_ARTIFACTS_DIR); invoices cannot be checked');
  return { ...deps, codeLists };
}

const seriesKind = (invoiceType: string): SeriesKind => (invoiceType === '381' ? 'credit_note' : 'invoice');
const taxYear = (issueDate: string) => issueDate.slice(0, 4);

/** The company as the seller, with the address of its profile ('' for a part it has none of). */
function companyParty(company: CompanyRow): Party {
  return {
    name: company.name, vat_id: company.vat_id, ico: company.ico, dic: company.dic, peppol_id: company.peppol_id,
    street: company.street, city: company.city, postal_code: company.postal_code, country_code: company.country_code || 'SK',
  };
}

const sellerDetails = (company: CompanyRow): SellerDetails => ({
  additional_street: company.additional_street, register_entry: company.register_entry, bic: company.bic,
  contact_name: company.contact_name, contact_email: company.contact_email, contact_phone: company.contact_phone,
});

async function contentDefaults(deps: InvoiceDeps, actor: Actor, kept: CompanyRow, request: InvoiceRequest, number: string): Promise<ContentDefaults> {
  // the kept row's profile may be older than a PATCH (lookups.ts): the profile is read as it is now
  const company = (await findCompany(deps.readModels, actor.organisationId, kept.id)) ?? kept;
  const buyer = request.customer_id ? await buyerOf(deps, actor, company, request.customer_id) : null;
  const named = request.preceding_invoice && 'id' in request.preceding_invoice ? request.preceding_invoice.id : null;
  const preceding_invoice = named ? await companyInvoice(deps, { organisationId: actor.organisationId, companyId: company.id }, named) : null;
  return { invoice_number: number, supplier: companyParty(company), supplier_iban: company.iban, seller_details: sellerDetails(company), buyer, preceding_invoice };
}

/** The invoice a corrected invoice names, from its own stream; null when the company has none with that id. */
async function companyInvoice(deps: Pick<Core, 'store'>, scope: RequestScope, invoiceId: string): Promise<PrecedingInvoiceFound | null> {
  const { state } = await readAndFold(deps.store, invoiceStream(invoiceId), invoiceDecider);
  if (state.status === 'none' || !visibleTo(state, scope)) return null;
  return { invoice_id: state.invoice_id, invoice_number: state.invoice_number, issue_date: state.content.issue_date, invoice_type: state.content.invoice_type, source: state.source };
}

type Written = Handled<InvoiceStreamEvent, InvoiceState>;

export interface Created {
  invoice_id: string;
  version: number;
  position: Position;
  /** what was decided: the read model's row follows from it */
  event: InvoiceCreated;
}

/**
 * Creates a draft. The decider checks the request against the business rules as it is numbered,
 * and a series number is reserved in the same append as the invoice (SeriesReservations): a
 * refused request, whatever refuses it, takes no number and writes nothing.
 */
export async function createInvoice(
  deps: InvoiceDeps,
  request: {
    actor: Actor; requestId: string; company: CompanyRow; body: InvoiceRequest;
    /** a deterministic id (a bulk import's invoice group); a fresh one by default */
    invoiceId?: string;
    /** runs once the content passed the rules, before a number is reserved (a bulk import counts the invoice against the quota here) */
    beforeWrite?: () => Promise<void>;
  },
): Promise<Created> {
  const { actor, company, body } = request;
  const invoiceId = request.invoiceId ?? deps.ids.next();
  const metadata = requestMetadata(actor, request.requestId);
  const command = (content: ReturnType<typeof toInvoiceContent>) =>
    ({
      type: 'CreateInvoice', invoice_id: invoiceId, organisation_id: actor.organisationId, company_id: company.id,
      workspace_id: company.workspace_id, created_by: actor.id, number_source: body.invoice_number ? 'client' : 'series',
      content, code_lists: deps.codeLists, at: deps.clock.now().toISOString(),
    }) as const;

  const defaults = await contentDefaults(deps, actor, company, body, body.invoice_number ?? '0000000000');
  const provisional = toInvoiceContent(body, defaults);
  // The decider runs the rules before anything is appended, so a refused request takes no number
  // either way; they run here first only when something must happen between them and the number.
  if (request.beforeWrite) {
    checkInvoiceContent(provisional, deps.codeLists);
    await request.beforeWrite();
  }

  const year = taxYear(body.issue_date);
  // The number is claimed in the organisation and tax year together with the invoice's first
  // event: one append when the number is new. The lines do not depend on the number: keeping the
  // checked ones keeps their computed totals.
  const contentFor = (number: string) => ({ ...toInvoiceContent(body, { ...defaults, invoice_number: number }), lines: provisional.lines });
  // a number the client chose: claimed with the invoice (a claim whose holder was never written is taken over)
  const withClientNumber = (number: string): Promise<Written> => handleCommand(deps, invoiceStream(invoiceId), invoiceDecider, command(contentFor(number)), {
    metadata,
    expected: { newStream: true },
    claim: {
      decider: invoiceNumberClaimDecider, scope: invoiceNumberScope(actor.organisationId, year), value: invoiceNumberKey(number),
      holderId: invoiceId, holderStream: invoiceStream,
    },
  });
  // the series' next number: reserved, claimed and written with the invoice in one append
  const kind = seriesKind(provisional.invoice_type);
  const at = deps.clock.now().toISOString();
  const withSeriesNumber = (): Promise<Written> => deps.series.write(
    invoiceSeriesStream(company.workspace_id, kind, year),
    { type: 'ReserveNumber', series: kind, pattern: DEFAULT_PATTERNS[kind], year, invoice_id: invoiceId, at },
    metadata,
    {
      decide: (number) => {
        const events = invoiceDecider.decide(command(contentFor(number)), invoiceDecider.initialState);
        const claim = claimStream(invoiceNumberScope(actor.organisationId, year), invoiceNumberKey(number));
        return {
          claim,
          writes: [
            { streamId: claim, events: toNewEvents(deps, claimSeriesNumber({ number, organisationId: actor.organisationId, year, holderId: invoiceId, at }), metadata), at: { newStream: true } },
            { streamId: invoiceStream(invoiceId), events: toNewEvents(deps, events, metadata), at: { newStream: true } },
          ],
          done: (appended) => ({
            events, version: revisionIn(appended, invoiceStream(invoiceId)), position: appended.position,
            state: events.reduce(invoiceDecider.evolve, invoiceDecider.initialState),
          }),
        };
      },
    },
  );
  const written = body.invoice_number ? await withClientNumber(body.invoice_number) : await withSeriesNumber();
  const event = written.events.find((e): e is InvoiceCreated => e.type === 'InvoiceCreated');
  if (!event || written.position === null) throw new Error(`invoice ${invoiceId}: the create decided no InvoiceCreated`);
  return { invoice_id: invoiceId, version: written.version, position: written.position, event };
}

/**
 * PUT: replaces the content of an editable invoice; If-Match is required (412 when stale). The
 * decider's access rule runs first, before the content is built, so neither a version nor a
 * customer lookup answers for an invoice the company may not see (404 invoice_not_found).
 */
export async function updateInvoice(
  deps: InvoiceDeps,
  /** expectedVersion: the client's If-Match; a replacement without one is refused (428), after what refuses it whatever the version */
  request: { actor: Actor; requestId: string; company: CompanyRow; invoiceId: string; body: InvoiceRequest; expectedVersion: number | undefined },
): Promise<{ version: number; position: Position | null }> {
  const { actor, company, body, invoiceId } = request;
  const scope = { organisationId: actor.organisationId, companyId: company.id };
  const handled = await handleCommand(deps, invoiceStream(invoiceId), invoiceDecider, async (state: InvoiceState) => {
    // what can never be replaced is refused for that first; only then is a version asked for, and
    // the body's own checks (its customer, its number) come after a stale one (preconditions.ts)
    const { invoice_number } = replaceableInvoice(state, scope);
    requireVersion(request.expectedVersion, 'the invoice version you are replacing');
    const content = toInvoiceContent(body, await contentDefaults(deps, actor, company, body, invoice_number));
    return { type: 'UpdateInvoice', invoice_id: invoiceId, scope, updated_by: actor.id, content, code_lists: deps.codeLists, at: deps.clock.now().toISOString() } as const;
  }, { metadata: requestMetadata(actor, request.requestId), expected: ifMatchOr(request.expectedVersion, undefined) });
  return { version: handled.version, position: handled.position };
}

/** Whether the invoice's stream exists and the scope may see it (from the events, not the register). */
export async function invoiceVisibleTo(deps: Pick<Core, 'store'>, scope: RequestScope, invoiceId: string): Promise<boolean> {
  const { state } = await readAndFold(deps.store, invoiceStream(invoiceId), invoiceDecider);
  return state.status !== 'none' && visibleTo(state, scope);
}

/** The number the next create would get (nothing is reserved). */
export async function nextInvoiceNumber(deps: InvoiceDeps, company: CompanyRow, kind: SeriesKind, year: string): Promise<string> {
  const { state } = await readAndFold(deps.store, invoiceSeriesStream(company.workspace_id, kind, year), invoiceSeriesDecider);
  return previewNumber(DEFAULT_PATTERNS[kind], year, state);
}
