import { timingSafeEqual, createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();
const LOOPBACK = (address: string) => {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(plain) !== 0 && (plain === '::1' || plain.startsWith('127.'));
};

/**
 * Who may read /metrics. With METRICS_TOKEN set: whoever sends it as `Authorization: Bearer`
 * (compared in constant time), from anywhere. Unset: only peers on loopback (a Prometheus or an
 * agent on the same host), since the figures name routes and volumes. The TCP peer decides,
 * never X-Forwarded-For: a proxy in front would make every client look local.
 */
export function mayReadMetrics(token: string | undefined, peer: string, authorization: string | undefined): boolean {
  if (token === undefined) return LOOPBACK(peer);
  const offered = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  return offered !== undefined && timingSafeEqual(digest(offered), digest(token));
}

/** GET /metrics in the Prometheus text format; 401 (token) or 403 (not loopback) otherwise, as plain text. */
export async function serveMetrics(registry: Registry, token: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
    return;
  }
  if (!mayReadMetrics(token, req.socket.remoteAddress ?? '', req.headers.authorization)) {
    const status = token === undefined ? 403 : 401;
    const why = token === undefined ? 'metrics are served to loopback peers only; set METRICS_TOKEN to read them from elsewhere\n' : 'a valid METRICS_TOKEN is required as a bearer token\n';
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...(status === 401 ? { 'www-authenticate': 'Bearer realm="metrics"' } : {}) }).end(why);
    return;
  }
  const body = await registry.metrics();
  res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
}
