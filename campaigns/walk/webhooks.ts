import type { TestService } from '../../test/support/service.ts';
import type { WebhookReceiver } from '../../test/support/webhook-receiver.ts';
import { eventually } from '../../test/support/poll.ts';
import { send } from '../support/http.ts';
import type { World } from '../support/world.ts';

/**
 * A raises more events (a test ping on its webhook, and whatever the walk set going); once A's
 * receiver has them and the outbox has had time to drain, B's receiver must hold nothing that
 * names A: an arrival carrying A's organisation id or any of A's ids counts as delivered to B.
 */
export async function crossDeliveries(svc: TestService, a: World, hookA: WebhookReceiver, hookB: WebhookReceiver): Promise<{ toB: number; toA: number; arrivalsAtB: number }> {
  const before = hookA.count;
  const ping = await send({ method: 'POST', url: `${svc.api}/connect/webhooks/${a.ids.webhook_id![0]}/test`, headers: { 'x-api-key': a.apiKey } });
  if (ping.status !== 202) throw new Error(`A's test ping: ${ping.status} ${ping.text}`);
  await eventually(async () => hookA.count, (n) => n > before, { what: "A's test ping at A's receiver", withinMs: 60_000 });
  // the deliveries of one outbox go out in order: a few more seconds lets any stray one to B arrive too
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const secrets = [...new Set(a.secrets)].filter((s) => s.length >= 6);
  const toB = hookB.arrivals.filter((arrival) => {
    const text = arrival.rawBody.toString('utf8');
    return secrets.some((s) => text.includes(s));
  }).length;
  return { toB, toA: hookA.count, arrivalsAtB: hookB.count };
}
