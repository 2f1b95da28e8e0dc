import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { START, type AppendedTypes, type EventStore, type Position } from '../eventstore/port.ts';
import { WakeUp } from '../eventstore/wake-up.ts';
import { SOLE_INSTANCE, type FollowerLeases } from '../followers/lease.ts';
import { failureKind, park, parkedEvents, type ParkedEvent } from '../readmodel/failures.ts';
import { retrying } from '../handling/retry.ts';
import type { Reactor } from './reactor.ts';
import type { RecordedEvent } from '../eventstore/port.ts';

/** How long a reactor may leave a scan past events it ignores unsaved. */
const IDLE_CHECKPOINT_MS = 5_000;

interface Options {
  batchSize?: number;
  pollMs?: number;
  /** first retry delay of a failing reaction; doubles up to 60 s */
  retryMs?: number;
  /** deterministic failures of one reaction before it is parked (default 5) */
  maxAttempts?: number;
  /** told of every reaction's outcome (metrics) */
  observe?: (reactor: string, outcome: 'done' | 'failed' | 'parked') => void;
  /** which reactors this instance runs when several share the database (lease.ts); all by default */
  leases?: FollowerLeases;
  /** appends that wake a reactor: the store's own, plus other instances' (follower-feed.ts) */
  appended$?: Observable<AppendedTypes>;
}

/** How long a reactor this instance does not run waits for its lease before looking again. */
const LEASE_WAIT_MS = 1_000;

/**
 * Runs reactors over the event store, each from its own checkpoint. The checkpoint moves only
 * after an event's reaction succeeded or was parked, so every handled event is reacted to at least
 * once; a failing reaction is retried (with backoff) before the reactor moves on, keeping order.
 * No transaction is held open during a reaction: side effects talk to the outside world.
 *
 * One event never stops a reactor. A transient failure (the database or the network is down:
 * readmodel/failures.ts) is retried for as long as it lasts: every reaction would fail alike, and
 * parking them all would lose them. Any other failure is retried up to `maxAttempts` times in all
 * (5 by default: 0.5 + 1 + 2 + 4 s of backoff); then the reaction is parked in reactor_failures
 * (event id, position, stream, type, error, attempts; one error log line) and the reactor goes on
 * with the next event. A parked reaction is not tried again by itself.
 */
export class ReactorRunner {
  private running = false;
  private loops: Promise<void>[] = [];
  /** one per reactor: each wakes only for appends of the types it handles */
  private readonly wakes: Map<string, WakeUp>;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly retryMs: number;
  private readonly maxAttempts: number;
  private readonly observe: NonNullable<Options['observe']>;
  private readonly leases: FollowerLeases;

  constructor(
    private readonly store: EventStore,
    private readonly db: DataSource,
    readonly reactors: readonly Reactor[],
    private readonly log: Logger,
    options: Options = {},
  ) {
    this.wakes = new Map(reactors.map((r) => [r.name, WakeUp.forTypes(options.appended$ ?? store.appendedTypes$, r.handles)]));
    this.batchSize = options.batchSize ?? 200;
    this.pollMs = options.pollMs ?? 250;
    this.retryMs = options.retryMs ?? 500;
    this.maxAttempts = options.maxAttempts ?? 5;
    this.observe = options.observe ?? (() => undefined);
    this.leases = options.leases ?? SOLE_INSTANCE;
  }

  private abort = new AbortController();

  /**
   * Every reaction in flight may wait on the stop signal (a backoff, an FS poll), one wait at a
   * time: up to the reactors' summed concurrency listeners, which past Node's default of 10 made it
   * warn of a leak whenever more than 10 SAPI documents awaited their FS verdict.
   */
  private stopSignal(): AbortController {
    const controller = new AbortController();
    setMaxListeners(this.reactors.reduce((n, r) => n + (r.concurrency ?? 1), 0) + 10, controller.signal);
    return controller;
  }

  async start(): Promise<void> {
    this.running = true;
    this.abort = this.stopSignal();
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

  /** Every reactor's saved checkpoint (where a restart would resume). */
  async checkpoints(): Promise<{ name: string; position: Position; handles: readonly string[] }[]> {
    const rows: { name: string; position: string }[] = await this.db.query('SELECT name, position FROM reactor_checkpoints');
    return this.reactors.map((r) => ({ name: r.name, position: rows.find((row) => row.name === r.name)?.position ?? START, handles: r.handles }));
  }

  /** The reactions the named reactors (all by default) gave up on after their attempts. */
  async parked(names: readonly string[] = this.reactors.map((r) => r.name)): Promise<ParkedEvent[]> {
    return parkedEvents(this.db, 'reactor_failures', names);
  }

  private async save(name: string, position: Position): Promise<void> {
    await this.db.query('UPDATE reactor_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [name, position]);
  }

  private async follow(reactor: Reactor): Promise<void> {
    let position: Position | null = null;
    const handles = new Set(reactor.handles);
    let savedAt = Date.now();
    let unsaved = false;
    const leased = () => this.leases.held(reactor.name);
    while (this.running) {
      // Only the lease holder reacts (lease.ts); a new holder starts from the checkpoint row.
      if (!leased()) {
        position = null;
        unsaved = false;
        await this.leases.wait(reactor.name, LEASE_WAIT_MS);
        continue;
      }
      if (position === null) {
        try {
          position = await this.checkpoint(reactor.name);
          savedAt = Date.now();
        } catch (error) {
          this.log.error({ err: error, reactor: reactor.name }, 'reactor could not read its checkpoint');
          await this.wakeOf(reactor).backoff(this.retryMs);
          continue;
        }
      }
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
      reactor.observe?.(handled);
      try {
        if (!(await this.reactToBatch(reactor, handled, leased))) return;
      } catch (error) {
        // The database went away between a reaction and its checkpoint (a Postgres restart): go on
        // from the saved checkpoint once it is back. What was done and not saved is done again:
        // reactions are at least once, and their side effects carry fixed ids.
        this.log.error({ err: error, reactor: reactor.name }, 'reactor could not record its progress; resuming from its checkpoint');
        position = null;
        unsaved = false;
        await this.wakeOf(reactor).backoff(this.retryMs);
        continue;
      }
      const last = batch[batch.length - 1];
      // a lease lost during the batch: the next holder goes on from the checkpoint row
      if (!leased()) continue;
      if (last) {
        position = last.position;
        // Every write transaction holds back what all readers of the event store may see (see
        // postgres/position.ts), so a scan past events this reactor ignores is saved only now and
        // then; after a crash those are read again and ignored again. Reactions are saved at once.
        if (handled.length > 0 || Date.now() - savedAt >= IDLE_CHECKPOINT_MS) {
          const saved = await this.save(reactor.name, last.position).then(() => true, (error: unknown) => {
            this.log.error({ err: error, reactor: reactor.name }, 'reactor could not save its checkpoint; resuming from the last one saved');
            return false;
          });
          if (!saved) {
            position = null;
            await this.wakeOf(reactor).backoff(this.retryMs);
            continue;
          }
          savedAt = Date.now();
          unsaved = false;
        } else {
          unsaved = true;
        }
      }
      if (batch.length < this.batchSize) {
        const wake = this.wakeOf(reactor);
        await (position === null ? wake.sleep(this.pollMs, mark) : wake.idle(position, this.pollMs, mark));
      }
    }
    // A clean stop keeps the scan, so a restart does not read those events again.
    if (unsaved && position !== null && leased()) await this.save(reactor.name, position).catch(() => undefined);
  }

  /** Reacts to a batch's handled events (saving each as it goes when one at a time); false once the runner stops. */
  private async reactToBatch(reactor: Reactor, handled: RecordedEvent[], leased: () => boolean): Promise<boolean> {
    if ((reactor.concurrency ?? 1) > 1) {
      await this.reactConcurrently(reactor, handled);
      return this.running;
    }
    for (const event of handled) {
      if (!leased()) break;
      await this.reactUntilDone(reactor, event);
      if (!this.running) return false;
      await this.save(reactor.name, event.position);
    }
    return true;
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

  /** Reacts until the reaction succeeds, is parked, or the runner stops; never throws. */
  private async reactUntilDone(reactor: Reactor, event: RecordedEvent): Promise<void> {
    let deterministic = 0;
    let attempts = 0;
    try {
      const done = await retrying(async (attempt) => {
        if (!this.running) return false; // stopped during the backoff: it runs again on restart
        attempts = attempt + 1;
        await reactor.react(event, this.abort.signal);
        return true;
      }, {
        retries: Infinity,
        retryIf: (error, attempt) => {
          if (!this.running) return false; // stopped mid-reaction (an aborted wait): it runs again on restart
          if (failureKind(error) === 'deterministic') deterministic++;
          if (deterministic >= this.maxAttempts) return false;
          this.observe(reactor.name, 'failed');
          this.log.warn({ err: error, reactor: reactor.name, event_id: event.id, attempt }, 'reaction failed; retrying');
          return true;
        },
        backoff: (attempt) => this.wakeOf(reactor).backoff(Math.min(60_000, this.retryMs * 2 ** attempt)),
      });
      if (done) this.observe(reactor.name, 'done');
    } catch (error) {
      if (!this.running) return;
      this.observe(reactor.name, 'parked');
      return this.park(reactor, event, error, attempts);
    }
  }

  /** Records the reaction as parked (retrying the record while the database is away), so the reactor may go on. */
  private async park(reactor: Reactor, event: RecordedEvent, error: unknown, attempts: number): Promise<void> {
    await retrying(async () => {
      if (!this.running) return;
      await park(this.db, 'reactor_failures', reactor.name, event, error, attempts);
      this.log.error(
        { err: error, reactor: reactor.name, event_id: event.id, position: event.position, stream_id: event.streamId, type: event.type, attempts },
        'reaction keeps failing: parked it and goes on',
      );
    }, {
      retries: Infinity,
      retryIf: (recordError) => {
        if (!this.running) return false;
        this.log.warn({ err: recordError, reactor: reactor.name, event_id: event.id }, 'could not park a failed reaction; retrying');
        return true;
      },
      backoff: (tries) => this.wakeOf(reactor).backoff(Math.min(60_000, this.retryMs * 2 ** tries)),
    }).catch(() => undefined); // only when the runner stopped: the reaction runs again on restart
  }
}
