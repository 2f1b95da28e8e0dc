/**
 * One HTTP exchange with a host someone else named (a URL from DNS, an SMP, a client): the target
 * guard (target-guard.ts) judges every address the host resolves to, and the request then connects
 * to exactly the address it admitted, so a second DNS answer (rebinding) cannot steer it. No
 * redirect is followed (a 3xx is a failure), the answer's body is bounded, and the whole exchange
 * (connect, headers, body) has one deadline. Failures carry a general `reason` fit for a client
 * and a `detail` (host, address, status) for our logs only.
 */
import type { IncomingHttpHeaders } from 'node:http';
import http from 'node:http';
import https from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { checkTarget, type TargetOptions } from './target-guard.ts';

export interface GuardedRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** the whole exchange: resolve, connect, send, headers and body */
  timeoutMs: number;
  /** an answer with a longer body is a failure (`too_large`), read no further */
  maxBodyBytes: number;
  /** the guard's rules: which addresses may be called and how names resolve */
  guard: TargetOptions;
}

export type GuardedFailure = 'refused_target' | 'redirect' | 'timeout' | 'too_large' | 'connection';

export type GuardedAnswer =
  | { ok: true; status: number; headers: IncomingHttpHeaders; body: Buffer }
  | { ok: false; failure: GuardedFailure; reason: string; detail: string };

export async function guardedRequest(request: GuardedRequest): Promise<GuardedAnswer> {
  const deadline = Date.now() + request.timeoutMs;
  const target = await withDeadline(checkTarget(request.url, request.guard), request.timeoutMs);
  if (target === 'timeout') return fail('timeout', 'no answer in time', `resolving ${hostOf(request.url)} took longer than ${request.timeoutMs} ms`);
  if (!target.ok) return fail('refused_target', target.message, target.detail);
  const url = new URL(request.url);
  return exchange(request, url, target.address, target.family, Math.max(1, deadline - Date.now()));
}

function exchange(request: GuardedRequest, url: URL, address: string, family: 4 | 6, timeoutMs: number): Promise<GuardedAnswer> {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const protocol = url.protocol === 'https:' ? https : http;
  const where = `${url.host} (${address})`;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: GuardedAnswer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish(fail('timeout', 'no answer in time', `${where} gave no complete answer within ${timeoutMs} ms`)), timeoutMs);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    headers.host = url.host;
    if (request.body !== undefined) headers['content-length'] = String(request.body.byteLength);
    const req = protocol.request({
      method: request.method ?? 'GET',
      // the connection goes to the admitted address; the name travels only in Host and SNI
      host: address,
      family,
      port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      // the server's certificate is checked against this name; SNI must not carry an IP literal
      ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
      lookup: pinnedLookup(address, family),
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        finish(fail('redirect', 'a redirect, which is not followed', `${where} answered HTTP ${status} (redirect to ${res.headers.location ?? 'nowhere'})`));
        return;
      }
      if (Number(res.headers['content-length'] ?? '0') > request.maxBodyBytes) {
        finish(fail('too_large', 'an answer larger than allowed', `${where} announced ${res.headers['content-length']} bytes, more than ${request.maxBodyBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > request.maxBodyBytes) {
          finish(fail('too_large', 'an answer larger than allowed', `${where} sent more than ${request.maxBodyBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => finish({ ok: true, status, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (error) => finish(fail('connection', 'the connection failed', `${where}: ${error.message}`)));
      res.on('aborted', () => finish(fail('connection', 'the connection failed', `${where} cut its answer short`)));
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish(fail('connection', 'the connection failed', `${where}: ${error.code ?? error.message}`)));
    req.end(request.body === undefined ? undefined : Buffer.from(request.body));
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Never consulted while `host` is an address; pinned anyway, so no code path can resolve the name again. */
function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an unparsable URL';
  }
}

function fail(failure: GuardedFailure, reason: string, detail: string): GuardedAnswer {
  return { ok: false, failure, reason, detail };
}
