import { setTimeout as sleep } from 'node:timers/promises';
import { creditNoteDecider } from '../../../../commands/credit-notes/decider.ts';
import type { CreditNoteReserved } from '../../../../events/credit-notes.ts';
import { invoiceStream } from '../../../../events/invoices.ts';
import { INVOICE_RETRIES, systemMetadata } from '../../invoices/index.ts';
import type { Core } from '../../../platform/core.ts';
import { handleCommand } from '../../../platform/handling/command-handler.ts';
import { defineReactor, type Reactor } from '../../../platform/reactors/reactor.ts';

const NAME = 'credit-note-completion';

/**
 * A reservation whose credit note was never written gives its amount back. On Postgres and PGlite
 * the two are one append, so the credit note is always there and this costs one read. On
 * EventStoreDB the invoice's stream is written first and the credit note's stream after it: a
 * crash in between leaves a reservation nobody was told about (the client got no answer), which
 * would otherwise hold its amount for good. After `graceMs` from the reservation (far beyond any
 * request) the credit note is looked for once more, then released as `discarded`: nothing a client
 * was told of is lost, and nothing is credited twice. Its number stays unused in the series.
 */
export function creditNoteCompletionReactor(deps: Pick<Core, 'store' | 'ids' | 'clock'> & { graceMs: number }): Reactor {
  const written = async (creditNoteId: string) => (await deps.store.readStream(invoiceStream(creditNoteId))).length > 0;
  return defineReactor<CreditNoteReserved>({
    name: NAME,
    handles: ['CreditNoteReserved'],
    concurrency: 4,
    async react(event, signal) {
      const reserved = event.data;
      if (await written(reserved.credit_note_id)) return;
      const wait = Date.parse(reserved.reserved_at) + deps.graceMs - deps.clock.now().getTime();
      if (wait > 0) await sleep(wait, undefined, { signal });
      if (await written(reserved.credit_note_id)) return;
      await handleCommand(deps, invoiceStream(reserved.invoice_id), creditNoteDecider, {
        type: 'ReleaseCreditNote', credit_note_id: reserved.credit_note_id, why: 'discarded', at: deps.clock.now().toISOString(),
      }, { metadata: systemMetadata(NAME, event.id), expected: { retry: { onVersionConflict: INVOICE_RETRIES } } });
    },
  });
}
