import { invoiceFor } from '../../../commands/invoices/access.ts';
import { claimSeriesNumber, DEFAULT_PATTERNS, invoiceNumberKey, invoiceNumberScope } from '../../../commands/invoices/numbering.ts';
import type { KnownInvoice } from '../../../commands/invoices/state.ts';
import { decideCreditNote, reserveCreditNote, type CreateCreditNote } from '../../../commands/credit-notes/create.ts';
import { creditNoteDecider, creditableInvoice } from '../../../commands/credit-notes/decider.ts';
import type { CreditNoteRequest } from '../../../commands/credit-notes/model.ts';
import { creditNoteRail, type CreditNoteRail } from '../../../commands/credit-notes/rail.ts';
import { checkCreditNoteRequest } from '../../../commands/credit-notes/request.ts';
import { effectiveRole } from '../../../commands/identity/permissions.ts';
import type { Actor } from '../../../commands/shared/actor.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import { requireVersion } from '../../../commands/shared/preconditions.ts';
import { claimStream } from '../../../events/claims.ts';
import { invoiceSeriesStream, invoiceStream } from '../../../events/invoices.ts';
import type { CompanyRow } from '../../../projections/tenancy/rows.ts';
import { WrongExpectedRevision, type Position } from '../../platform/eventstore/port.ts';
import { revisionIn, VersionMismatch } from '../../platform/handling/append.ts';
import { toNewEvents } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { retryOnConflict } from '../../platform/handling/retry.ts';
import type { InvoiceDeps } from '../invoices/index.ts';
import { INVOICE_RETRIES } from '../invoices/index.ts';
import { requestMetadata } from '../../platform/handling/metadata.ts';
import { countInvoice, releaseInvoiceCount, type UsageCounts } from '../usage/index.ts';

type CreditNoteDeps = InvoiceDeps & { usage: UsageCounts };

interface CreditNoteRequestContext {
  actor: Actor;
  requestId: string;
  company: CompanyRow;
  invoiceId: string;
  /** If-Match: the invoice version the caller read (required by the credit-note route; optional for a void) */
  expectedVersion?: number;
  /** POST …/void: a full reversal left as a draft the caller sends (counted only then) */
  voidDraft?: boolean;
  body: CreditNoteRequest;
  /** whether the organisation has an admin or approver user (rule 7's pending_approval) */
  organisationHasReviewer: boolean;
}

interface CreatedCreditNote {
  credit_note_id: string;
  rail: CreditNoteRail;
  /** the credit note as created */
  state: KnownInvoice;
  /** the credited invoice's new version (what a next If-Match names) */
  invoice_version: number;
  position: Position;
}

/**
 * POST …/invoices/{id}/credit-notes. Everything that can refuse runs before a number is taken, in
 * this order (commands/shared/preconditions.ts): the request's values (422), the access rule (404),
 * an invoice that cannot be credited at all (409 not_creditable), then If-Match, required but for
 * a void (428) and current (412), and then the decision on what is asked (409 not_creditable for a
 * full reversal while another is queued, 422 credit_limit_exceeded or the document's rules),
 * decided on the invoice stream at the revision the caller named. Then the quota counts it (402),
 * and one append writes the next number's reservation in the workspace's series, the reservation
 * on the invoice's stream at that revision, the credit note's first events on its own new stream,
 * and the number's claim in the organisation and tax year: on Postgres and PGlite all or nothing.
 * A race lost at the append (another credit note took the revision) is a 412 and writes nothing,
 * no number either. A number a client took by hand for an invoice is skipped, as invoice creates do.
 */
export async function createCreditNote(deps: CreditNoteDeps, request: CreditNoteRequestContext): Promise<CreatedCreditNote> {
  // without If-Match (a void) a write that lands first is decided again on the newer state; with
  // it, the invoice's conflict is the client's VersionMismatch, which is never retried
  return retryOnConflict(() => createOnce(deps, request), { retries: INVOICE_RETRIES, streamId: invoiceStream(request.invoiceId) });
}

/** A void's draft still waiting on the invoice (not sent, not discarded): a second void answers with it instead of making another. */
export async function openVoidDraft(deps: Pick<CreditNoteDeps, 'store'>, scope: { organisationId: string; companyId: string }, invoiceId: string) {
  const read = await readAndFold(deps.store, invoiceStream(invoiceId), creditNoteDecider);
  const invoice = invoiceFor(read.state, scope);
  return { revision: read.revision, draft: invoice.credit_notes.find((c) => c.reason === 'full_reversal' && !c.counted && !c.released) ?? null };
}

async function createOnce(deps: CreditNoteDeps, request: CreditNoteRequestContext): Promise<CreatedCreditNote> {
  const { actor, company, invoiceId } = request;
  checkCreditNoteRequest(request.body);
  const scope = { organisationId: actor.organisationId, companyId: company.id };
  const read = await readAndFold(deps.store, invoiceStream(invoiceId), creditNoteDecider);
  // what no request could change is answered first: not found, not creditable at all
  const invoice = creditableInvoice(read.state, scope);
  // the credit-note route needs the version read (a void is decided on the invoice as it is)
  if (!request.voidDraft) requireVersion(request.expectedVersion, 'the invoice version you are crediting');
  if (request.expectedVersion !== undefined && read.revision !== request.expectedVersion) {
    throw new VersionMismatch(invoiceStream(invoiceId), request.expectedVersion, read.revision < 0 ? 'no_stream' : read.revision);
  }

  const now = deps.clock.now();
  const at = now.toISOString();
  const issueDate = at.slice(0, 10);
  const year = issueDate.slice(0, 4);
  const creditNoteId = deps.ids.next();
  const approvalId = deps.ids.next();
  const rail: CreditNoteRail = request.voidDraft ? 'void_draft' : creditNoteRail(invoice, { role: effectiveRole(actor), organisationHasReviewer: request.organisationHasReviewer });
  const command = (number: string): CreateCreditNote => ({
    scope, credit_note_id: creditNoteId, credit_note_number: number, issue_date: issueDate, request: request.body, rail,
    created_by: actor.id, peppol_message_id: deps.ids.next(), code_lists: deps.codeLists, approval_id: approvalId, at,
  });
  // the caps and creditability (409/422) refuse before a number is reserved; the document's own
  // rules run with the number (a document made of rows that fit an issued invoice passes them)
  const reservation = reserveCreditNote(command(''), read.state);

  const metadata = requestMetadata(actor, request.requestId);
  // a waiting credit note is counted when it is sent; the quota refuses (402) before a number is taken
  const counted = rail === 'peppol' || rail === 'by_hand'
    ? await countInvoice(deps, { organisationId: actor.organisationId, invoiceId: creditNoteId, source: 'api' }, metadata)
    : null;
  try {
    return await writeCreditNote();
  } catch (error) {
    // counted, then surely never written (a lost race at the append: 412; no number to be had): the
    // count is taken back, so the client's retry on the reloaded invoice is counted once (found by
    // the crash-effects campaign). After any other failure the append may have happened: the count
    // stays, since a count too many is corrected by support and a credit note counted for free is not.
    const nothingWritten = error instanceof WrongExpectedRevision || error instanceof DomainError;
    if (counted && nothingWritten) await releaseInvoiceCount(deps, { organisationId: actor.organisationId, invoiceId: creditNoteId, month: counted.month }, metadata);
    throw error;
  }

  /** The series' next number, reserved in one append with the invoice's reservation, the credit note's first events and the number's claim. */
  function writeCreditNote(): Promise<CreatedCreditNote> {
    const creditedInvoice = invoiceStream(invoiceId);
    return deps.series.write(
      invoiceSeriesStream(company.workspace_id, 'credit_note', year),
      { type: 'ReserveNumber', series: 'credit_note', pattern: DEFAULT_PATTERNS.credit_note, year, invoice_id: creditNoteId, at },
      metadata,
      {
        decide: (number) => {
          const decision = decideCreditNote(command(number), read.state, reservation);
          const claim = claimStream(invoiceNumberScope(actor.organisationId, year), invoiceNumberKey(number));
          return {
            claim,
            writes: [
              // the owning stream first after the series (EventStoreDB writes in this order and stops at the first conflict)
              { streamId: creditedInvoice, events: toNewEvents(deps, decision.invoice, metadata), at: request.expectedVersion === undefined ? { revision: read.revision } : { ifMatch: read.revision } },
              { streamId: invoiceStream(creditNoteId), events: toNewEvents(deps, decision.creditNote, metadata), at: { newStream: true } },
              { streamId: claim, events: toNewEvents(deps, claimSeriesNumber({ number, organisationId: actor.organisationId, year, holderId: creditNoteId, at }), metadata), at: { newStream: true } },
            ],
            done: (appended) => ({ credit_note_id: creditNoteId, rail, state: decision.state, position: appended.position, invoice_version: revisionIn(appended, creditedInvoice) }),
          };
        },
      },
    );
  }
}

