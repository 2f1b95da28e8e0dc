import { expect } from 'chai';
import { seedDemoOrganisation, seedSecondOrganisation, type World } from '../../campaigns/support/world.ts';
import { walkLine, walkRoutes } from '../../campaigns/walk/walk.ts';
import { crossDeliveries } from '../../campaigns/walk/webhooks.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * The short form of `npm run campaign -- walk` (issue 21 item 7): organisation B on every route
 * of both doors, with the credential each route is meant for, aimed at one of A's resources of
 * every kind. The campaign walks every id with all three of B's credentials.
 */
describe('walk: organisation B on every route against A\'s resources (short)', function () {
  this.timeout(240_000);
  let svc: TestService;
  let hookA: WebhookReceiver;
  let hookB: WebhookReceiver;
  let a: World;
  let b: World;

  before(async () => {
    svc = await startTestService({ validateResponses: false });
    [hookA, hookB] = [await WebhookReceiver.start(), await WebhookReceiver.start()];
    b = await seedSecondOrganisation(svc, hookB.url());
    a = await seedDemoOrganisation(svc, hookA.url());
  });
  after(async () => {
    await hookA?.close();
    await hookB?.close();
    await svc?.close();
  });

  it('walks every registered route; A\'s resources are 404 to B (or refused as a nonexistent id is), and nothing of A\'s is in B\'s answers', async () => {
    const result = await walkRoutes(svc, a, b, { short: true });
    expect(result.unwalked).to.deep.equal([]);
    expect(result.walked).to.equal(result.registered);
    const misses = result.calls.filter((c) => c.verdict === 'MISS' || c.leaked.length > 0).map(walkLine);
    expect(misses).to.deep.equal([]);
    expect(result.calls.filter((c) => c.verdict === 'not found').length).to.be.greaterThan(40);
  });

  it('delivers A\'s events to A\'s webhook and none to B\'s', async () => {
    const hooks = await crossDeliveries(svc, a, hookA, hookB);
    expect(hooks.toA).to.be.greaterThan(0);
    expect(hooks.toB).to.equal(0);
  });
});
