import { creditNoteDecider } from '../../commands/credit-notes/decider.ts';
import { decideWaitingCreditNoteSend, waitsToCount, type SendWaitingCreditNote } from '../../commands/credit-notes/send.ts';
import { invoiceFor } from '../../commands/invoices/access.ts';
import { invoiceDecider } from '../../commands/invoices/decider.ts';
import type { RequestScope } from '../../commands/shared/access.ts';
import { StandingRefusal } from '../../commands/shared/preconditions.ts';
import { invoiceStream } from '../../events/invoices.ts';
import { WrongExpectedRevision, type EventMetadata, type Position } from '../eventstore/port.ts';
import { toNewEvents } from '../handling/command-handler.ts';
import { readAndFold } from '../handling/read-and-fold.ts';
import type { Core } from '../core.ts';
import { INVOICE_RETRIES } from './invoice-commands.ts';

export interface WaitingSend {
  creditNoteId: string;
  scope: RequestScope;
  /** the client's If-Match on the credit note (412 when stale) */
  expectedVersion?: number;
  command: SendWaitingCreditNote;
  metadata: EventMetadata;
  /** asked once the decision is made and before the write (gateways, the quota): a throw writes nothing */
  beforeAppend: () => Promise<void>;
}

/**
 * Send or mark-sent of a credit note that waited (commands/credit-notes/send.ts): null when the
 * document is anything else, and the usual single-stream send goes on. Otherwise the count on the
 * invoice and the send of the credit note are one append over both streams; a write on the
 * invoice in between (another credit note, a delivery step) is decided again on the newer state.
 */
export async function sendWaitingCreditNote(deps: Pick<Core, 'store' | 'ids'>, send: WaitingSend): Promise<{ status: string; position: Position } | null> {
  for (let attempt = 0; ; attempt++) {
    const creditNote = await readAndFold(deps.store, invoiceStream(send.creditNoteId), invoiceDecider);
    if (creditNote.state.status === 'none' || !creditNote.state.credited_invoice) return null;
    // the access rule first: nothing is said about another company's credit note
    const own = invoiceFor(creditNote.state, send.scope);
    const invoiceId = creditNote.state.credited_invoice.invoice_id;
    const invoice = await readAndFold(deps.store, invoiceStream(invoiceId), creditNoteDecider);
    if (!waitsToCount(own, invoice.state)) return null;
    // a stale If-Match is a 412, but for what refuses the send whatever the version (preconditions.ts)
    const stale = send.expectedVersion !== undefined && send.expectedVersion !== creditNote.revision;
    const refuseStale = () => new WrongExpectedRevision(invoiceStream(send.creditNoteId), send.expectedVersion ?? creditNote.revision, creditNote.revision);
    let decision: ReturnType<typeof decideWaitingCreditNoteSend>;
    try {
      decision = decideWaitingCreditNoteSend(send.command, own, invoice.state);
    } catch (error) {
      throw stale && !(error instanceof StandingRefusal) ? refuseStale() : error;
    }
    if (stale) throw refuseStale();
    await send.beforeAppend();
    try {
      const written = await deps.store.appendToStreams([
        { streamId: invoiceStream(invoiceId), events: toNewEvents(deps, decision.invoice, send.metadata), expected: invoice.revision },
        { streamId: invoiceStream(send.creditNoteId), events: toNewEvents(deps, decision.creditNote, send.metadata), expected: creditNote.revision },
      ]);
      return { status: decision.state.status, position: written.position };
    } catch (error) {
      const retry = error instanceof WrongExpectedRevision && (error.streamId === invoiceStream(invoiceId) || send.expectedVersion === undefined);
      if (!retry || attempt >= INVOICE_RETRIES) throw error;
    }
  }
}
