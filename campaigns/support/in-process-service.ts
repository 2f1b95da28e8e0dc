import { startTestService, type TestService } from '../../test/support/service.ts';

/** Where the Postgres runs are made: CAMPAIGN_POSTGRES_URL, else the local server (each run makes a fresh database on it). */
export const POSTGRES_URL = process.env.CAMPAIGN_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The whole service with the demo, in this process on a real socket, on a fresh database of the
 * kind asked for (an in-memory PGlite served over a socket, or a new database on Postgres,
 * dropped on close). The service does not check its own answers: a campaign sees what a deployed
 * service sends.
 */
export async function startCampaignService(database: 'pglite' | 'postgres', options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const saved = process.env.DATABASE_URL;
  if (database === 'postgres') process.env.DATABASE_URL = POSTGRES_URL;
  else delete process.env.DATABASE_URL;
  try {
    return await startTestService({ validateResponses: false, ...options });
  } finally {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  }
}
