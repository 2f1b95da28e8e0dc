// The delivery module's door: what other modules, the front doors and the composition root may use of it.
export { buildTdd, TddBuildError } from './fs/tax-data-document/index.ts';
export { receivePeppolMessage, type InboundPeppolMessage, type ReceivingDeps } from './inbound.ts';
export type { MlsMatcher } from './mls/receive-mls.ts';
export {
  BILLING_PROCESS_ID, documentTypeFor, isSpisParticipant, MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID, SK_TAX_DATA_DOCUMENT_TYPE_ID, spisParticipantOf, TAX_REPORTING_PROCESS_ID,
} from './peppol/identifiers.ts';
export { EUSR_DOCUMENT_TYPE_ID, OPENPEPPOL_REPORTING_RECEIVER, REPORTING_PROCESS_ID, TSR_DOCUMENT_TYPE_ID } from './peppol/identifiers.ts';
export { type PeppolNetwork, type PeppolReceipt, PeppolRefusedError, PeppolRejectedError, PeppolTransportError } from './peppol/peppol-network.ts';
export { as4PeppolNetwork, as4MessageIdOf } from './peppol/as4-network.ts';
export { as4Receiver, type As4Receiver, type As4Answer } from './peppol/as4-receive.ts';
export { boundedFetch, distrustOf, loadPeppolPki, peppolHealth, type PeppolHealth, type PeppolPki, type RevocationFetch } from './peppol/pki/index.ts';
export { wrapInSbdh } from './peppol/sbdh.ts';
export { type CheckCertificate } from './peppol/certificate-check.ts';
export { loadStaticEndpoints, peppolDiscovery, type PeppolDiscovery } from './peppol/smp/index.ts';
export { bounded as boundedAttempt } from './schedule/bounded.ts';
export { TAX_AUTHORITY } from './schedule/fs-filings.ts';
export { currentInvoice } from './reactors/load.ts';
export { RECEIPT_HEADERS, receiptAnswer } from './receipt-route.ts';
export { sandboxParticipantDirectory } from './sandbox/directory.ts';
export { checkSandboxRules, sandbox, type Sandbox } from './sandbox/index.ts';
export { withLocalParticipants } from './peppol/local-participants.ts';
export type { SandboxCorner5 } from './sandbox/corner5.ts';
export type { ReceiveMessage } from './sandbox/peppol.ts';
