import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { START, type EventStore, type Position } from '../eventstore/port.ts';
import { WakeUp } from '../eventstore/wake-up.ts';
import type { Reactor } from './reactor.ts';
import type { RecordedEvent } from '../eventstore/port.ts';

/** How long a reactor may leave a scan past events it ignores unsaved. */
const IDLE_CHECKPOINT_MS = 5_000;

interface Options {
  batchSize?: number;
  pollMs?: number;
  /** first retry delay of a failing reaction; doubles up to 60 s */
  retryMs?: number;
}

/**
 * Runs reactors over the event store, each from its own checkpoint. The checkpoint moves only
 * after an event's reaction succeeded, so every handled event is reacted to at least once; a
 * failing reaction is retried (with backoff) before the reactor moves on, keeping order. No
 * transaction is held open during a reaction: side effects talk to the outside world.
 */
export class ReactorRunner {
  private running = false;
  private loops: Promise<void>[] = [];
  /** one per reactor: each wakes only for appends of the types it handles */
  private readonly wakes: Map<string, WakeUp>;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly retryMs: number;

  constructor(
    private readonly store: EventStore,
    private readonly db: DataSource,
    readonly reactors: readonly Reactor[],
    private readonly log: Logger,
    options: Options = {},
  ) {
    this.wakes = new Map(reactors.map((r) => [r.name, WakeUp.forTypes(store.appendedTypes$, r.handles)]));
    this.batchSize = options.batchSize ?? 200;
    this.pollMs = options.pollMs ?? 250;
    this.retryMs = options.retryMs ?? 500;
  }

  private abort = new AbortController();

  async start(): Promise<void> {
    this.running = true;
    this.abort = new AbortController();
    for (const wake of this.wakes.values()) wake.start();
    this.loops = this.reactors.map((r) => this.follow(r));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    for (const wake of this.wakes.values()) wake.stop();
    await Promise.all(this.loops);
  }

  private wakeOf(reactor: Reactor): WakeUp {
    return this.wakes.get(reactor.name) as WakeUp;
  }

  async checkpoint(name: string): Promise<Position> {
    await this.db.query('INSERT INTO reactor_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
    const rows: { position: string }[] = await this.db.query('SELECT position FROM reactor_checkpoints WHERE name = $1', [name]);
    return rows[0]?.position ?? START;
  }

  private async save(name: string, position: Position): Promise<void> {
    await this.db.query('UPDATE reactor_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [name, position]);
  }

  private async follow(reactor: Reactor): Promise<void> {
    let position = await this.checkpoint(reactor.name);
    const handles = new Set(reactor.handles);
    let savedAt = Date.now();
    let unsaved = false;
    while (this.running) {
      const mark = this.wakeOf(reactor).mark();
      let batch;
      try {
        batch = await this.store.readAll(position, this.batchSize, reactor.handles);
      } catch (error) {
        this.log.error({ err: error, reactor: reactor.name }, 'reactor could not read events');
        await this.wakeOf(reactor).backoff(this.retryMs);
        continue;
      }
      const handled = batch.filter((e) => handles.has(e.type));
      if ((reactor.concurrency ?? 1) > 1) {
        await this.reactConcurrently(reactor, handled);
        if (!this.running) return;
      } else {
        for (const event of handled) {
          await this.reactUntilDone(reactor, event);
          if (!this.running) return;
          await this.save(reactor.name, event.position);
        }
      }
      const last = batch[batch.length - 1];
      if (last) {
        position = last.position;
        // Every write transaction holds back what all readers of the event store may see (see
        // postgres/position.ts), so a scan past events this reactor ignores is saved only now and
        // then; after a crash those are read again and ignored again. Reactions are saved at once.
        if (handled.length > 0 || Date.now() - savedAt >= IDLE_CHECKPOINT_MS) {
          await this.save(reactor.name, last.position);
          savedAt = Date.now();
          unsaved = false;
        } else {
          unsaved = true;
        }
      }
      if (batch.length < this.batchSize) await this.wakeOf(reactor).sleep(this.pollMs, mark);
    }
    // A clean stop keeps the scan, so a restart does not read those events again.
    if (unsaved) await this.save(reactor.name, position).catch(() => undefined);
  }

  /**
   * Reacts to a batch with up to `concurrency` reactions at once, each stream's events in order.
   * A slow reaction (a retry with backoff) holds one slot, not the whole reactor.
   */
  private async reactConcurrently(reactor: Reactor, events: RecordedEvent[]): Promise<void> {
    const byStream = new Map<string, RecordedEvent[]>();
    for (const event of events) byStream.set(event.streamId, [...(byStream.get(event.streamId) ?? []), event]);
    const queues = [...byStream.values()];
    const worker = async () => {
      for (let queue = queues.shift(); queue && this.running; queue = queues.shift()) {
        for (const event of queue) {
          if (!this.running) return;
          await this.reactUntilDone(reactor, event);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(reactor.concurrency ?? 1, queues.length) }, worker));
  }

  private async reactUntilDone(reactor: Reactor, event: Parameters<Reactor['react']>[0]): Promise<void> {
    for (let attempt = 0; this.running; attempt++) {
      try {
        await reactor.react(event, this.abort.signal);
        return;
      } catch (error) {
        this.log.warn({ err: error, reactor: reactor.name, event_id: event.id, attempt }, 'reaction failed; retrying');
        await this.wakeOf(reactor).backoff(Math.min(60_000, this.retryMs * 2 ** attempt));
      }
    }
  }
}
