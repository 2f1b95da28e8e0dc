/** The Peppol SML + SMP participant directory (see README.md). */
export { smpParticipantDirectory, DEFAULT_TIMEOUT_MS, type SmpDirectoryOptions } from './directory.ts';
export { parseSmpParticipantId, participantValue, qualifiedParticipantId } from './participant-id.ts';
export { participantHashLabel, smlHostName } from './sml-name.ts';
export { chooseSmpUrl, applyUnaptrRegexp, SMP_NAPTR_SERVICE, type NaptrRecord } from './naptr-select.ts';
