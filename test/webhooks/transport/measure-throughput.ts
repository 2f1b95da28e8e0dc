/**
 * How many webhook POSTs per second the sender sustains to a local receiver, signing each one.
 * A measurement, not a test: `npx tsx test/webhooks/transport/measure-throughput.ts [posts] [in flight]`.
 * Sender and receiver share this one process (one core does both). Pin it with `taskset -c 0`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { WebhookAgents } from '../../../src/modules/webhooks/transport/agents.ts';
import { sendWebhook } from '../../../src/modules/webhooks/transport/sender.ts';
import { legacySignature, svcSignature } from '../../../src/modules/webhooks/transport/signatures.ts';
import { WebhookReceiver } from '../../support/webhook-receiver.ts';

const posts = Number(process.argv[2] ?? 20_000);
const inFlight = Number(process.argv[3] ?? 8);
const secret = 'whsec_measure_throughput_0123456789abcdef';

const receiver = await WebhookReceiver.start({ record: false });
const agents = new WebhookAgents({ maxSockets: inFlight });
const agent = agents.for('bench-endpoint', 'http:');

async function post(): Promise<string> {
  const eventId = randomUUID();
  const body = JSON.stringify({ id: eventId, event: 'invoice.delivered', created_at: new Date().toISOString(), data: { invoice_id: randomUUID() } });
  const result = await sendWebhook({
    url: receiver.url(),
    address: '127.0.0.1',
    family: 4,
    headers: {
      'svc-signature': svcSignature(secret, Math.floor(Date.now() / 1000), body),
      'X-Webhook-Signature': legacySignature(secret, body),
      'X-Webhook-Event': 'invoice.delivered',
      'X-Webhook-Delivery': randomUUID(),
      'X-Webhook-Event-Id': eventId,
    },
    body,
    timeoutMs: 10_000,
    agent,
  });
  return result.outcome;
}

async function run(count: number): Promise<{ seconds: number; failures: number }> {
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < count) if ((await post()) !== 'success') failures++;
    }),
  );
  return { seconds: (performance.now() - started) / 1000, failures };
}

await run(2_000); // warm-up: sockets, JIT
const { seconds, failures } = await run(posts);
console.log(`${posts} POSTs, ${inFlight} in flight: ${Math.round(posts / seconds)} POSTs/s (${failures} failures, ${receiver.count} received)`);
agents.destroyAll();
await receiver.close();
