/**
 * The production ParticipantDirectory: the Peppol SML (a BDXL/U-NAPTR DNS lookup) names the
 * participant's SMP, and the SMP (Peppol SMP 1.x) lists what it receives and where.
 */
import { type ParticipantDirectory, type ParticipantLookup } from '../participants.ts';
import { capabilitiesOf } from './capabilities.ts';
import { parseSmpParticipantId, participantValue, type ParticipantId } from './participant-id.ts';
import { readParticipantFromSmp } from './smp-client.ts';
import { checkDnsServers, lookupSmpUrl } from './sml-lookup.ts';
import type { SmpHttpOptions } from './smp-http.ts';
import { normaliseZone, smlHostName } from './sml-name.ts';

export const DEFAULT_TIMEOUT_MS = 5000;

export interface SmpDirectoryOptions {
  /** `edelivery.tech.ec.europa.eu` (production SML) or `acc.edelivery.tech.ec.europa.eu` (test SMK) */
  smlZone: string;
  /** DNS servers (`ip` or `ip:port`); the system's when absent */
  dnsServers?: string[];
  /** per DNS query and per SMP request; default 5 s */
  timeoutMs?: number;
  /** for tests; the global fetch by default */
  fetch?: typeof fetch;
}

export function smpParticipantDirectory(options: SmpDirectoryOptions): ParticipantDirectory {
  const zone = normaliseZone(options.smlZone); // a bad zone fails at start-up, not per lookup
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.dnsServers !== undefined) checkDnsServers(options.dnsServers); // likewise
  const http = { fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)), timeoutMs } satisfies SmpHttpOptions;
  return {
    async lookup(participantId: string): Promise<ParticipantLookup> {
      const id = parseSmpParticipantId(participantId);
      const smpUrl = await lookupSmpUrl(smlHostName(id, zone), { dnsServers: options.dnsServers, timeoutMs });
      if (smpUrl === null) return notRegistered(id, null);
      const found = await readParticipantFromSmp(smpUrl, id, http);
      if (!found.registered) return notRegistered(id, smpUrl);
      const capabilities = capabilitiesOf(found.services, new Date());
      return {
        ...base(id),
        registered: true,
        can_receive: capabilities.can_receive_invoice || capabilities.can_receive_credit_note,
        ...capabilities,
        smp_url: smpUrl,
      };
    },
  };
}

function base(id: ParticipantId) {
  return { participant_id: participantValue(id), scheme: id.scheme, identifier: id.value, source: 'smp' as const };
}

function notRegistered(id: ParticipantId, smpUrl: string | null): ParticipantLookup {
  return {
    ...base(id),
    registered: false,
    can_receive: false,
    can_receive_invoice: false,
    can_receive_credit_note: false,
    document_types: [],
    smp_url: smpUrl,
  };
}

