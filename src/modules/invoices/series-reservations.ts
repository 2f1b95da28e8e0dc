import type { ReserveNumber, SeriesState } from '../../../commands/invoices/numbering.ts';
import { invoiceSeriesDecider } from '../../../commands/invoices/numbering.ts';
import { DomainError } from '../../../commands/shared/domain-error.ts';
import type { InvoiceNumberReserved } from '../../../events/invoices.ts';
import type { EventMetadata, EventStore, StreamsAppendResult } from '../../platform/eventstore/port.ts';
import type { Write } from '../../platform/handling/append.ts';
import type { Ids } from '../../platform/ports/ids.ts';
import { GroupCommit } from '../../platform/handling/group-commit.ts';
import { lostRace } from '../../platform/handling/retry.ts';

/** A document that takes the next number of a series. */
export interface NumberedDocument<T> {
  /**
   * The document's writes with this number, among them the number's claim in its organisation and
   * tax year (`claim`: the claim's stream). Throwing refuses the document, and it takes no number.
   */
  decide(number: string): { writes: Write[]; claim: string; done(appended: StreamsAppendResult): T };
}

/** Numbers a document may find taken before it is numbering_busy (clients gave that many of the series' next numbers to invoices by hand). */
const MAX_TAKEN = 199;

/**
 * Numbers from a series (per workspace, kind and year). The reservation is appended in the same
 * append as the document that takes it (GroupCommit's rider), all or nothing on Postgres and
 * PGlite: a request refused for any reason (a stale If-Match, the quota, a rule, a failure of the
 * database) takes no number, so the series has no gap an auditor would read as a deleted
 * document. A series is one stream every create of a workspace writes to: its reservations and
 * their documents are group-committed.
 */
export class SeriesReservations {
  private readonly commits: GroupCommit<ReserveNumber, InvoiceNumberReserved, SeriesState>;

  constructor(deps: { store: EventStore; ids: Ids }) {
    this.commits = new GroupCommit(deps, invoiceSeriesDecider);
  }

  /**
   * Writes the document with the series' next number. A number whose claim is someone's already
   * (a client gave it to an invoice by hand) is skipped for good and the document numbered again.
   */
  async write<T>(series: string, reserve: ReserveNumber, metadata: EventMetadata, document: NumberedDocument<T>): Promise<T> {
    const taken: string[] = [];
    let tried = { number: '', claim: '' };
    try {
      return await this.commits.submitWith(series, () => ({ ...reserve, taken: [...taken] }), metadata, {
        decide: (events) => {
          const number = events[0]?.data.invoice_number;
          if (number === undefined) throw new Error(`${series}: a reservation decided nothing`);
          const decision = document.decide(number);
          tried = { number, claim: decision.claim };
          return decision;
        },
        lost: (error) => {
          if (error.streamId !== tried.claim || taken.length >= MAX_TAKEN) return false;
          taken.push(tried.number);
          return true;
        },
      });
    } catch (error) {
      if (lostRace(error, tried.claim)) throw new DomainError('numbering_busy', 'could not take a number from the series; retry');
      throw error;
    }
  }
}
