import ipaddr from 'ipaddr.js';
import { InvalidFields, type FieldProblem } from '../shared/invalid-fields.ts';

/** At most this many entries: an allowlist names a client's egress addresses, not the Internet. */
export const MAX_ALLOWLIST_ENTRIES = 50;

/**
 * An allowlist as stored: each entry a CIDR (`203.0.113.0/24`, `2001:db8::/32`) or a single address
 * (taken as /32 or /128), in canonical form (the network address, so `10.1.2.3/8` is `10.0.0.0/8`).
 * Anything else is refused field by field (422, `body.cidrs.<i>`). Duplicates are kept once.
 */
export function canonicalAllowlist(entries: readonly string[]): string[] {
  const problems: FieldProblem[] = [];
  const out: string[] = [];
  if (entries.length > MAX_ALLOWLIST_ENTRIES) {
    throw new InvalidFields([{ loc: ['body', 'cidrs'], msg: `at most ${MAX_ALLOWLIST_ENTRIES} entries`, type: 'value_error', input: entries.length }]);
  }
  entries.forEach((entry, i) => {
    const canonical = canonicalCidr(entry.trim());
    if (canonical === null) problems.push({ loc: ['body', 'cidrs', i], msg: 'not an IPv4 or IPv6 address or CIDR', type: 'value_error', input: entry });
    else if (!out.includes(canonical)) out.push(canonical);
  });
  if (problems.length > 0) throw new InvalidFields(problems);
  return out;
}

/** Only the usual notations: four-part dotted IPv4 (never `1.2.3` or hex/octal forms ipaddr.js would also take) or IPv6. */
function strictAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (text.includes(':')) return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
}

function canonicalCidr(entry: string): string | null {
  const [text = '', bitsText, ...rest] = entry.split('/');
  if (rest.length > 0) return null;
  const address = strictAddress(text);
  if (!address) return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  if (bitsText === undefined) return `${address.toString()}/${max}`;
  if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > max) return null;
  const cidr = `${address.toString()}/${Number(bitsText)}`;
  const network = address.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(cidr) : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  return `${network.toString()}/${Number(bitsText)}`;
}

/** An address as compared: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, how Node reports IPv4 on a dual-stack socket) is its IPv4. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    const parsed = ipaddr.parse(address.trim());
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  } catch {
    return null;
  }
}

/** Whether `address` is allowed by the canonical allowlist (empty = any address; an unparsable address is never allowed by a non-empty list). */
export function allowedAddress(cidrs: readonly string[], address: string): boolean {
  if (cidrs.length === 0) return true;
  const parsed = parseAddress(address);
  if (!parsed) return false;
  return cidrs.some((cidr) => {
    const [network, bits] = ipaddr.parseCIDR(cidr);
    return network.kind() === parsed.kind() && parsed.match([network, bits] as [typeof parsed, number]);
  });
}
