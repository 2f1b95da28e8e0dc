import type { Position, RecordedEvent } from '../port.ts';

type Read = (after: Position, limit: number, onlyDataOf: readonly string[] | undefined) => Promise<RecordedEvent[]>;

interface Page {
  after: Position;
  limit: number;
  /** the types whose data is asked for; null: every type's */
  types: Set<string> | null;
  calls: { resolve(events: RecordedEvent[]): void; reject(error: unknown): void }[];
}

/**
 * readAll calls made in the same turn of the event loop for the same page (position and limit)
 * share one statement. An append wakes every follower of its types at once (projectors and
 * reactors), and they ask from the same position: one read then serves them all, instead of one
 * statement each. The statement goes out at the end of the turn (setImmediate), after every call
 * it serves was made, so each answer is as fresh as the caller's own statement would have been.
 * It carries the data of every type any of them asked for (the port lets an adapter give data of
 * other types too). Each caller gets its own array and event objects; the data is shared.
 */
export class ReadAllBatch {
  private readonly pages = new Map<string, Page>();

  constructor(private readonly read: Read) {}

  submit(after: Position, limit: number, onlyDataOf?: readonly string[]): Promise<RecordedEvent[]> {
    const key = `${after} ${limit}`;
    let page = this.pages.get(key);
    if (!page) {
      const started: Page = { after, limit, types: new Set(), calls: [] };
      this.pages.set(key, started);
      setImmediate(() => void this.run(key, started));
      page = started;
    }
    if (!onlyDataOf) page.types = null;
    else onlyDataOf.forEach((type) => page.types?.add(type));
    const calls = page.calls;
    return new Promise((resolve, reject) => calls.push({ resolve, reject }));
  }

  private async run(key: string, page: Page): Promise<void> {
    this.pages.delete(key);
    let events: RecordedEvent[];
    try {
      events = await this.read(page.after, page.limit, page.types ? [...page.types] : undefined);
    } catch (error) {
      page.calls.forEach((call) => call.reject(error));
      return;
    }
    page.calls.forEach((call, i) => call.resolve(i === 0 ? events : events.map((e) => ({ ...e }))));
  }
}
