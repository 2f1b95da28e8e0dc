import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import type { DomainEvent } from '../../commands/shared/decider.ts';
import { createEventStore } from '../../src/platform/eventstore/index.ts';
import { START } from '../../src/platform/eventstore/port.ts';
import { openReadModels } from '../../src/platform/readmodel/data-source.ts';
import { parkedEvents } from '../../src/platform/readmodel/failures.ts';
import { ProjectionRunner } from '../../src/platform/readmodel/projection-runner.ts';
import type { Projector } from '../../src/platform/readmodel/projector.ts';
import { freshDatabase } from './database.ts';

/** Events of one stream, appended in order (their revisions are what the projector sees). */
export interface StreamEvents {
  stream: string;
  events: DomainEvent<string, object>[];
}

export const inStream = (stream: string, ...events: DomainEvent<string, object>[]): StreamEvents => ({ stream, events });

/**
 * Given/When/Then for a projector: given events (appended to a real event store in a fresh test
 * database, PGlite or Postgres as the suite runs, and applied by the real projection runner, so
 * its one-statement new-rows path and `apply` both run as in production), then the rows a query
 * returns. Cast what the query returns (::text, ::int) so the expected rows read plainly.
 */
export function projectorSpec(projector: Projector) {
  return (...given: StreamEvents[]) => ({
    async then(query: string, expected: Record<string, unknown>[]): Promise<void> {
      const database = await freshDatabase();
      const pool = new pg.Pool({ connectionString: database.connectionString, max: 2 });
      const store = await createEventStore({ pool });
      const readModels = await openReadModels(database.connectionString, [projector], [], 2);
      try {
        let last = '';
        for (const { stream, events } of given) {
          const appended = events.map((e) => ({
            id: randomUUID(), type: e.type, data: e.data as Record<string, unknown>,
            metadata: { causationId: randomUUID(), correlationId: randomUUID(), actor: { type: 'system' as const, id: 'projector-given' } },
          }));
          last = (await store.append(stream, appended, 'any')).position;
        }
        // On Postgres an append is readable once every older transaction on the server has ended,
        // other databases' included (a busy machine's other suites): wait until the last one is.
        for (const until = Date.now() + 120_000; ; await new Promise((resolve) => setTimeout(resolve, 20))) {
          const visible = await store.readAll(START, 10_000);
          if ((visible[visible.length - 1]?.position ?? '') >= last) break;
          if (Date.now() > until) throw new Error(`the appends up to ${last} were not readable within 120 s`);
        }
        await new ProjectionRunner(store, readModels, [projector], pino({ level: 'silent' })).catchUp(projector);
        expect(await parkedEvents(readModels, 'projection_failures'), 'events the projector could not apply').to.deep.equal([]);
        expect(await readModels.query(query)).to.deep.equal(expected);
      } finally {
        await readModels.destroy();
        await store.close();
        await pool.end();
        await database.drop();
      }
    },
  });
}
