import type { EntitySchema, MigrationInterface } from 'typeorm';
import { DataSource } from 'typeorm';
import { Checkpoints1763800000000 } from './checkpoints-migration.ts';
import type { Projector } from './projector.ts';

/**
 * The read side's TypeORM DataSource. Schema changes are hand-written migrations that live next to
 * their projector (reviewed SQL, never synchronize, never generated drop+add), run at start-up.
 */
export async function openReadModels(
  url: string,
  projectors: readonly Projector[],
  entities: readonly EntitySchema[],
  poolSize = 10,
): Promise<DataSource> {
  const migrations: (new () => MigrationInterface)[] = [Checkpoints1763800000000, ...projectors.flatMap((p) => p.migrations)];
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    entities: [...entities],
    migrations,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: { max: poolSize },
  });
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  return dataSource;
}
