import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { inspectAddress, type AddressClass } from './addresses.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS as a port, so tests can answer what they like (a public address, then 127.0.0.1). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface TargetOptions {
  /** for tests (WEBHOOK_ALLOW_PRIVATE_TARGETS, PEPPOL_DISCOVERY_ALLOW_LOOPBACK): admits 127.0.0.0/8 and ::1 as written, nothing else */
  allowLoopback: boolean;
  resolve: Resolver;
}

export type TargetRefusal = 'invalid_url' | 'scheme_not_allowed' | 'credentials_in_url' | 'unresolvable' | 'address_not_public';

/**
 * Why, in the general terms a client may read: the kind of address, never the address a name
 * resolved to (a refusal naming it would let any API-key holder map internal DNS through us).
 */
export type TargetReason = Exclude<TargetRefusal, 'address_not_public'> | 'loopback' | 'private' | 'link_local' | 'not_public';

export type TargetCheck =
  | { ok: true; host: string; port: number; protocol: 'http:' | 'https:'; address: string; family: 4 | 6 }
  | {
    ok: false;
    code: TargetRefusal;
    /** for the client: a general reason and its words, with no address in them */
    reason: TargetReason;
    message: string;
    /** for our logs only: the host and what it resolved to */
    detail: string;
  };

const NOT_PUBLIC: Record<Exclude<AddressClass, 'public'>, { reason: TargetReason; words: string }> = {
  loopback: { reason: 'loopback', words: 'a loopback address' },
  private: { reason: 'private', words: 'a private network address' },
  link_local: { reason: 'link_local', words: 'a link-local address' },
  other_non_public: { reason: 'not_public', words: 'an address that is not public (reserved, shared, multicast or unspecified space)' },
};

/**
 * Decides whether a URL someone else named may be called (a webhook endpoint; an SMP named by DNS),
 * and which address to call it at. Webhooks run it at create and again before each attempt;
 * guarded-request.ts runs it before each request. The request then connects to exactly `address`,
 * so a second DNS answer (rebinding) can never steer it elsewhere.
 */
export async function checkTarget(url: string, opts: TargetOptions): Promise<TargetCheck> {
  let parsed: URL;
  try {
    // WHATWG parsing turns decimal, octal and hex IPv4 hosts (2130706433, 0177.0.0.1, 0x7f.1) into dotted decimal
    parsed = new URL(url);
  } catch {
    return refuse('invalid_url', 'invalid_url', 'the URL does not parse');
  }
  const protocol = parsed.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return refuse('scheme_not_allowed', 'scheme_not_allowed', `the scheme ${protocol} is not http or https`);
  if (parsed.username !== '' || parsed.password !== '') return refuse('credentials_in_url', 'credentials_in_url', 'the URL carries credentials');
  const host = unbracket(parsed.hostname);
  if (host === '') return refuse('invalid_url', 'invalid_url', 'the URL has no host');
  const port = parsed.port === '' ? (protocol === 'https:' ? 443 : 80) : Number(parsed.port);

  let addresses: ResolvedAddress[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await opts.resolve(host);
    } catch (error) {
      return refuse('unresolvable', 'unresolvable', 'the host does not resolve', `${host} does not resolve (${errorCode(error)})`);
    }
    if (addresses.length === 0) return refuse('unresolvable', 'unresolvable', 'the host does not resolve', `${host} resolves to no address`);
  }

  // every answer must pass: a client may connect to any of them, and so could a later resolution
  for (const { address } of addresses) {
    const info = inspectAddress(address);
    if (info.class === 'public') continue;
    if (opts.allowLoopback && info.class === 'loopback' && !info.embedded) continue;
    const via = info.embedded ? ` (${info.embedded.form} of ${info.embedded.ipv4})` : '';
    const { reason, words } = NOT_PUBLIC[info.class];
    const message = literal !== 0 ? `the host is ${words}` : `the host resolves to ${words}`;
    return refuse('address_not_public', reason, message, `${host} resolves to ${address}${via}, which is ${info.class} (${info.range})`);
  }

  const first = addresses[0] as ResolvedAddress;
  return { ok: true, host, port, protocol, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}

/** `detail` (for our logs) defaults to the message when there is nothing more to say. */
function refuse(code: TargetRefusal, reason: TargetReason, message: string, detail = message): TargetCheck {
  return { ok: false, code, reason, message, detail };
}

function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
