import type { DataSource } from 'typeorm';

/**
 * Something to look at when it is due: `kind` picks the handler, `key` names what (an invoice),
 * `lane` whom it waits on, `ref` what caused it (an event id: derived ids and causation).
 */
export interface Scheduled {
  kind: string;
  key: string;
  lane: string;
  ref: string;
  due_at: Date;
}

/** A row claimed for a run: `runs` counts this one; `revision` tells whether it was scheduled again meanwhile. */
export interface ClaimedWork {
  kind: string;
  key: string;
  lane: string;
  ref: string;
  due_at: Date;
  /** when it was (last) scheduled */
  scheduled_at: Date;
  runs: number;
  revision: number;
  lease_until: Date;
}

/** The schedule's statements, each one round trip whatever the number of rows. */
export function scheduleStore(db: DataSource) {
  return {
    /**
     * Schedules work, or moves work already scheduled to the new time (a reaction repeated after a
     * crash schedules again: the handler reads the state and finds it early or done).
     */
    async schedule(rows: readonly Scheduled[], now: Date): Promise<void> {
      if (rows.length === 0) return;
      await db.query(
        `INSERT INTO scheduled_work (kind, key, lane, ref, due_at, scheduled_at)
         SELECT kind, key, lane, ref, due_at, $2 FROM jsonb_to_recordset($1::jsonb) AS r(kind text, key text, lane text, ref text, due_at timestamptz)
         ON CONFLICT (kind, key) DO UPDATE SET due_at = EXCLUDED.due_at, lane = EXCLUDED.lane, ref = EXCLUDED.ref, scheduled_at = EXCLUDED.scheduled_at,
           revision = scheduled_work.revision + 1`,
        [JSON.stringify(rows.map((r) => ({ ...r, due_at: r.due_at.toISOString() }))), now.toISOString()],
      );
    },

    /**
     * Takes up to `limit` due rows of the `kinds` named, at most `perLane` of each lane less what
     * already runs of it here (`running`: lane → runs in flight on this instance; a lane at
     * `perLane` gets none), earliest due first, leased to `owner` until `leaseUntil`. Counting what
     * runs here keeps a claim from taking rows the worker would only give back (one busy receiver
     * took up to perLane rows a claim, and released all but the free slots' worth, two statements
     * for nothing each). The outer condition is checked again on the row as it is when its lock is
     * granted, so two instances claiming at once never take the same row.
     */
    async claim(kinds: readonly string[], now: Date, limit: number, perLane: number, running: ReadonlyMap<string, number>, leaseUntil: Date, owner: string): Promise<ClaimedWork[]> {
      if (limit <= 0) return [];
      const full = [...running].filter(([, n]) => n >= perLane).map(([lane]) => lane);
      const partly = [...running].filter(([, n]) => n > 0 && n < perLane);
      // TypeORM answers an UPDATE on Postgres with [rows, affected]
      const [rows] = (await db.query(
        `UPDATE scheduled_work w SET lease_until = $3, lease_owner = $7, runs = w.runs + 1
         FROM (SELECT per_lane.kind, per_lane.key FROM (
                 SELECT kind, key, lane, due_at, row_number() OVER (PARTITION BY lane ORDER BY due_at) AS n FROM scheduled_work
                 WHERE kind = ANY($5::text[]) AND due_at <= $1 AND (lease_until IS NULL OR lease_until <= $1) AND NOT (lane = ANY($4::text[]))) per_lane
               LEFT JOIN unnest($8::text[], $9::int[]) AS here(lane, running) ON here.lane = per_lane.lane
               WHERE per_lane.n <= $6 - coalesce(here.running, 0) ORDER BY per_lane.due_at LIMIT $2) c
         WHERE w.kind = c.kind AND w.key = c.key AND (w.lease_until IS NULL OR w.lease_until <= $1)
         RETURNING w.kind, w.key, w.lane, w.ref, w.due_at, w.scheduled_at, w.runs, w.revision, w.lease_until`,
        [now.toISOString(), limit, leaseUntil.toISOString(), full, kinds, perLane, owner, partly.map(([lane]) => lane), partly.map(([, n]) => n)],
      )) as [ClaimedWork[], number];
      return rows.map((r) => ({ ...r, due_at: new Date(r.due_at), scheduled_at: new Date(r.scheduled_at), lease_until: new Date(r.lease_until) }));
    },

    /** Keeps the owner's rows that are still running leased until `leaseUntil` (a heartbeat: a crashed owner's leases run out). */
    async renew(owner: string, keys: readonly { kind: string; key: string }[], leaseUntil: Date): Promise<void> {
      if (keys.length === 0) return;
      await db.query(
        `UPDATE scheduled_work w SET lease_until = $3 FROM jsonb_to_recordset($2::jsonb) AS r(kind text, key text)
         WHERE w.kind = r.kind AND w.key = r.key AND w.lease_owner = $1`,
        [owner, JSON.stringify(keys.map(({ kind, key }) => ({ kind, key }))), leaseUntil.toISOString()],
      );
    },

    /**
     * Ends the owner's run: the row is due again at `next`, or gone when there is nothing left to
     * do. A row scheduled again while it ran keeps that new time and is only released.
     */
    async finish(work: ClaimedWork, next: Date | null, owner: string): Promise<void> {
      // one statement each (a row finishes several times per document sent): the row of the run is
      // deleted or moved to `next`; one scheduled again meanwhile (another revision) is only released
      if (next === null) {
        await db.query(
          `WITH done AS (DELETE FROM scheduled_work WHERE kind = $1 AND key = $2 AND revision = $3 AND lease_owner = $4 RETURNING 1)
           UPDATE scheduled_work SET lease_until = NULL, lease_owner = NULL WHERE kind = $1 AND key = $2 AND lease_owner = $4 AND NOT EXISTS (SELECT 1 FROM done)`,
          [work.kind, work.key, work.revision, owner],
        );
      } else {
        await db.query(
          `UPDATE scheduled_work SET due_at = CASE WHEN revision = $3 THEN $4::timestamptz ELSE due_at END, lease_until = NULL, lease_owner = NULL
           WHERE kind = $1 AND key = $2 AND lease_owner = $5`,
          [work.kind, work.key, work.revision, next.toISOString(), owner],
        );
      }
    },

    /** Gives the owner's row back as it was, lease released (a run cut off by a stop: a restart runs it at once). */
    async release(work: Pick<ClaimedWork, 'kind' | 'key'>, owner: string): Promise<void> {
      await db.query('UPDATE scheduled_work SET lease_until = NULL, lease_owner = NULL WHERE kind = $1 AND key = $2 AND lease_owner = $3', [work.kind, work.key, owner]);
    },

    /** Releases every lease on rows of the `kinds` (at start, when no other process can hold one: a crashed one's). */
    async releaseAll(kinds: readonly string[]): Promise<void> {
      await db.query('UPDATE scheduled_work SET lease_until = NULL, lease_owner = NULL WHERE kind = ANY($1::text[]) AND lease_until IS NOT NULL', [kinds]);
    },

    /** When the earliest row of the `kinds` not yet due is due (the worker sleeps until then, or its poll). */
    async next(kinds: readonly string[], now: Date): Promise<Date | null> {
      const rows: { next: Date | null }[] = await db.query('SELECT min(due_at) AS next FROM scheduled_work WHERE kind = ANY($2::text[]) AND due_at > $1', [now.toISOString(), kinds]);
      return rows[0]?.next ? new Date(rows[0].next) : null;
    },

    /** What is scheduled of a kind (tests, status). */
    async list(kind: string): Promise<{ key: string; lane: string; due_at: Date; runs: number; lease_until: Date | null }[]> {
      return db.query('SELECT key, lane, due_at, runs, lease_until FROM scheduled_work WHERE kind = $1 ORDER BY due_at, key', [kind]);
    },
  };
}

export type ScheduleStore = ReturnType<typeof scheduleStore>;
