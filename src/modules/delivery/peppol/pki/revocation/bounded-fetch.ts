import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One request to an OCSP responder or a CRL distribution point. */
export interface RevocationRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: Uint8Array;
  contentType?: string;
  accept: string;
}

/** Fetches a revocation answer's bytes, or throws RevocationFetchError (the responder is unreachable for our purposes). */
export type RevocationFetch = (request: RevocationRequest) => Promise<Uint8Array>;

export class RevocationFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevocationFetchError';
  }
}

export interface BoundedFetchOptions {
  /** the whole exchange: connect, send, answer */
  timeoutMs: number;
  /** a larger answer is cut off and refused */
  maxBytes: number;
  /** admit 127.0.0.0/8 and ::1 (tests' local responders); never in production */
  allowLoopback: boolean;
  /** DNS as a port (tests); the system resolver by default */
  resolve?: (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;
}

/**
 * A small bounded HTTP client for revocation sources: the URL comes from a certificate a peer
 * sent, so it gets the webhook sender's rules (src/modules/webhooks/transport): public addresses
 * only (loopback when allowed for tests), the address checked is the address connected to, no
 * redirect followed, bounded in time and size. The webhook guard itself is not reachable from the
 * delivery module (no module edge); when the discovery part moves it to src/platform, this should
 * use it instead of `publicEnough` below.
 */
export function boundedFetch(options: BoundedFetchOptions): RevocationFetch {
  const resolve = options.resolve ?? systemResolve;
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new RevocationFetchError('the revocation URL does not parse');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RevocationFetchError(`the revocation URL's scheme ${url.protocol} is not http or https`);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) === 6 ? (6 as const) : (4 as const) }] : await resolve(host).catch(() => []);
    if (addresses.length === 0) throw new RevocationFetchError('its host does not resolve');
    const refused = addresses.find((a) => !publicEnough(a.address, options.allowLoopback));
    if (refused) throw new RevocationFetchError('its host resolves to an address that is not public');
    return exchange(url, addresses[0] as { address: string; family: 4 | 6 }, request, options);
  };
}

async function systemResolve(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/** Public unicast (IPv4-mapped IPv6 judged as its IPv4), or loopback when allowed. */
function publicEnough(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range === 'loopback') return allowLoopback;
  if (parsed.kind() === 'ipv4') return range === 'unicast';
  // ipaddr.js names 6to4, Teredo and NAT64 space apart from `unicast`: they are refused with the rest
  return range === 'unicast' && (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}

function exchange(url: URL, target: { address: string; family: 4 | 6 }, request: RevocationRequest, options: BoundedFetchOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(timer);
      req.destroy();
      reject(new RevocationFetchError(message));
    };
    const headers: Record<string, string> = { host: url.host, accept: request.accept };
    if (request.body) {
      headers['content-type'] = request.contentType ?? 'application/octet-stream';
      headers['content-length'] = String(request.body.byteLength);
    }
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const req = (url.protocol === 'https:' ? https : http).request({
      method: request.method,
      host: target.address, // the checked address, never a second DNS answer
      family: target.family,
      port: url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
    });
    const timer = setTimeout(() => fail(`no answer within ${options.timeoutMs} ms`), options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => fail(`unreachable (${error.code ?? error.message})`));
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        // a redirect is not followed: its target was never checked
        fail(`answered HTTP ${res.statusCode ?? 'without a status'}`);
        return;
      }
      if (Number(res.headers['content-length'] ?? '0') > options.maxBytes) {
        fail(`answer larger than ${options.maxBytes} bytes`);
        return;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > options.maxBytes) fail(`answer larger than ${options.maxBytes} bytes`);
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        if (total <= options.maxBytes) resolve(Buffer.concat(chunks));
      });
      res.on('error', (error) => fail(`the answer broke off (${error.message})`));
    });
    req.end(request.body);
  });
}
