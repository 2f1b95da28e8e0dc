import { expect } from 'chai';
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { userCredentialsStream } from '../../events/identity.ts';
import { newTotpSecret, totpCode } from '../../src/modules/identity/totp.ts';
import { secretBox, SecretKeyConfigError } from '../../src/platform/secret-box.ts';
import { freshDatabase, type TestDatabase } from '../support/database.ts';
import { createTestOrganisation } from '../support/organisation.ts';
import { startTestService, type TestService } from '../support/service.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// TOTP secrets are sealed under TOTP_SECRET_KEY (issue 37): nothing in the database shows one, and
// enrolments stored in plaintext by an earlier release are sealed at the next start.
describe('TOTP secrets at rest', function () {
  this.timeout(180_000);
  const key = randomBytes(32).toString('base64');
  const box = secretBox(Buffer.from(key, 'base64'));
  let database: TestDatabase;
  let raw: pg.Client;
  let svc: TestService | undefined;

  const start = async () => (svc = await startTestService({ database, identity: { totpSecretKey: key } }));
  const stop = async () => {
    await svc?.close();
    svc = undefined;
  };
  const post = async (route: string, body: unknown, token?: string) => {
    const response = await fetch(`${svc!.api}${route}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
  /** The two-step sign-in with a code of the next time step (the one just used to confirm is spent). */
  const signInWithCode = async (user: { email: string; password: string }, secret: string) => {
    const first = await post('/auth/login', { email: user.email, password: user.password });
    expect(first.body).to.include({ two_factor_required: true });
    return post('/auth/login/totp', { challenge_token: first.body.challenge_token, code: totpCode(secret, new Date(Date.now() + 30_000)) });
  };
  /** Every row of every table of the database, as text: what anyone who can read the database sees. */
  const everything = async () => {
    const { rows: tables } = await raw.query<{ schema: string; name: string }>(`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`);
    expect(tables.map((t) => t.name)).to.include.members(['events', 'users']);
    const dumps: string[] = [];
    for (const t of tables) dumps.push(...(await raw.query<{ row: string }>(`SELECT r::text AS row FROM "${t.schema}"."${t.name}" r`)).rows.map((r) => r.row));
    return dumps.join('\n');
  };
  const credentialEvents = async (userId: string) =>
    (await raw.query<{ position: string; type: string; data: Json; metadata: Json }>(
      'SELECT global_position::text AS position, type, data, metadata FROM events WHERE stream_id = $1 ORDER BY global_position', [userCredentialsStream(userId)],
    )).rows;

  before(async () => {
    database = await freshDatabase();
    raw = new pg.Client({ connectionString: database.connectionString });
    await raw.connect();
  });
  after(async () => {
    await stop();
    await raw?.end();
    await database?.drop();
  });

  it('enrolment, confirmation and the two-step sign-in work over HTTP, and the database holds only the seal', async () => {
    await start();
    const user = (await createTestOrganisation(svc!.services, 'Team Business', ['accountant'])).users.accountant!;
    const session = await post('/auth/login', { email: user.email, password: user.password });
    const enrol = await post('/auth/2fa/enrol', {}, session.body.access_token);
    expect(enrol.status).to.equal(200);
    const secret = String(enrol.body.secret);
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect((await post('/auth/2fa/confirm', { code: totpCode(secret) }, session.body.access_token)).status).to.equal(200);
    const signedIn = await signInWithCode(user, secret);
    expect(signedIn.status).to.equal(200);
    expect(signedIn.body).to.have.property('access_token');

    expect(await everything()).not.to.contain(secret);
    const events = await credentialEvents(user.id);
    expect(events.map((e) => e.type)).to.deep.equal(['TotpSecretIssued', 'TotpEnabled', 'TotpCodeUsed']);
    const issued = events[0]!.data;
    expect(Object.keys(issued).sort()).to.deep.equal(['issued_at', 'secret_ciphertext', 'user_id']);
    expect(issued.secret_ciphertext).to.match(/^v1\./);
    expect(box.open(issued.secret_ciphertext)).to.equal(secret); // under TOTP_SECRET_KEY, and only under it
    expect(() => secretBox(randomBytes(32)).open(issued.secret_ciphertext)).to.throw();
    await stop();
  });

  it('an enrolment an earlier release stored in plaintext is sealed at the next start, in place, and still signs in', async () => {
    await start();
    const user = (await createTestOrganisation(svc!.services, 'Team Business', ['approver'])).users.approver!;
    // as a release before issue 37 wrote it: the secret in the event's payload
    const legacy = newTotpSecret();
    await svc!.services.store.append(userCredentialsStream(user.id), [{
      id: randomUUID(), type: 'TotpEnrolmentStarted', data: { user_id: user.id, secret: legacy, started_at: new Date().toISOString() },
      metadata: { actor: { type: 'user', id: user.id } },
    }], 'any');
    const session = await post('/auth/login', { email: user.email, password: user.password });
    expect((await post('/auth/2fa/confirm', { code: totpCode(legacy) }, session.body.access_token)).status).to.equal(200);
    await stop();
    // that release kept no record of rewrites: this store has not been through one
    await raw.query('DROP TABLE event_rewrites');
    const [stored] = await credentialEvents(user.id);
    expect(stored).to.include({ type: 'TotpEnrolmentStarted' });
    expect(JSON.stringify(stored!.data)).to.contain(legacy);

    // on a database of its own the key is configuration: without it the start fails and changes nothing
    const refused = await startTestService({ database, identity: { totpSecretKey: undefined } }).then(async (s) => {
      await s.close();
      return null;
    }, (error: unknown) => error);
    expect(refused).to.be.instanceOf(SecretKeyConfigError);
    expect((refused as Error).message).to.contain('TOTP_SECRET_KEY');
    expect((await credentialEvents(user.id))[0]).to.deep.equal(stored);

    await start();
    expect(await everything()).not.to.contain(legacy);
    const events = await credentialEvents(user.id);
    expect(events.map((e) => e.type)).to.deep.equal(['TotpSecretIssued', 'TotpEnabled']);
    const sealed = events[0]!;
    expect(sealed.position).to.equal(stored!.position); // the same event, rewritten where it was
    expect(sealed.metadata).to.deep.equal({ ...stored!.metadata, rewrittenFrom: 'TotpEnrolmentStarted' });
    expect(sealed.data).to.deep.equal({ user_id: user.id, secret_ciphertext: sealed.data.secret_ciphertext, issued_at: stored!.data.started_at });
    expect(box.open(sealed.data.secret_ciphertext)).to.equal(legacy);
    expect((await raw.query('SELECT name, events FROM event_rewrites')).rows).to.deep.equal([{ name: 'seal-totp-secrets', events: 1 }]);

    // the authenticator app the user set up before goes on working
    const signedIn = await signInWithCode(user, legacy);
    expect(signedIn.status).to.equal(200);
    expect(signedIn.body).to.have.property('access_token');

    // once per store: a further start rewrites nothing
    await stop();
    await start();
    expect((await raw.query('SELECT name, events FROM event_rewrites')).rows).to.deep.equal([{ name: 'seal-totp-secrets', events: 1 }]);
    expect((await credentialEvents(user.id))[0]).to.deep.equal(sealed);
  });
});
