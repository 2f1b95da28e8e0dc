import type { EntitySchema, MigrationInterface } from 'typeorm';
import { ScheduledWork1766300000000 } from '../schedule/migration.ts';
import { DataSource } from 'typeorm';
import { Checkpoints1763800000000 } from './checkpoints-migration.ts';
import { SetAsideIndexes1764900000000 } from './set-aside-indexes-migration.ts';
import { ParkedEvents1764100000000 } from './failures-migration.ts';
import type { Projector } from './projector.ts';

/**
 * The read side's TypeORM DataSource. Schema changes are hand-written migrations that live next to
 * their projector (reviewed SQL, never synchronize, never generated drop+add), run at start-up.
 *
 * Its commits do not wait for the WAL flush (synchronous_commit off on these connections only).
 * Everything written through them can be made again: read models with their checkpoints (rows and
 * checkpoint are lost together, and replayed from the events), reactor checkpoints (reactions are
 * idempotent) and last-used times. A Postgres crash may lose the last fraction of a second of
 * them, never an event: the event store has its own pool, with full durability, and its appends
 * no longer queue behind the read models' flushes. PGlite ignores the setting (its connections
 * share one session, the event store's included), so there every commit stays synchronous.
 */
export async function openReadModels(
  url: string,
  projectors: readonly Projector[],
  entities: readonly EntitySchema[],
  poolSize = 10,
): Promise<DataSource> {
  const dataSource = readModelsSource(url, poolSize);
  await migrateReadModels(dataSource, projectors, entities);
  return dataSource;
}

/**
 * The read models' DataSource, not yet open: modules are given it before the root knows every
 * projector whose migrations it runs (migrateReadModels opens it).
 */
export function readModelsSource(url: string, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: poolSize, options: '-c synchronous_commit=off' },
  });
}

/** Opens the read models with the projectors' migrations and the entities their queries use, and runs the migrations. */
export async function migrateReadModels(
  dataSource: DataSource, projectors: readonly Projector[], entities: readonly EntitySchema[], own: readonly (new () => MigrationInterface)[] = [],
): Promise<void> {
  const migrations: (new () => MigrationInterface)[] = [Checkpoints1763800000000, ParkedEvents1764100000000, SetAsideIndexes1764900000000, ScheduledWork1766300000000, ...projectors.flatMap((p) => p.migrations), ...own];
  dataSource.setOptions({ entities: [...entities], migrations });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
}
