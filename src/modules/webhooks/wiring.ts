import type { Logger } from 'pino';
import { webhookEndpoints } from '../../../projections/webhook-endpoints/projector.ts';
import type { Core } from '../../platform/core.ts';
import { webhookRoutes } from './routes.ts';
import { WebhookDeliveryWorker } from './delivery-worker.ts';
import { webhookFanOutReactor } from './fan-out.ts';
import { WebhookQueue1764400000100, WebhookQueueAutovacuum1764400000300, WebhookQueueEventLog1766600000100, WebhookQueueNextAttempt1764400000200 } from './queue/migration.ts';
import { webhookQueue } from './queue/store.ts';
import type { WebhookSecrets } from './secret-box.ts';
import { sendWebhook } from './transport/sender.ts';
import { checkTarget, systemResolver, type Resolver } from '../../platform/http-client/target-guard.ts';
import type { Metrics } from '../../platform/metrics/metrics.ts';
import type { Module } from '../module.ts';

type WebhooksDeps = Pick<Core, 'config' | 'store' | 'ids' | 'clock' | 'readModels' | 'projections'> & {
  log: Logger;
  secrets: WebhookSecrets;
  /** DNS for the SSRF guard: the system's, or a test's stub */
  resolve?: Resolver;
  metrics: Pick<Metrics, 'webhookAttempts'>;
};

/**
 * Webhooks (issue 17): endpoint management, the fan-out from domain events to a durable delivery
 * queue, and the worker that delivers it, signed, retried and guarded against SSRF.
 */
export function webhooksModule(deps: WebhooksDeps): Module {
  const { webhooks } = deps.config;
  const queue = webhookQueue(deps.readModels);
  const guard = (url: string) => checkTarget(url, { allowLoopback: webhooks.allowLoopbackTargets, resolve: deps.resolve ?? systemResolver });
  const worker = new WebhookDeliveryWorker({
    db: deps.readModels, queue, clock: deps.clock, log: deps.log, secrets: deps.secrets, config: webhooks, checkTarget: guard, send: sendWebhook,
    observe: (outcome) => deps.metrics.webhookAttempts.inc({ outcome }),
  });
  const checkAtCreate = async (url: string) => {
    const verdict = await guard(url);
    if (verdict.ok) return { allowed: true as const };
    // the address a name resolved to stays in our log: the client reads only the general reason
    deps.log.info({ reason: verdict.reason, detail: verdict.detail }, 'webhook target refused at registration or change');
    return { allowed: false as const, reason: verdict.reason, message: verdict.message };
  };
  return {
    routes: webhookRoutes({ ...deps, queue, checkTarget: checkAtCreate, queued: (ids) => worker.queued(ids) }),
    projectors: [webhookEndpoints],
    reactors: [webhookFanOutReactor({ store: deps.store, clock: deps.clock, queue, queued: (ids) => worker.queued(ids) })],
    migrations: [WebhookQueue1764400000100, WebhookQueueNextAttempt1764400000200, WebhookQueueAutovacuum1764400000300, WebhookQueueEventLog1766600000100],
    workers: [worker],
  };
}
