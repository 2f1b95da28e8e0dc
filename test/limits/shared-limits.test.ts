import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestOrganisation } from '../support/organisation.ts';
import { eventually } from '../support/poll.ts';
import { call, startInstances, type Instance, type Instances } from '../e2e/support/instances.ts';
import { hasRedisServer, sharedRedis } from './support.ts';

/**
 * Limits two instances on one database share (issue 21 item 10): the request buckets, the
 * invalid-API-key guard, sign-in lock-outs, API-key revocation and the SAPI lock-out. Through Redis
 * when it is configured; without Redis, through the Postgres they share (before, each instance
 * kept its own buckets in memory, so N instances allowed N times the limit).
 */
for (const variant of ['postgres', 'redis'] as const) {
  describe(`limits shared by two instances (${variant === 'redis' ? 'through Redis' : 'through Postgres, no Redis'})`, function () {
    this.timeout(240_000);
    if (!process.env.DATABASE_URL) {
      it('not run on PGlite — one process; set DATABASE_URL to run two instances on Postgres');
      return;
    }
    let cluster: Instances;
    let a: Instance;
    let b: Instance;
    let stopRedis: (() => Promise<void>) | undefined;

    before(async function () {
      let redis: { url: string; prefix: string } | undefined;
      if (variant === 'redis') {
        if (!hasRedisServer() && !process.env.REDIS_URL) return this.skip();
        const shared = await sharedRedis();
        stopRedis = shared.stop;
        redis = { url: shared.url, prefix: `test-shared-${randomUUID()}:` };
      }
      cluster = await startInstances({ count: 2, rateLimit: true, redis });
      [a, b] = cluster.instances as [Instance, Instance];
    });
    after(async () => {
      await cluster?.close();
      await stopRedis?.();
    });

    it('request buckets: a Solo Free key (burst 15) spends one bucket over both instances', async () => {
      const org = await createTestOrganisation(a.services, 'Solo Free');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) for (const instance of [a, b]) statuses.push((await call(instance.api, 'GET', '/api-keys', org.apiKey)).status);
      expect(statuses.filter((s) => s === 200).length, String(statuses)).to.be.within(15, 16); // burst 15, plus what refilled meanwhile (10/min)
      expect(statuses.filter((s) => s === 429).length).to.be.at.least(4);
    });

    it('sign-in lock-out: 5 wrong passwords on each instance lock the account on both, even with the right password', async () => {
      const login = (instance: Instance, password: string) => call(instance.api, 'POST', '/auth/login', '', { email: cluster.demo.admin.email, password });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) for (const instance of [a, b]) statuses.push((await login(instance, `Wrong-pass${i}!`)).status);
      expect(statuses).to.deep.equal(Array(10).fill(401));
      for (const instance of [a, b]) {
        const locked = await login(instance, cluster.demo.admin.password);
        expect(locked.status).to.equal(429);
        expect(locked.body.detail.error).to.equal('too_many_attempts');
      }
    });

    it('an API key revoked through one instance is refused by the other at once, though it had just used it', async () => {
      const created = await call(a.api, 'POST', '/api-keys', cluster.demo.second_organisation.api_key, { name: 'revoked soon' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      const key: string = created.body.api_key;
      expect((await call(b.api, 'GET', '/api-keys', key)).status).to.equal(200);
      const revoked = await call(a.api, 'DELETE', `/api-keys/${created.body.id}`, cluster.demo.second_organisation.api_key);
      expect(revoked.status).to.be.oneOf([200, 204]);
      // the notice (sent in the projector's commit) reaches B within moments, not after B's 5 s cache
      const revokedAt = Date.now();
      await eventually(async () => !b.services.auth.apiKeys.holds(created.body.id), (gone) => gone, { everyMs: 5, withinMs: 5_000 });
      expect(Date.now() - revokedAt, 'ms until B forgot the key').to.be.below(1_000);
      expect((await call(b.api, 'GET', '/api-keys', key)).status).to.equal(401);
    });

    it('SAPI lock-out: wrong secrets on both instances count toward one lock, and both refuse the locked client', async () => {
      const company = cluster.demo.companies[0]!;
      const token = (instance: Instance, secret: string) =>
        call(instance.root, 'POST', '/sapi/auth/token', '', { client_id: company.sapi.client_id, client_secret: secret, grant_type: 'client_credentials' });
      const codes: string[] = [];
      for (let i = 0; i < 5; i++) codes.push((await token(i % 2 ? a : b, `wrong-${i}`)).body.error.code);
      expect(codes.slice(0, 4)).to.deep.equal(Array(4).fill('SAPI-AUTH-001'));
      for (const instance of [a, b]) expect((await token(instance, company.sapi.client_secret)).body.error.code).to.equal('SAPI-AUTH-LOCKED');
    });

    // last: it blocks this address for the instances' API-key lookups
    it('invalid-key guard: 5 bad keys on each instance block the address on both', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        for (const instance of [a, b]) statuses.push((await fetch(`${instance.api}/api-keys`, { headers: { 'x-api-key': `svc_wrong-${variant}-${i}` } })).status);
      }
      // the revoked key before counts as one failure of this address
      expect(statuses.slice(0, 9)).to.deep.equal(Array(9).fill(401));
      const blocked = await Promise.all([a, b].map(async (instance) => fetch(`${instance.api}/api-keys`, { headers: { 'x-api-key': 'svc_wrong-again' } })));
      for (const response of blocked) {
        expect(response.status).to.equal(429);
        expect(await response.json()).to.include({ error: 'rate_limit_exceeded' });
      }
    });
  });
}
