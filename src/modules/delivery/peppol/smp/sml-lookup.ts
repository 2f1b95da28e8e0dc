/**
 * The BDXL step: the participant's NAPTR records from DNS, through node:dns's Resolver (c-ares),
 * and from them the SMP URL. No record (NXDOMAIN or no NAPTR data) means the SML does not know the
 * participant; a timeout, a server failure or an unreachable server is a failed lookup.
 */
import { Resolver } from 'node:dns/promises';
import { ParticipantLookupError } from '../participants.ts';
import { chooseSmpUrl, type NaptrRecord } from './naptr-select.ts';

interface SmlLookupOptions {
  /** `ip` or `ip:port`; the system's resolvers when absent */
  dnsServers?: string[];
  timeoutMs: number;
}

/** The SMP base URL, or null when the SML has no SMP for this name. */
export async function lookupSmpUrl(hostName: string, options: SmlLookupOptions): Promise<string | null> {
  const records = await queryNaptr(hostName, options);
  const choice = chooseSmpUrl(records);
  if (choice.kind === 'none') return null;
  if (choice.kind === 'unusable') {
    throw new ParticipantLookupError('participant_lookup_failed', `the SML's record for ${hostName} is unusable: ${choice.reason}`);
  }
  return choice.url;
}

/** Throws (at start-up) for a server list node:dns would refuse at every lookup. */
export function checkDnsServers(servers: string[]): void {
  new Resolver().setServers(servers);
}

// c-ares answers for a name that does not exist, and for one without NAPTR data
const NOT_REGISTERED = new Set(['ENOTFOUND', 'ENODATA']);

async function queryNaptr(hostName: string, options: SmlLookupOptions): Promise<NaptrRecord[]> {
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
    throw new ParticipantLookupError('participant_lookup_failed', `SML DNS lookup of ${hostName} ${why}`);
  } finally {
    clearTimeout(timer);
  }
}
