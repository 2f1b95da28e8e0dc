/** The Peppol Business Message Envelope (SBDH): write, read, and check against the document it carries. */
export { wrapInSbdh } from './sbdh-write.ts';
export { readSbdh, readSbdhWith } from './sbdh-read.ts';
export { checkEnvelope, checkSbdhAgainstDocument, payloadFactsOf, readPayloadFacts, type PayloadFacts, type SbdhFinding, type SbdhFindingCode } from './sbdh-check.ts';
export { MLS_TYPES, SBDH_NS, SbdhError, type MlsType, type SbdhEnvelope, type SbdhErrorCode, type SbdhHeader, type SbdhInput } from './sbdh-model.ts';
