/**
 * Participant identifiers for the SML and the SMP: `<ICD>:<value>` under the scheme
 * `iso6523-actorid-upis`, the value lower-cased as Peppol compares it (Policy for use of
 * Identifiers 4.4, POLICY 2). The syntax rules live in ../peppol/identifiers.ts; here a malformed
 * id becomes the port's `invalid_participant_id`.
 */
import { PARTICIPANT_SCHEME, ParticipantIdError, parseParticipantId, type ParticipantId } from '../identifiers.ts';
import { ParticipantLookupError } from '../participants.ts';

export { PARTICIPANT_SCHEME };
export type { ParticipantId };

/** Parses `0245:2020123456` (or `iso6523-actorid-upis::0245:…`); throws ParticipantLookupError. */
export function parseSmpParticipantId(input: string): ParticipantId {
  try {
    return parseParticipantId(input);
  } catch (error) {
    if (error instanceof ParticipantIdError) throw new ParticipantLookupError('invalid_participant_id', error.message);
    throw error;
  }
}

/** `0245:2020123456`: the identifier value, what the SML hashes. */
export function participantValue(id: ParticipantId): string {
  return `${id.scheme}:${id.value}`;
}

/** `iso6523-actorid-upis::0245:2020123456`: the scheme-qualified form an SMP URL carries. */
export function qualifiedParticipantId(id: ParticipantId): string {
  return `${PARTICIPANT_SCHEME}::${participantValue(id)}`;
}
