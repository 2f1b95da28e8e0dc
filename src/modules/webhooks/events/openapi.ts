import type { TSchema } from '@sinclair/typebox';
import { WEBHOOK_EVENT_SCHEMAS } from '../../../../schemas/webhook-events.ts';
import { EMITTED_WEBHOOK_EVENT_TYPES, WEBHOOK_CATALOGUE } from './catalogue.ts';

/** The headers every delivery carries (spec, Delivery headers and signature). */
export const WEBHOOK_HEADER_DOCS: readonly { name: string; description: string; required: boolean }[] = [
  { name: 'svc-signature', required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256>` over `{t}.{raw body}`, keyed with the plaintext `whsec_` secret; signed afresh on each attempt. Verify on the raw bytes, in constant time, and reject a `t` more than 300 s from your clock.' },
  { name: 'X-Webhook-Signature', required: true, description: 'Legacy HMAC-SHA256 keyed with the SHA-256 hash of the secret; kept for one deprecation cycle (see the consumer guide for the exact bytes).' },
  { name: 'X-Webhook-Event', required: true, description: 'The event type.' },
  { name: 'X-Webhook-Delivery', required: true, description: 'UUID of this attempt; a new one on every retry.' },
  { name: 'X-Webhook-Event-Id', required: true, description: 'The stable event id (the body\'s `id`), repeated on retries: deduplicate on it.' },
];

/** A TypeBox schema as plain JSON Schema (its symbol-keyed markers dropped). */
const plain = (schema: TSchema): Record<string, unknown> => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per emitted event type, with its body schema, when
 * it fires and the delivery headers. Any 2xx answer acknowledges; anything else (or no answer in
 * 10 s, or a redirect) is retried 5, 25, 125 and 625 s later, then dropped.
 */
export function openApiWebhooks(): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const type of EMITTED_WEBHOOK_EVENT_TYPES) {
    const entry = WEBHOOK_CATALOGUE[type];
    section[type] = {
      post: {
        operationId: `webhook_${type.replace(/\./g, '_')}`,
        summary: `${type} (${entry.envelope} envelope)`,
        description: `${entry.when}\n\nBody: compact UTF-8 JSON; read \`type\` when present (svc.event.v1), else \`event\` (legacy). New keys may appear in \`data\` within v1.`,
        tags: ['Webhooks'],
        security: [{ WebhookSignature: [] }],
        parameters: WEBHOOK_HEADER_DOCS.map((h) => ({ name: h.name, in: 'header', required: h.required, description: h.description, schema: { type: 'string' } })),
        requestBody: { required: true, content: { 'application/json': { schema: plain(WEBHOOK_EVENT_SCHEMAS[type]) } } },
        responses: {
          '2XX': { description: 'Received. Any 2xx acknowledges the event.' },
          default: { description: 'Not received (non-2xx, 3xx: redirects are not followed, or no answer within 10 s): retried up to 4 times, 5, 25, 125 and 625 s after each failure, then dropped.' },
        },
      },
    };
  }
  return section;
}
