import { SapiRefusal } from './errors.ts';

export const PARTICIPANT_HEADER = 'X-Peppol-Participant-Id';

/** Peppol participant identifiers (iso6523-actorid-upis) compare case-insensitively. */
export const sameParticipant = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * sapi-sk.md, Authentication rule 4: every document route names its participant in
 * X-Peppol-Participant-Id, which must be the one the credentials are locked to. Missing is a
 * validation failure (SAPI-VAL-001); another participant is SAPI-AUTH-PARTICIPANT.
 */
export function requireParticipantHeader(locked: string, header: string | undefined): void {
  if (header === undefined || header.trim() === '') {
    throw new SapiRefusal('SAPI-VAL-001', `the ${PARTICIPANT_HEADER} header is required`, [{ field: PARTICIPANT_HEADER, issue: 'required' }]);
  }
  requireLockedParticipant(locked, header, PARTICIPANT_HEADER);
}

/** A participant the request names (header or metadata) must be the credentials' own. */
export function requireLockedParticipant(locked: string, named: string, field: string): void {
  if (sameParticipant(locked, named)) return;
  throw new SapiRefusal('SAPI-AUTH-PARTICIPANT', `participant ${named} is not permitted for these credentials`, [{ field, issue: `must be ${locked}` }]);
}
