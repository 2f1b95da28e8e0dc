import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

function parse(address: string): Address | null {
  try {
    const parsed = ipaddr.parse(address.trim());
    // Node reports IPv4 peers on a dual-stack socket as ::ffff:a.b.c.d
    return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  } catch {
    return null;
  }
}

/**
 * Which peers may tell us the client's address in X-Forwarded-For: addresses or CIDRs
 * (TRUSTED_PROXIES). Throws on an entry that is neither, so a typo fails the boot.
 */
export function trustedProxies(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map((entry) => {
    const text = entry.trim();
    if (text.includes('/')) {
      if (!ipaddr.isValidCIDR(text)) throw new Error(`TRUSTED_PROXIES: not a CIDR: ${entry}`);
      const [network, bits] = ipaddr.parseCIDR(text);
      const mapped = parse(network.toString());
      // an IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) matches as its IPv4 range
      return mapped && mapped.kind() !== network.kind() ? ([mapped, bits - 96] as const) : ([network, bits] as const);
    }
    const address = parse(text);
    if (!address) throw new Error(`TRUSTED_PROXIES: not an address: ${entry}`);
    return [address, address.kind() === 'ipv4' ? 32 : 128] as const;
  });
  return (address) => {
    const parsed = parse(address);
    return parsed !== null && ranges.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network as Address, bits));
  };
}

/**
 * The client's address: the peer's, unless the peer is a trusted proxy; then X-Forwarded-For read
 * from the right (each proxy appends the address it saw), skipping trusted proxies: the first
 * address no proxy of ours added is the client's. Entries a client forged to the left of it are
 * never read. A header with nothing usable leaves the peer's address.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trusted: (address: string) => boolean): string {
  const peerAddress = parse(peer)?.toString() ?? peer;
  if (!trusted(peer) || !forwardedFor) return peerAddress;
  const hops = forwardedFor.split(',').map((h) => h.trim()).filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i] ?? '');
    if (!hop) return peerAddress; // garbage where an address should be: believe only the peer
    if (!trusted(hop.toString())) return hop.toString();
  }
  return parse(hops[0] ?? '')?.toString() ?? peerAddress;
}
