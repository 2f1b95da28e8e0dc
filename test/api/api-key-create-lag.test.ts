import { expect } from 'chai';
import { startTestService, type TestService } from '../support/service.ts';

// Found by the fuzz campaign on Postgres: under load the api-keys read model was still behind
// when the bounded read-your-writes wait ended, and POST /api-keys answered 404
// api_key_not_found for a key it had issued, losing the only copy of its plaintext.
describe('POST /api-keys while the read model is behind', function () {
  this.timeout(120_000);
  let svc: TestService;

  before(async () => {
    svc = await startTestService();
  });
  after(async () => svc?.close());

  it('answers 201 with the key from the decided event, not a 404', async () => {
    await svc.services.projections.stop();
    const saved = svc.services.config.readYourWritesTimeoutMs;
    svc.services.config.readYourWritesTimeoutMs = 50;
    try {
      const res = await svc.call('POST', '/api-keys', { name: 'lagging', expires_in_days: 30 });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.api_key).to.match(/^svc_/);
      expect(res.body).to.include({ name: 'lagging', is_active: true, last_used_at: null });
      expect(res.headers.get('location')).to.equal(`/api/v1/api-keys/${res.body.id}`);
    } finally {
      svc.services.config.readYourWritesTimeoutMs = saved;
    }
  });
});
