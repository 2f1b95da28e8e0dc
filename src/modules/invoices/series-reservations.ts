import type { ReserveNumber, SeriesState } from '../../../commands/invoices/numbering.ts';
import { invoiceSeriesDecider } from '../../../commands/invoices/numbering.ts';
import type { InvoiceNumberReserved } from '../../../events/invoices.ts';
import type { EventMetadata, EventStore } from '../../platform/eventstore/port.ts';
import type { Ids } from '../../platform/ports/ids.ts';
import { GroupCommit } from '../../platform/handling/group-commit.ts';

/**
 * Reserves series numbers: a series is one stream every create of a workspace writes to, so its
 * reservations are group-committed (see GroupCommit).
 */
export class SeriesReservations {
  private readonly commits: GroupCommit<ReserveNumber, InvoiceNumberReserved, SeriesState>;

  constructor(deps: { store: EventStore; ids: Ids }) {
    this.commits = new GroupCommit(deps, invoiceSeriesDecider);
  }

  async reserve(stream: string, command: ReserveNumber, metadata: EventMetadata): Promise<InvoiceNumberReserved> {
    const [event] = await this.commits.submit(stream, command, metadata);
    if (!event) throw new Error('a series reservation decided nothing');
    return event;
  }
}
