import type { ReserveNumber, SeriesState } from '../../commands/invoices/numbering.ts';
import { invoiceSeriesDecider } from '../../commands/invoices/numbering.ts';
import { fold } from '../../commands/shared/decider.ts';
import type { InvoiceNumberReserved } from '../../events/invoices.ts';
import { WrongExpectedRevision, type EventMetadata, type EventStore } from '../eventstore/port.ts';
import type { Ids } from '../ports/ids.ts';

interface Known {
  state: SeriesState;
  revision: number;
}

/**
 * Reserves series numbers without a read per reservation and without optimistic retries among
 * this process's own requests: reservations of one series run one after another here, on the
 * series state this process last wrote. The append still carries the expected revision, so
 * another instance's reservation in between is noticed (WrongExpectedRevision): the state is
 * read again and the reservation retried.
 */
export class SeriesReservations {
  private readonly known = new Map<string, Known>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { store: EventStore; ids: Ids }) {}

  reserve(stream: string, command: ReserveNumber, metadata: EventMetadata): Promise<InvoiceNumberReserved> {
    const previous = this.queues.get(stream) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.reserveNow(stream, command, metadata));
    this.queues.set(stream, next);
    void next.finally(() => {
      if (this.queues.get(stream) === next) this.queues.delete(stream);
    });
    return next;
  }

  private async reserveNow(stream: string, command: ReserveNumber, metadata: EventMetadata): Promise<InvoiceNumberReserved> {
    for (let attempt = 0; ; attempt++) {
      const known = this.known.get(stream) ?? (await this.read(stream));
      const [event] = invoiceSeriesDecider.decide(command, known.state);
      if (!event) throw new Error('a series reservation decided nothing');
      try {
        const appended = await this.deps.store.append(
          stream,
          [{ id: this.deps.ids.next(), type: event.type, data: event.data, metadata }],
          known.revision < 0 ? 'no_stream' : known.revision,
        );
        this.known.set(stream, { state: invoiceSeriesDecider.evolve(known.state, event), revision: appended.nextRevision });
        return event;
      } catch (error) {
        this.known.delete(stream);
        if (!(error instanceof WrongExpectedRevision) || attempt >= 50) throw error;
      }
    }
  }

  private async read(stream: string): Promise<Known> {
    const history = await this.deps.store.readStream(stream);
    const events = history.map((e) => ({ type: e.type, data: e.data }) as unknown as InvoiceNumberReserved);
    return { state: fold(invoiceSeriesDecider, events), revision: history.length - 1 };
  }
}
