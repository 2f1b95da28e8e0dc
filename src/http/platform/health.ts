import { Type } from '@sinclair/typebox';
import { defineRoute, type Route } from './route.ts';

const HealthBody = Type.Object(
  { status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]) },
  { additionalProperties: true, title: 'Health' },
);

/** `GET {prefix}/health`: public, exempt from rate limiting, fields from the composition root. */
export function healthRoute(health: () => Promise<Record<string, unknown>>): Route {
  return defineRoute({
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Service health',
    description: 'Public. `status` is `ok` when the service can answer; other fields describe its parts.',
    tags: ['system'],
    auth: 'public',
    responses: {
      200: { description: 'Healthy', schema: HealthBody },
      431: { description: 'Request headers above Node\'s 16 KB: answered by the HTTP server itself, without a body', schema: null },
      503: { description: 'A dependency is down', schema: HealthBody },
    },
    async handle({ log }) {
      try {
        return { status: 200, body: { ...(await health()), status: 'ok' } };
      } catch (err) {
        log.error({ err }, 'health check failed');
        return { status: 503, body: { status: 'unavailable' } };
      }
    },
  });
}
