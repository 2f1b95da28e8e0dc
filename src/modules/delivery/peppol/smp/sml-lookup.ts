/**
 * The BDXL step: the participant's NAPTR records from DNS, through node:dns's Resolver (c-ares),
 * and from them the SMP URL. No record (NXDOMAIN or no NAPTR data) means the SML does not know the
 * participant; a timeout, a server failure or an unreachable server is a failed lookup.
 */
import { Resolver } from 'node:dns/promises';
import { ParticipantLookupError } from '../participants.ts';
import { chooseSmpUrl, type NaptrRecord } from './naptr-select.ts';

export interface SmlLookupOptions {
  /** `ip` or `ip:port` (DNS_SERVER); the system's resolvers when absent */
  dnsServers?: string[];
  timeoutMs: number;
  /** where the detail of a failure goes (the record met): our logs, not the client */
  logDetail?: (detail: string) => void;
}

/**
 * The SMP base URL, or null when the SML has no SMP for this name. `about` names the participant
 * in errors; the records themselves (which carry URLs) go to the log only.
 */
export async function lookupSmpUrl(hostName: string, about: string, options: SmlLookupOptions): Promise<string | null> {
  const records = await queryNaptr(hostName, about, options);
  const choice = chooseSmpUrl(records);
  if (choice.kind === 'none') return null;
  if (choice.kind === 'unusable') {
    options.logDetail?.(`SML record for ${about} (${hostName}) is unusable: ${choice.reason}`);
    throw new ParticipantLookupError('participant_lookup_failed', `the SML's record for ${about} is unusable (no U-NAPTR record gives an SMP URL)`);
  }
  return choice.url;
}

/** Throws (at start-up) for a server list node:dns would refuse at every lookup. */
export function checkDnsServers(servers: string[]): void {
  try {
    new Resolver().setServers(servers);
  } catch (error) {
    throw new Error(`DNS_SERVER "${servers.join(',')}" must be an IP address with an optional port (ip:port, [ipv6]:port)`, { cause: error });
  }
}

// c-ares answers for a name that does not exist, and for one without NAPTR data
const NOT_REGISTERED = new Set(['ENOTFOUND', 'ENODATA']);

async function queryNaptr(hostName: string, about: string, options: SmlLookupOptions): Promise<NaptrRecord[]> {
  // Two tries per server inside the budget; the timer below bounds the whole query whatever c-ares does
  const resolver = new Resolver({ timeout: Math.max(50, Math.floor(options.timeoutMs / 2)), tries: 2 });
  if (options.dnsServers !== undefined && options.dnsServers.length > 0) resolver.setServers(options.dnsServers);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    resolver.cancel();
  }, options.timeoutMs);
  try {
    return await resolver.resolveNaptr(hostName);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (NOT_REGISTERED.has(code)) return [];
    const why = timedOut || code === 'ETIMEOUT' ? `timed out after ${options.timeoutMs} ms` : `failed (${code || String(error)})`;
    throw new ParticipantLookupError('participant_lookup_failed', `the SML DNS lookup of ${about} ${why}`);
  } finally {
    clearTimeout(timer);
  }
}
