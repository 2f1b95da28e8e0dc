import pg from 'pg';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import type { ApiKeyLookup } from './api-key-lookup.ts';
import { REVOCATION_CHANNEL, parseRevocationNotice } from '../../../projections/shared/revocation-notice.ts';
import type { Revocations } from './revocations.ts';

const RECONNECT_MS = 1_000;

interface RevocationFeed {
  /** 'listen': Postgres LISTEN; 'in_process': PGlite, where this process is the only instance */
  readonly mode: 'listen' | 'in_process';
  close(): Promise<void>;
}

/**
 * Brings other instances' revocations to this one. On Postgres a dedicated connection LISTENs on
 * the revocation channel; after each (re)connection the list is reloaded from the read models, so
 * a notice sent while it was away is not lost, and while it is away the API-key cache trusts
 * entries for one second only. On PGlite nothing is listened to: its socket connections share one
 * session, so a notice comes back on the connection that sent it, never on a listener; and only
 * one process can open PGlite's files, so this instance hears every revocation from its own code.
 */
export async function startRevocationFeed(deps: { url: string; readModels: DataSource; revocations: Revocations; apiKeys: ApiKeyLookup; log: Logger }): Promise<RevocationFeed> {
  const { revocations, apiKeys, log } = deps;
  const [server] = (await deps.readModels.query('SELECT version() AS version')) as { version: string }[];
  if (/PGlite/i.test(server?.version ?? '')) {
    await revocations.reload();
    apiKeys.setNotified(true);
    return { mode: 'in_process', close: async () => {} };
  }

  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const lost = (error?: unknown) => {
    apiKeys.setNotified(false);
    if (closed) return;
    if (error) log.warn({ err: error }, 'revocation listener lost: API-key cache down to 1 s, reconnecting');
    client = null;
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), RECONNECT_MS);
    retry.unref();
  };
  async function connect(): Promise<void> {
    const listener = new pg.Client({ connectionString: deps.url });
    let gone = false;
    const drop = (error?: unknown) => {
      if (gone) return;
      gone = true;
      void listener.end().catch(() => {});
      if (client === listener || client === null) lost(error);
    };
    listener.on('error', drop);
    listener.on('end', () => drop(closed ? undefined : new Error('connection ended')));
    listener.on('notification', (message) => {
      if (message.channel !== REVOCATION_CHANNEL) return;
      const notice = parseRevocationNotice(message.payload);
      if (notice) revocations.learn(notice);
    });
    try {
      await listener.connect();
      await listener.query(`LISTEN ${REVOCATION_CHANNEL}`);
      if (closed) return void (await listener.end());
      client = listener;
      // listening first, then the list: a revocation in between is heard twice, never missed
      await revocations.reload();
      if (!gone) apiKeys.setNotified(true);
    } catch (error) {
      drop(error);
    }
  }
  await connect();
  return {
    mode: 'listen',
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}
