import type { Logger } from 'pino';
import { BehaviorSubject, filter, firstValueFrom, map, race, timer, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { START, type AppendedTypes, type EventStore, type Position, type RecordedEvent } from '../eventstore/port.ts';
import { WakeUp } from '../eventstore/wake-up.ts';
import { SOLE_INSTANCE, type FollowerLeases } from '../followers/lease.ts';
import { failureKind, park, parkedEvents, type ParkedEvent } from './failures.ts';
import { restoreIndexes, setAsideIndexes } from './set-aside-indexes.ts';
import type { NewRows, Projector } from './projector.ts';

interface ProjectorStatus {
  name: string;
  position: Position;
  /** events after the checkpoint, counted up to `lagCap` */
  lag: number;
  lagCapped: boolean;
  updatedAt: Date | null;
  /** events it could not apply and went on past (projection_failures); a rebuild tries them again */
  parked: ParkedEvent[];
}

/** How long a following projector may leave a scan past events it does not handle unsaved. */
const IDLE_CHECKPOINT_MS = 5_000;

/** An event a projector cannot apply, recorded in the transaction that moves the checkpoint past it. */
interface Parked {
  event: RecordedEvent;
  error: unknown;
}

/**
 * What a projector's apply returned for the last batch of a catch-up (Projector.apply's `kept`),
 * held only while every batch since commits from where the one before left the checkpoint.
 */
interface Kept {
  value?: unknown;
}

interface Options {
  /** events per transaction while following the live store */
  batchSize?: number;
  /** events per transaction in catchUp (rebuilds): bigger batches, fewer round trips */
  catchUpBatchSize?: number;
  pollMs?: number;
  /** which projectors this instance runs when several share the database (lease.ts); all by default */
  leases?: FollowerLeases;
  /** appends that wake a projector: the store's own, plus other instances' (follower-feed.ts) */
  appended$?: Observable<AppendedTypes>;
  /** told where a projector this instance runs has got to after each batch (other instances wait on it) */
  report?: (name: string, position: Position) => void;
}

/** How often a projector this instance does not run reads its checkpoint row (when the leader's reports do not come). */
const UNLED_POLL_MS = 1_000;

/**
 * Runs projectors over the event store. Each batch is applied in one read-model transaction that
 * also moves the projector's checkpoint. The checkpoint row is locked and compared first, so two
 * runners (a second instance, or a rebuild from the CLI) never apply the same events twice: the one
 * that finds the checkpoint moved follows it instead.
 *
 * One event never stops a projector: when a batch fails for a reason in its events (failures.ts),
 * it is applied again in halves until the one event that fails alone is found; that event is
 * parked (projection_failures, one error log line) in the transaction that moves the checkpoint
 * past it, and every other event is applied. A transient failure (connection, deadlock, …) is
 * retried with backoff instead, never skipped. A rebuild forgets the parked events and parks
 * again whatever still fails.
 */
export class ProjectionRunner {
  private readonly positions: Map<string, BehaviorSubject<Position>>;
  /** The checkpoint as this runner last read or wrote it, and when. */
  private readonly saved = new Map<string, { position: Position; at: number }>();
  private running = false;
  /** one per projector: each wakes only for appends of the types it handles */
  private readonly wakes: Map<string, WakeUp>;
  private loops: Promise<void>[] = [];
  private readonly batchSize: number;
  private readonly catchUpBatchSize: number;
  private readonly pollMs: number;
  private readonly leases: FollowerLeases;
  private readonly report: NonNullable<Options['report']>;

  constructor(
    private readonly store: EventStore,
    private readonly db: DataSource,
    readonly projectors: readonly Projector[],
    private readonly log: Logger,
    options: Options = {},
  ) {
    this.positions = new Map(projectors.map((p) => [p.name, new BehaviorSubject<Position>(START)]));
    this.wakes = new Map(projectors.map((p) => [p.name, WakeUp.forTypes(options.appended$ ?? store.appendedTypes$, p.handles)]));
    this.batchSize = options.batchSize ?? 1000;
    this.catchUpBatchSize = options.catchUpBatchSize ?? options.batchSize ?? 5000;
    this.pollMs = options.pollMs ?? 250;
    this.leases = options.leases ?? SOLE_INSTANCE;
    this.report = options.report ?? (() => undefined);
  }

  /**
   * Another instance, which runs `name`, reached `position`: read-your-writes here waits on it.
   * Ignored for a projector this instance runs (its own position is the truth).
   */
  observe(name: string, position: Position): void {
    if (this.leases.held(name)) return;
    const subject = this.positions.get(name);
    if (subject && position > subject.value) subject.next(position);
  }

  /** Loads checkpoints and starts one catch-up-then-follow loop per projector. */
  async start(): Promise<void> {
    // a rebuild cut short left its read model without some indexes: build them again first
    const restored = await restoreIndexes(this.db, null);
    if (restored > 0) this.log.warn({ indexes: restored }, 'read-model indexes set aside by an unfinished rebuild were built again');
    for (const projector of this.projectors) {
      const position = await this.loadCheckpoint(projector.name);
      this.saved.set(projector.name, { position, at: Date.now() });
      this.position(projector.name).next(position);
    }
    this.running = true;
    for (const wake of this.wakes.values()) wake.start();
    this.loops = this.projectors.map((p) => this.follow(p));
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const wake of this.wakes.values()) wake.stop();
    await Promise.all(this.loops);
  }

  /**
   * Read-your-writes: resolves once every named projector (all by default) has passed `position`,
   * or after `timeoutMs`, whichever is first. Resolves true when caught up.
   */
  async caughtUp(position: Position, timeoutMs = 3000, names?: readonly string[]): Promise<boolean> {
    const subjects = (names ?? this.projectors.map((p) => p.name)).map((n) => this.position(n));
    const reached = Promise.all(subjects.map((s) => firstValueFrom(s.pipe(filter((p) => p >= position)))));
    return firstValueFrom(race(timer(timeoutMs).pipe(map(() => false)), reached.then(() => true)));
  }

  /**
   * Setup (demo, tests, benchmarks): waits until every projector shows all of `positions` (what
   * the setup's own appends returned), and throws if they do not within `timeoutMs`. The store's
   * visible head is no substitute: on Postgres it lags behind any transaction still open anywhere.
   */
  async shown(positions: readonly (Position | null)[], timeoutMs: number): Promise<void> {
    const last = positions.reduce<Position>((max, p) => (p !== null && p > max ? p : max), '');
    if (!(await this.caughtUp(last, timeoutMs))) throw new Error(`read models did not reach ${last} within ${timeoutMs} ms`);
  }

  /** Applies every event up to the head of the store for one projector; returns how many were read (with a type-filtering store: only its own). */
  async catchUp(projector: Projector): Promise<number> {
    await this.ensureCheckpoint(projector.name);
    const subject = this.position(projector.name);
    let total = 0;
    // Reading the next batch while the current one is applied roughly halves a rebuild on
    // Postgres; on PGlite the read simply waits for the transaction.
    const read = (after: Position) => this.catchUpRead(projector, after);
    let next = read(subject.value);
    const kept: Kept = {};
    for (;;) {
      const from = subject.value;
      const batch = await next;
      const last = batch[batch.length - 1];
      if (!last) return total;
      next = read(last.position);
      const reached = await this.applyBatch(projector, from, batch, false, kept);
      if (reached !== last.position) {
        await next.catch(() => []); // read from a position this runner no longer holds
        next = read(reached);
      }
      total += batch.length;
    }
  }

  /**
   * A catch-up page: only the events the projector handles when the store can filter them (a
   * rebuild then never reads the rest of the history; the checkpoint stays at the last event it
   * applied, and following moves it past the others), else every event with only those types' data.
   */
  private catchUpRead(projector: Projector, after: Position): Promise<RecordedEvent[]> {
    return this.store.readAllOfTypes
      ? this.store.readAllOfTypes(after, this.catchUpBatchSize, projector.handles, projector.readsMetadata === false ? [] : undefined)
      : this.store.readAll(after, this.catchUpBatchSize, projector.handles);
  }

  /**
   * Rebuilds a read model from history: reset (with its plain secondary indexes set aside), catch
   * up, then its indexes built once (set-aside-indexes.ts). Returns the events read.
   */
  async rebuild(projector: Projector): Promise<number> {
    await this.reset(projector, { setAsideIndexes: true });
    const events = await this.catchUp(projector);
    await restoreIndexes(this.db, projector.name);
    return events;
  }

  /** Empties a projector's tables, forgets its parked events and resets its checkpoint in one transaction; replay with catchUp. */
  async reset(projector: Projector, options: { setAsideIndexes?: boolean } = {}): Promise<void> {
    await this.ensureCheckpoint(projector.name);
    await this.db.transaction(async (tx) => {
      await tx.query(`SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE`, [projector.name]);
      if (projector.tables.length > 0) await tx.query(`TRUNCATE ${projector.tables.join(', ')}`);
      if (options.setAsideIndexes) await setAsideIndexes(tx, projector.name, projector.tables);
      await tx.query('DELETE FROM projection_failures WHERE name = $1', [projector.name]);
      await tx.query(`UPDATE projection_checkpoints SET position = '', updated_at = now() WHERE name = $1`, [projector.name]);
    });
    this.saved.set(projector.name, { position: START, at: Date.now() });
    this.position(projector.name).next(START);
  }

  /** The events the named projectors (all by default) could not apply and went on past. */
  async parked(names: readonly string[] = this.projectors.map((p) => p.name)): Promise<ParkedEvent[]> {
    return parkedEvents(this.db, 'projection_failures', names);
  }

  /** Where each projector is in this process now (ahead of its saved checkpoint between saves). */
  current(): { name: string; position: Position; handles: readonly string[] }[] {
    return this.projectors.map((p) => ({ name: p.name, position: this.position(p.name).value, handles: p.handles }));
  }

  async status(lagCap = 10_000): Promise<ProjectorStatus[]> {
    const rows: { name: string; position: string; updated_at: Date }[] = await this.db.query(
      'SELECT name, position, updated_at FROM projection_checkpoints',
    );
    const parked = await this.parked();
    return Promise.all(
      this.projectors.map(async (p) => {
        const row = rows.find((r) => r.name === p.name);
        const position = row?.position ?? START;
        const ahead = await this.store.readAll(position, lagCap + 1);
        return {
          name: p.name, position, lag: Math.min(ahead.length, lagCap), lagCapped: ahead.length > lagCap, updatedAt: row?.updated_at ?? null,
          parked: parked.filter((f) => f.name === p.name),
        };
      }),
    );
  }

  private position(name: string): BehaviorSubject<Position> {
    const subject = this.positions.get(name);
    if (!subject) throw new Error(`unknown projector ${name}`);
    return subject;
  }

  /** Every projector has its checkpoint row before any batch, so a missing row never reads as "moved". */
  private async ensureCheckpoint(name: string): Promise<void> {
    await this.db.query(`INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, [name]);
  }

  private async loadCheckpoint(name: string): Promise<Position> {
    await this.ensureCheckpoint(name);
    const rows: { position: string }[] = await this.db.query('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
    return rows[0]?.position ?? START;
  }

  private async follow(projector: Projector): Promise<void> {
    const wake = this.wakes.get(projector.name) as WakeUp;
    let failures = 0;
    while (this.running) {
      try {
        if (!this.leases.held(projector.name)) {
          await this.awaitLease(projector);
          continue;
        }
        const mark = wake.mark();
        const before = this.position(projector.name).value;
        const read = await this.step(projector);
        failures = 0;
        const after = this.position(projector.name).value;
        if (after !== before) this.report(projector.name, after);
        if (read < this.batchSize) await wake.idle(after, this.pollMs, mark);
      } catch (error) {
        failures++;
        this.log.error({ err: error, projector: projector.name }, 'projector failed; retrying');
        await wake.backoff(Math.min(30_000, 250 * 2 ** failures));
      }
    }
    // A clean stop writes the idle scan, so a restart does not read those events again.
    const position = this.position(projector.name).value;
    if (this.leases.held(projector.name) && position !== this.saved.get(projector.name)?.position) {
      await this.commit(projector, position, [], position).catch((error: unknown) => {
        this.log.warn({ err: error, projector: projector.name }, 'could not save the checkpoint on stop');
      });
    }
  }

  /**
   * While another instance runs the projector: its position comes from that instance's reports
   * (observe), and from the checkpoint row every second. Once this instance holds the lease, it
   * goes on from the checkpoint row (the previous holder's last commit).
   */
  private async awaitLease(projector: Projector): Promise<void> {
    if (await this.leases.wait(projector.name, UNLED_POLL_MS)) {
      const position = await this.loadCheckpoint(projector.name);
      this.saved.set(projector.name, { position, at: Date.now() });
      this.position(projector.name).next(position);
      this.log.warn({ projector: projector.name, position }, 'projector lease taken: this instance runs it');
    } else if (this.running) {
      this.observe(projector.name, await this.storedCheckpoint(projector.name));
    }
  }

  /** One batch: read outside any transaction, then apply and move the checkpoint atomically. */
  private async step(projector: Projector): Promise<number> {
    const from = this.position(projector.name).value;
    const batch = await this.store.readAll(from, this.batchSize, projector.handles);
    if (batch.length > 0) await this.applyBatch(projector, from, batch, true);
    return batch.length;
  }

  /**
   * Applies a batch read from `from` and moves the checkpoint to its end, in one transaction;
   * returns where the checkpoint is now (another runner's position if it had moved it). While
   * following (`skipIdle`), a batch with nothing for this projector only moves the position in
   * memory, and is written with the next batch that has something, after IDLE_CHECKPOINT_MS, or
   * on stop: every write transaction holds back what all readers of the event store may see
   * (postgres/position.ts), so a busy store should not pay one per projector per append.
   */
  private async applyBatch(projector: Projector, from: Position, batch: readonly RecordedEvent[], skipIdle = false, kept: Kept = {}): Promise<Position> {
    const last = batch[batch.length - 1];
    if (!last) return from;
    const handles = new Set(projector.handles);
    const handled = batch.filter((e) => handles.has(e.type));
    const savedAt = this.saved.get(projector.name)?.at ?? 0;
    const subject = this.position(projector.name);
    if (skipIdle && handled.length === 0 && subject.value === from && Date.now() - savedAt < IDLE_CHECKPOINT_MS) {
      subject.next(last.position);
      return last.position;
    }
    return this.commitIsolating(projector, from, handled, last.position, kept);
  }

  /**
   * commit; when that fails for a reason in the events, the same in halves, until the one event
   * that fails alone is found and parked. A batch with one poison event costs about two commits
   * per halving (a dozen for 5000 events), not one per event.
   */
  private async commitIsolating(projector: Projector, from: Position, handled: readonly RecordedEvent[], to: Position, kept: Kept = {}): Promise<Position> {
    try {
      return await this.commit(projector, from, handled, to, undefined, kept);
    } catch (error) {
      kept.value = undefined;
      if (handled.length === 0 || failureKind(error) === 'transient') throw error;
      const [only] = handled;
      if (only && handled.length === 1) return this.commit(projector, from, [], to, { event: only, error });
      const half = Math.ceil(handled.length / 2);
      const end = (handled[half - 1] as RecordedEvent).position;
      const reached = await this.commitIsolating(projector, from, handled.slice(0, half), end);
      if (reached !== end) return reached; // another runner moved the checkpoint: follow it
      return this.commitIsolating(projector, end, handled.slice(half), to);
    }
  }

  /**
   * Applies `handled` (the events after `from` up to `to`) and moves the checkpoint to `to`, if
   * the stored checkpoint is still the one this runner last saved and `from` is where this runner
   * is: everything between the two was skipped as idle. Otherwise another runner (or a concurrent
   * catchUp) moved it, and this one follows the stored checkpoint, applying nothing.
   */
  private async commit(projector: Projector, from: Position, handled: readonly RecordedEvent[], to: Position, parked?: Parked, kept: Kept = {}): Promise<Position> {
    const saved = this.saved.get(projector.name)?.position;
    const expected = saved ?? from;
    const held = kept.value;
    kept.value = undefined; // set again only by an apply that committed from where the last one left off
    let reached: Position;
    if (saved !== undefined && from !== this.position(projector.name).value) {
      reached = await this.storedCheckpoint(projector.name);
    } else {
      // undefined: nothing to apply, only the checkpoint moves; null: apply runs in a transaction
      const rows = handled.length === 0 ? undefined : (projector.newRows?.(handled) ?? null);
      if (rows === null || parked) {
        const done = await this.commitInTransaction(projector, expected, handled, to, parked, held);
        reached = done.reached;
        if (reached === to && !parked) kept.value = done.kept;
      } else {
        reached = await this.commitInOneStatement(projector.name, expected, to, rows);
        if (reached === to && rows === undefined) kept.value = held; // no row changed
      }
      if (parked && reached === to) {
        const { event, error } = parked;
        this.log.error(
          { err: error, projector: projector.name, event_id: event.id, position: event.position, stream_id: event.streamId, type: event.type },
          'projector cannot apply this event: parked it (projections status) and goes on',
        );
      }
    }
    this.saved.set(projector.name, { position: reached, at: Date.now() });
    this.position(projector.name).next(reached);
    return reached;
  }

  /**
   * Moving the checkpoint first, only if it is still where this runner left it, takes the row lock
   * and checks in one statement: a second runner waits here, then finds it moved.
   */
  private async commitInTransaction(
    projector: Projector, expected: Position, handled: readonly RecordedEvent[], to: Position, parked?: Parked, held?: unknown,
  ): Promise<{ reached: Position; kept?: unknown }> {
    return this.db.transaction(async (tx) => {
      // TypeORM answers an UPDATE with [rows, affected]
      const [, moved] = (await tx.query(
        'UPDATE projection_checkpoints SET position = $3, updated_at = now() WHERE name = $1 AND position = $2',
        [projector.name, expected, to],
      )) as [unknown[], number];
      if (moved === 0) return { reached: await this.storedCheckpoint(projector.name, tx) };
      const kept = handled.length > 0 ? await projector.apply(handled, tx, held) : held;
      if (parked) await park(tx, 'projection_failures', projector.name, parked.event, parked.error);
      return { reached: to, kept };
    });
  }

  /**
   * The same as commitInTransaction for a batch of new rows (or none), in one statement: the
   * checkpoint's conditional UPDATE and the INSERT are data-modifying CTEs of one statement, so
   * they commit together, and the INSERT takes its rows only from a checkpoint that moved.
   */
  private async commitInOneStatement(name: string, expected: Position, to: Position, rows: NewRows | undefined): Promise<Position> {
    const insert = rows ? `, inserted AS (${rows.insert('(SELECT $4::jsonb FROM moved)')})` : '';
    const result: { moved: number }[] = await this.db.query(
      `WITH moved AS (
         UPDATE projection_checkpoints SET position = $3, updated_at = now() WHERE name = $1 AND position = $2 RETURNING 1
       )${insert}
       SELECT count(*)::int AS moved FROM moved`,
      rows ? [name, expected, to, JSON.stringify(rows.rows)] : [name, expected, to],
    );
    return result[0]?.moved === 1 ? to : this.storedCheckpoint(name);
  }

  private async storedCheckpoint(name: string, tx: Pick<DataSource, 'query'> = this.db): Promise<Position> {
    const rows: { position: string }[] = await tx.query('SELECT position FROM projection_checkpoints WHERE name = $1', [name]);
    return rows[0]?.position ?? START;
  }
}
