import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { Subject, type Observable, type Subscription } from 'rxjs';
import type { AppendedTypes, Position } from '../eventstore/port.ts';

/** The channel instances on one database tell each other about appends and projector positions. */
const FOLLOWER_CHANNEL = 'svc_followers';

/** How often an instance says it is there, and how long a peer counts as there after it last spoke. */
const HELLO_MS = 1_000;
const PEER_MS = 3_500;
const RECONNECT_MS = 1_000;
/** NOTIFY payloads must stay below 8000 bytes */
const MAX_PAYLOAD = 7_000;

/** What one instance tells the others; i: its id. */
interface Message {
  i: string;
  /** types it appended since its last message: wakes the followers that handle them */
  t?: string[];
  /**
   * the highest position of those appends: a follower that then reads below it was held back by
   * a transaction still open and reads again soon (WakeUp.idle) rather than at its next poll
   */
  a?: Position;
  /** positions of projectors it leads, reached since its last message */
  p?: Record<string, Position>;
}

/**
 * What several instances on one Postgres tell each other, so that whichever holds a follower's
 * lease (lease.ts) serves all of them:
 *
 * - appends: an instance's own appends wake its followers in process (the store's
 *   appendedTypes$); another instance's followers would only see them at their next poll. So
 *   every instance sends the types it appended, and each wakes its followers of those types.
 * - projector positions: read-your-writes waits until the named projectors reached the command's
 *   position (projection-runner.ts caughtUp). On an instance that does not lead a projector, its
 *   position is the one the leader reports here after each batch (its position in memory, which
 *   is ahead of the checkpoint row past events it does not handle), so a command answered by
 *   instance A is shown by a GET on instance B whichever instance projects.
 *
 * Messages go out one at a time on the feed's own connection, and whatever piles up while one is
 * in flight goes in the next: one NOTIFY serves many appends under load. An instance alone sends
 * nothing but its hello once a second (no peer heard within 3.5 s). A message lost while the
 * connection is away costs only time: followers still poll, and the runner reads the checkpoint
 * rows of projectors it does not lead every second.
 *
 * PGlite has one process (and its socket connections share one session, so a NOTIFY never reaches
 * another listener): no feed there (`NO_FEED`).
 */
export interface FollowerFeed {
  /** other instances' appends, to wake this instance's followers of those types */
  readonly appended$: Observable<AppendedTypes>;
  /** positions other instances reached with projectors they lead */
  readonly positions$: Observable<{ name: string; position: Position }>;
  /** tells the others that this instance's projector `name` reached `position` */
  report(name: string, position: Position): void;
  /** whether another instance spoke within the last few seconds */
  peers(): boolean;
  close(): Promise<void>;
}

export const NO_FEED: FollowerFeed = {
  appended$: new Subject<AppendedTypes>(),
  positions$: new Subject<{ name: string; position: Position }>(),
  report: () => undefined,
  peers: () => false,
  close: async () => {},
};

interface FollowerFeedOptions {
  url: string;
  log: Logger;
  /** this instance's own appends, to tell the others */
  appended: Observable<AppendedTypes>;
}

export async function followerFeed(options: FollowerFeedOptions): Promise<FollowerFeed> {
  const id = randomUUID();
  const appended$ = new Subject<AppendedTypes>();
  const positions$ = new Subject<{ name: string; position: Position }>();
  const peers = new Map<string, number>();
  const types = new Set<string>();
  let highest: Position = '';
  const positions = new Map<string, Position>();
  let client: pg.Client | null = null;
  let sending = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const hasPeers = () => {
    const now = Date.now();
    for (const [peer, at] of peers) if (now - at > PEER_MS) peers.delete(peer);
    return peers.size > 0;
  };

  const receive = (payload: string | undefined) => {
    let message: Message;
    try {
      message = JSON.parse(payload ?? '') as Message;
    } catch {
      return;
    }
    if (typeof message.i !== 'string' || message.i === id) return;
    peers.set(message.i, Date.now());
    if (Array.isArray(message.t) && message.t.length > 0) {
      appended$.next({ position: typeof message.a === 'string' ? message.a : '', types: message.t.filter((t) => typeof t === 'string') });
    }
    if (message.p && typeof message.p === 'object') {
      for (const [name, position] of Object.entries(message.p)) if (typeof position === 'string') positions$.next({ name, position });
    }
  };

  const lost = (connection: pg.Client, error?: unknown) => {
    if (client !== connection) return;
    client = null;
    void connection.end().catch(() => {});
    if (closed) return;
    options.log.warn({ err: error }, 'follower feed lost: followers fall back to polling; reconnecting');
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), RECONNECT_MS);
    retry.unref();
  };

  async function connect(): Promise<void> {
    const connection = new pg.Client({ connectionString: options.url, keepAlive: true, application_name: 'svc-follower-feed' });
    connection.on('error', (error) => lost(connection, error));
    connection.on('end', () => lost(connection, new Error('connection ended')));
    connection.on('notification', (message) => {
      if (message.channel === FOLLOWER_CHANNEL) receive(message.payload);
    });
    client = connection;
    try {
      await connection.connect();
      await connection.query(`LISTEN ${FOLLOWER_CHANNEL}`);
      if (closed) await connection.end();
    } catch (error) {
      lost(connection, error);
    }
  }

  /** Sends what piled up (or a bare hello), one message at a time. */
  async function flush(hello = false): Promise<void> {
    if (sending || !client) return;
    const share = hasPeers();
    if (!hello && !(share && (types.size > 0 || positions.size > 0))) return;
    const message: Message = { i: id };
    if (share && types.size > 0) {
      message.t = [...types];
      message.a = highest;
    }
    if (share && positions.size > 0) message.p = Object.fromEntries(positions);
    types.clear();
    highest = '';
    positions.clear();
    let payload = JSON.stringify(message);
    if (payload.length > MAX_PAYLOAD) payload = JSON.stringify({ i: id, t: message.t?.slice(0, 100), a: message.a }); // positions come again with the next batch; the poll covers them
    sending = true;
    try {
      await client.query('SELECT pg_notify($1, $2)', [FOLLOWER_CHANNEL, payload]);
    } catch (error) {
      options.log.debug({ err: error }, 'follower feed: could not send');
    } finally {
      sending = false;
    }
    if (types.size > 0 || positions.size > 0) void flush();
  }

  const ownAppends: Subscription = options.appended.subscribe(({ types: written, position }) => {
    if (!hasPeers()) return;
    for (const type of written) types.add(type);
    if (position > highest) highest = position;
    void flush();
  });
  const hello = setInterval(() => void flush(true), HELLO_MS);
  hello.unref();

  await connect();
  await flush(true);

  return {
    appended$,
    positions$,
    report(name, position) {
      if (!hasPeers()) return;
      positions.set(name, position);
      void flush();
    },
    peers: hasPeers,
    async close() {
      closed = true;
      clearInterval(hello);
      clearTimeout(retry);
      ownAppends.unsubscribe();
      const connection = client;
      client = null;
      await connection?.end().catch(() => {});
      appended$.complete();
      positions$.complete();
    },
  };
}
