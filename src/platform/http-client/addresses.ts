import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * What kind of address an outbound call (a webhook, an SMP) would connect to. Only `public` may be called; `loopback` only
 * when local targets are allowed for tests. Everything else is refused.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'other_non_public';

export interface AddressInfo {
  class: AddressClass;
  /** the range that decided it (ipaddr.js names, plus a few of ours), for the refusal's reason */
  range: string;
  /** set when an IPv6 form carries an IPv4 address that was unwrapped and classified instead */
  embedded?: { form: EmbeddingForm; ipv4: string };
}

type EmbeddingForm = 'ipv4_mapped' | 'ipv4_translated' | 'nat64' | '6to4' | 'teredo';

/** IANA global unicast: the only IPv6 space that is public at all. Anything outside it is refused. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** RFC 8215 local-use NAT64 prefix: the operator picks the prefix length, so where the IPv4 sits is unknown; refused whole. */
const NAT64_LOCAL_USE = ipaddr.IPv6.parseCIDR('64:ff9b:1::/48');
/** RFC 6145 IPv4-translated addresses (::ffff:0:a.b.c.d). */
const IPV4_TRANSLATED = ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');
const TEREDO = ipaddr.IPv6.parseCIDR('2001::/32');

/** Classifies an address as given by a resolver or a URL literal (canonical text, no octal or hex forms). */
export function classifyAddress(ip: string): AddressClass {
  return inspectAddress(ip).class;
}

export function inspectAddress(ip: string): AddressInfo {
  const text = stripZone(ip);
  const version = isIP(text);
  if (version === 4) return classifyV4(ipaddr.IPv4.parse(text));
  if (version === 6) return classifyV6(ipaddr.IPv6.parse(text));
  return { class: 'other_non_public', range: 'not_an_ip_address' };
}

function stripZone(ip: string): string {
  const percent = ip.indexOf('%');
  return percent < 0 ? ip : ip.slice(0, percent);
}

function classifyV4(address: ipaddr.IPv4): AddressInfo {
  const range = address.range();
  switch (range) {
    case 'unicast':
      return { class: 'public', range };
    case 'loopback':
      return { class: 'loopback', range };
    case 'private':
      return { class: 'private', range };
    case 'linkLocal':
      return { class: 'link_local', range };
    default:
      // unspecified (0/8), broadcast, multicast, carrierGradeNat (100.64/10), reserved (incl. the
      // documentation and 198.18/15 benchmarking nets, 240/4), as112, amt
      return { class: 'other_non_public', range };
  }
}

function classifyV6(address: ipaddr.IPv6): AddressInfo {
  const embedded = embeddedIPv4(address);
  if (embedded === 'refused') return { class: 'other_non_public', range: 'nat64_local_use' };
  if (embedded) return unwrap(embedded.form, embedded.ipv4s);

  // widened: ipaddr.js's type omits some names it returns (deprecatedSiteLocal, discard, ...)
  const range: string = address.range();
  switch (range) {
    case 'loopback':
      return { class: 'loopback', range };
    case 'uniqueLocal':
    case 'deprecatedSiteLocal':
      return { class: 'private', range };
    case 'linkLocal':
      return { class: 'link_local', range };
    case 'unicast':
      // ipaddr.js calls all unlisted space unicast; only 2000::/3 is actually allocated for it
      return address.match(GLOBAL_UNICAST_V6)
        ? { class: 'public', range }
        : { class: 'other_non_public', range: 'unallocated' };
    default:
      // unspecified, multicast, discard, benchmarking, documentation, orchid, ...
      return { class: 'other_non_public', range };
  }
}

type Embedded = { form: EmbeddingForm; ipv4s: ipaddr.IPv4[] };

function embeddedIPv4(address: ipaddr.IPv6): Embedded | 'refused' | undefined {
  const p = address.parts;
  if (address.isIPv4MappedAddress()) return { form: 'ipv4_mapped', ipv4s: [v4(p[6], p[7])] };
  if (address.match(IPV4_TRANSLATED)) return { form: 'ipv4_translated', ipv4s: [v4(p[6], p[7])] };
  if (address.match(NAT64_WELL_KNOWN)) return { form: 'nat64', ipv4s: [v4(p[6], p[7])] };
  if (address.match(NAT64_LOCAL_USE)) return 'refused';
  if (address.match(SIX_TO_FOUR)) return { form: '6to4', ipv4s: [v4(p[1], p[2])] };
  // Teredo carries the server's address in clear and the client's inverted; both must be public
  if (address.match(TEREDO)) return { form: 'teredo', ipv4s: [v4(p[2], p[3]), v4(~(p[6] ?? 0), ~(p[7] ?? 0))] };
  return undefined;
}

function v4(high: number | undefined, low: number | undefined): ipaddr.IPv4 {
  const h = (high ?? 0) & 0xffff;
  const l = (low ?? 0) & 0xffff;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/** The embedding is as public as the worst IPv4 it carries. */
function unwrap(form: EmbeddingForm, ipv4s: ipaddr.IPv4[]): AddressInfo {
  let chosen: AddressInfo | undefined;
  for (const ipv4 of ipv4s) {
    const info: AddressInfo = { ...classifyV4(ipv4), embedded: { form, ipv4: ipv4.toString() } };
    if (!chosen || (chosen.class === 'public' && info.class !== 'public')) chosen = info;
  }
  return chosen ?? { class: 'other_non_public', range: form };
}
