import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { START, type EventStore, type Position } from '../eventstore/port.ts';
import { WakeUp } from '../eventstore/wake-up.ts';
import type { Reactor } from './reactor.ts';
import type { RecordedEvent } from '../eventstore/port.ts';

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
  private readonly wake: WakeUp;
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
    this.wake = new WakeUp(store.appended$);
    this.batchSize = options.batchSize ?? 200;
    this.pollMs = options.pollMs ?? 250;
    this.retryMs = options.retryMs ?? 500;
  }

  private abort = new AbortController();

  async start(): Promise<void> {
    this.running = true;
    this.abort = new AbortController();
    this.wake.start();
    this.loops = this.reactors.map((r) => this.follow(r));
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    this.wake.stop();
    await Promise.all(this.loops);
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
    while (this.running) {
      let batch;
      try {
        batch = await this.store.readAll(position, this.batchSize);
      } catch (error) {
        this.log.error({ err: error, reactor: reactor.name }, 'reactor could not read events');
        await this.wake.backoff(this.retryMs);
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
        await this.save(reactor.name, last.position);
      }
      if (batch.length < this.batchSize) await this.wake.sleep(this.pollMs);
    }
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
        await this.wake.backoff(Math.min(60_000, this.retryMs * 2 ** attempt));
      }
    }
  }
}
