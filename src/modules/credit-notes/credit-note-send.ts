import { creditNoteDecider } from '../../../commands/credit-notes/decider.ts';
import { decideWaitingCreditNoteSend, waitsToCount, type SendWaitingCreditNote } from '../../../commands/credit-notes/send.ts';
import { invoiceFor } from '../../../commands/invoices/access.ts';
import { invoiceDecider } from '../../../commands/invoices/decider.ts';
import type { RequestScope } from '../../../commands/shared/access.ts';
import { invoiceStream } from '../../../events/invoices.ts';
import type { EventMetadata, Position } from '../../platform/eventstore/port.ts';
import { appendAll, VersionMismatch } from '../../platform/handling/append.ts';
import { decideBeforeStale } from '../../platform/handling/decide-before-stale.ts';
import { toNewEvents } from '../../platform/handling/command-handler.ts';
import { readAndFold } from '../../platform/handling/read-and-fold.ts';
import { lostRace, retrying } from '../../platform/handling/retry.ts';
import type { Core } from '../../platform/core.ts';
import { INVOICE_RETRIES } from '../invoices/index.ts';

interface WaitingSend {
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
  // a write on the invoice in between is decided again; so is any lost race without If-Match. The
  // credit note's own stale version, with If-Match, is the client's VersionMismatch: never retried.
  let invoiceId = '';
  return retrying(async () => {
    const creditNote = await readAndFold(deps.store, invoiceStream(send.creditNoteId), invoiceDecider);
    if (creditNote.state.status === 'none' || !creditNote.state.credited_invoice) return null;
    // the access rule first: nothing is said about another company's credit note
    const own = invoiceFor(creditNote.state, send.scope);
    invoiceId = creditNote.state.credited_invoice.invoice_id;
    const invoice = await readAndFold(deps.store, invoiceStream(invoiceId), creditNoteDecider);
    if (!waitsToCount(own, invoice.state)) return null;
    // a stale If-Match is a 412, but for what refuses the send whatever the version (preconditions.ts)
    const stale = send.expectedVersion === undefined || send.expectedVersion === creditNote.revision ? null
      : new VersionMismatch(invoiceStream(send.creditNoteId), send.expectedVersion, creditNote.revision < 0 ? 'no_stream' : creditNote.revision);
    const decision = await decideBeforeStale(stale, true, () => decideWaitingCreditNoteSend(send.command, own, invoice.state));
    await send.beforeAppend();
    const written = await appendAll(deps.store, [
      { streamId: invoiceStream(invoiceId), events: toNewEvents(deps, decision.invoice, send.metadata), at: { revision: invoice.revision } },
      {
        streamId: invoiceStream(send.creditNoteId), events: toNewEvents(deps, decision.creditNote, send.metadata),
        at: send.expectedVersion === undefined ? { revision: creditNote.revision } : { ifMatch: creditNote.revision },
      },
    ]);
    return { status: decision.state.status, position: written.position };
  }, {
    retries: INVOICE_RETRIES,
    retryIf: (error) => lostRace(error) && (error.streamId === invoiceStream(invoiceId) || send.expectedVersion === undefined),
  });
}
