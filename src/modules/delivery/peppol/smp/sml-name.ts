/**
 * The DNS name the SML publishes a participant's NAPTR record under (Peppol SML 1.3.0 and Policy
 * for use of Identifiers 4.4, POLICY 7):
 *   base32(sha256(lower-case identifier VALUE)) without padding . <identifier scheme> . <SML zone>
 * Only the value (`0088:123abc`) is hashed, not the `iso6523-actorid-upis::` prefix: the scheme
 * is the next label instead. The policy's own example, `0088:123abc`, gives
 * `y7dzfxaf3d4cjz4kcgrxtec6twvcga4ky7zwa5boif6mswd4tdrq` (checked in the tests).
 */
import { createHash } from 'node:crypto';
import { base32nopad } from '@scure/base';
import { PARTICIPANT_SCHEME, participantValue, type ParticipantId } from './participant-id.ts';

/** The hash label: 52 characters, within DNS's 63 per label. Lower case, as the SML writes it. */
export function participantHashLabel(id: ParticipantId): string {
  const digest = createHash('sha256').update(participantValue(id).toLowerCase(), 'utf8').digest();
  return base32nopad.encode(digest).toLowerCase();
}

/** `<hash>.iso6523-actorid-upis.<zone>`, e.g. zone `edelivery.tech.ec.europa.eu` (production SML). */
export function smlHostName(id: ParticipantId, smlZone: string): string {
  return `${participantHashLabel(id)}.${PARTICIPANT_SCHEME}.${normaliseZone(smlZone)}`;
}

/** A zone as configured: no leading/trailing dots, lower case; anything but a DNS name is a configuration error. */
export function normaliseZone(smlZone: string): string {
  const zone = smlZone.trim().replace(/^\.+|\.+$/g, '').toLowerCase();
  if (!/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/.test(zone)) {
    throw new Error(`SML zone "${smlZone}" is not a DNS name`);
  }
  return zone;
}
