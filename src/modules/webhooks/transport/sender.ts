import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { WebhookAgents } from './agents.ts';

export interface WebhookRequest {
  url: string;
  /** the address checkTarget admitted: the only one this request may connect to */
  address: string;
  family: 4 | 6;
  headers: Record<string, string>;
  body: string;
  /** for the whole exchange: connect, send, response headers and body */
  timeoutMs: number;
  /** the endpoint's keep-alive agent (WebhookAgents.for); without one, a shared pool per address */
  agent?: http.Agent;
}

export type SendOutcome = 'success' | 'non_2xx' | 'timeout' | 'connection' | 'redirect';

export interface SendResult {
  outcome: SendOutcome;
  http_status: number | null;
  duration_ms: number;
  error?: string;
}

/** What is read of an answer's body (and thrown away); past it the socket is closed instead of drained. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

const sharedAgents = new WebhookAgents();

/**
 * POSTs one webhook attempt. It connects to the pinned address itself (so no DNS answer is ever
 * consulted here: a rebinding resolver cannot steer it), sends the URL's host as Host and TLS SNI,
 * never follows a redirect, and never throws: every ending is an outcome. An abort through
 * `signal` ends as `connection` with error `aborted`.
 */
export function sendWebhook(request: WebhookRequest, signal?: AbortSignal): Promise<SendResult> {
  const started = performance.now();
  let target: Target;
  try {
    target = targetOf(request);
  } catch (error) {
    return Promise.resolve({ outcome: 'connection', http_status: null, duration_ms: 0, error: messageOf(error) });
  }
  if (signal?.aborted) return Promise.resolve({ outcome: 'connection', http_status: null, duration_ms: 0, error: 'aborted' });

  return new Promise((resolve) => {
    let status: number | null = null;
    let req: http.ClientRequest | undefined;
    let settled = false;
    const timer = setTimeout(() => {
      finish('timeout', `no complete answer within ${request.timeoutMs} ms`);
      req?.destroy();
    }, request.timeoutMs);
    const onAbort = (): void => {
      finish('connection', 'aborted');
      req?.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (outcome: SendOutcome, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      const result: SendResult = { outcome, http_status: status, duration_ms: Math.round(performance.now() - started) };
      if (error !== undefined) result.error = error;
      resolve(result);
    };

    const attempt = (mayRetryStaleSocket: boolean): void => {
      try {
        req = (target.protocol === 'https:' ? https : http).request(requestOptions(request, target));
      } catch (error) {
        finish('connection', messageOf(error));
        return;
      }
      const current = req;
      current.on('response', (res) => {
        status = res.statusCode ?? null;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > RESPONSE_BODY_LIMIT) {
            finish(outcomeOf(status));
            res.destroy(); // not worth draining: the socket is dropped instead of reused
          }
        });
        res.on('end', () => finish(outcomeOf(status)));
        res.on('error', (error) => finish('connection', messageOf(error)));
        res.on('aborted', () => finish('connection', 'the answer was cut short'));
      });
      current.on('upgrade', (res, socket) => {
        status = res.statusCode ?? null;
        socket.destroy();
        finish('non_2xx');
      });
      current.on('error', (error: NodeJS.ErrnoException) => {
        // An idle keep-alive socket the server closed just now fails before any answer: the request
        // never reached it, so it goes once more on a fresh socket (Node's documented pattern).
        if (mayRetryStaleSocket && current.reusedSocket && status === null && (error.code === 'ECONNRESET' || error.code === 'EPIPE') && !settled) {
          attempt(false);
          return;
        }
        finish('connection', error.code ?? error.message);
      });
      current.end(target.body);
    };
    attempt(true);
  });
}

interface Target {
  protocol: 'http:' | 'https:';
  hostname: string;
  hostHeader: string;
  port: number;
  path: string;
  body: Buffer;
}

function targetOf(request: WebhookRequest): Target {
  const url = new URL(request.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`the scheme ${url.protocol} is not http or https`);
  if (isIP(request.address) !== request.family) throw new Error(`the pinned address ${request.address} is not an IPv${request.family} address`);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    protocol: url.protocol,
    hostname,
    hostHeader: url.host, // as written: default port left out, IPv6 in brackets
    port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
    path: `${url.pathname}${url.search}`,
    body: Buffer.from(request.body, 'utf8'),
  };
}

function requestOptions(request: WebhookRequest, target: Target): https.RequestOptions {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
  headers.host = target.hostHeader;
  headers['content-length'] = String(target.body.length);
  return {
    method: 'POST',
    // the connection goes to the pinned address; the name travels only in Host and SNI
    host: request.address,
    family: request.family,
    port: target.port,
    path: target.path,
    headers,
    agent: request.agent ?? sharedAgents.for(request.address, target.protocol),
    // the certificate is checked against this name; SNI must not carry an IP literal
    ...(target.protocol === 'https:' && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
    // never consulted while host is an address; pinned anyway, so no code path can resolve the name
    lookup: pinnedLookup(request.address, request.family),
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function pinnedLookup(address: string, family: 4 | 6) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

function outcomeOf(status: number | null): SendOutcome {
  if (status !== null && status >= 200 && status < 300) return 'success';
  if (status !== null && status >= 300 && status < 400) return 'redirect';
  return 'non_2xx';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
