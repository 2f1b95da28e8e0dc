import { Type, type TProperties } from '@sinclair/typebox';
import { defineRoute, type Route } from './route.ts';

const healthBody = (fields: TProperties) => Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('unavailable')], {
      description: '`ok`: every part works; `degraded`: it answers, but a part cannot (see its field, e.g. validation); `unavailable` (503): a dependency is down',
    }),
    node: Type.String({ description: 'the Node.js version the service runs on, `24.22.3`: an Access Point holding private keys runs on a supported runtime' }),
    ...Object.fromEntries(Object.entries(fields).map(([name, schema]) => [name, Type.Optional(schema)])),
  },
  { additionalProperties: true, title: 'Health' },
);

/**
 * `GET {prefix}/health`: public, exempt from rate limiting, fields from the composition root,
 * which may say `status: 'degraded'` (the service answers, a part of it cannot work). `fields`
 * documents a front door's own fields (optional: a 503 carries only the status).
 */
export function healthRoute(health: () => Promise<Record<string, unknown>>, fields: TProperties = {}): Route {
  const HealthBody = healthBody(fields);
  return defineRoute({
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Service health',
    description: 'Public. `status` is `ok` when the service and its parts work, `degraded` when it answers but a part cannot; other fields describe the parts.',
    tags: ['system'],
    auth: 'public',
    responses: {
      200: { description: 'Healthy', schema: HealthBody },
      431: { description: 'Request headers above Node\'s 16 KB: answered by the HTTP server itself, without a body', schema: null },
      503: { description: 'A dependency is down', schema: HealthBody },
    },
    async handle({ log }) {
      try {
        const fields = await health();
        return { status: 200, body: { ...fields, status: fields['status'] === 'degraded' ? 'degraded' : 'ok', node: process.versions.node } };
      } catch (err) {
        log.error({ err }, 'health check failed');
        return { status: 503, body: { status: 'unavailable', node: process.versions.node } };
      }
    },
  });
}
